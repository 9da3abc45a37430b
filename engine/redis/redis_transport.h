#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

#include "redis/redis_error.h"

namespace ratelab {

// The byte stream under a RedisConnection: commands already formatted as RESP go in, replies
// come out of hiredis's reply parser (redisReader). Two implementations: a plain socket
// (hiredis's own redisContext, PlainTransport) and a TLS session on a socket of our own
// (TlsTransport). Both are non-blocking; RedisConnection does every wait with poll() against
// its deadlines, so the rules for timeouts and interrupts are the same over both.
class RedisTransport {
public:
    enum class Io { Done, WantRead, WantWrite, Failed };

    // Waits until `fd` is ready for `events` (POLLIN/POLLOUT). Used while connecting; throws
    // RedisError(Kind::Connect) when the connect deadline passes or an interrupt cuts it short.
    using Wait = std::function<void(int fd, short events)>;

    struct Failure {
        RedisError::Kind kind = RedisError::Kind::Io;
        std::string reason;  // for the message ("Connection reset by peer")
        std::string cause;   // for the error counters ("connection lost")
    };

    virtual ~RedisTransport() = default;

    virtual int fd() const = 0;
    // Queues bytes to send. False when the transport has failed.
    virtual bool append(const char* data, std::size_t size) = 0;
    // Sends queued bytes: Done when none are left, WantRead/WantWrite when the socket must get
    // ready first (then call again), Failed on an error (failure()).
    virtual Io write() = 0;
    // What to wait for before read() can make progress: POLLIN, POLLOUT (a TLS session may need
    // to write to read), or 0 when bytes are already buffered and read() is due at once.
    virtual short readEvents() const = 0;
    // Reads what has arrived (if anything) into the reply parser. False on an error or EOF.
    virtual bool read() = 0;
    // The next complete reply (a redisReply*) or nullptr when more bytes are needed. False on a
    // protocol error.
    virtual bool nextReply(void** reply) = 0;
    // Why the last operation failed; `savedErrno` is errno right after it.
    virtual Failure failure(int savedErrno) const = 0;
};

// "connection refused", "connection lost", ...: the error counters' cause of an errno.
std::string causeOfErrno(int error);

}  // namespace ratelab
