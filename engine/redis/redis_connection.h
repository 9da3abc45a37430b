#pragma once

#include <hiredis/hiredis.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "redis/connect_options.h"
#include "redis/redis_reply.h"
#include "redis/redis_transport.h"
#include "redis/resp_guard.h"
#include "redis/resp_writer.h"
#include "url/redis_url.h"

namespace ratelab {

using RedisArgs = std::vector<std::string>;

// One synchronous connection over a RedisTransport: a plain socket (hiredis's redisContext) or,
// for rediss:// URLs, a TLS session; replies and pipelines take the same path over both. Not
// thread-safe: one per thread.
// After connecting it authenticates (AUTH password, or AUTH user password for ACL users)
// and selects the URL's database. Any I/O error or timeout marks it broken; a broken
// connection throws on use until reconnect() succeeds.
//
// A redis-sentinel:// URL connects to the primary its sentinels name (redis/sentinel_connect.cpp):
// each connect and reconnect asks them again, ROLE must say master, and a READONLY reply (the
// primary was demoted) makes the connection count as broken once its pipeline is read, so the
// next use asks again.
//
// The socket is non-blocking and every wait is a poll() against a deadline, so a peer that
// trickles bytes cannot stretch a command past it, and a process-wide interrupt flag (the
// command line's SIGINT/SIGTERM) cuts any wait short within kInterruptGrace.
class RedisConnection {
public:
    // After an interrupt, waits still get this long for replies already on their way.
    static constexpr std::chrono::milliseconds kInterruptGrace{250};

    // Throws RedisError(Kind::Connect) when the server cannot be reached or refuses AUTH/SELECT.
    RedisConnection(RedisUrl url, ConnectOptions options = {});
    ~RedisConnection();
    RedisConnection(const RedisConnection&) = delete;
    RedisConnection& operator=(const RedisConnection&) = delete;

    // One command, one reply. A Redis error reply is returned, not thrown: callers decide
    // (throwIfError). Throws RedisError on I/O failure or timeout.
    RedisReply command(const RedisArgs& args);
    RedisReply command(std::initializer_list<std::string_view> args);

    // Pipelining: append N commands, then read N replies in order.
    void append(const RedisArgs& args);
    // Appends `commands` commands already formatted as RESP (see RespWriter).
    void appendFormatted(const std::string& resp, std::size_t commands = 1);
    // Writes everything appended so far to the socket now, without waiting for replies (hiredis
    // otherwise writes only when the first reply is read).
    void flush();
    RedisReply readReply();
    std::size_t pendingReplies() const { return pending_; }

    // Every wait ends by `deadline` until clearDeadline() (a decision batch: its pipeline, and
    // a reconnect within it). Without one, each command or reply gets commandTimeout from when
    // its wait starts.
    void setDeadline(std::chrono::steady_clock::time_point deadline);
    void clearDeadline();

    // Once *flag is true, every connection's waits end within kInterruptGrace with
    // RedisError(Kind::Timeout, cause "interrupted"). Process-wide, like the signals that set
    // it; nullptr turns it off. The same flag as interrupt_flag.h's (the loops that wait on no
    // server check it there).
    static void setInterruptFlag(const std::atomic<bool>* flag);
    static bool interrupted();

    bool broken() const { return transport_ == nullptr || broken_ || (demoted_ && pending_ == 0); }
    // Drops the old socket and connects again (AUTH, SELECT). Throws RedisError on failure.
    void reconnect();

    const RedisUrl& url() const { return url_; }
    // The server this connection reached: "host:port" (for a sentinel URL, the primary's), or
    // the socket path.
    const QString& serverAddress() const { return address_; }

private:
    using TimePoint = std::chrono::steady_clock::time_point;

    void connect();
    // Connects to one server (TCP host:port, or the URL's socket), then AUTH and SELECT.
    void open(const QString& host, int port);
    // Asks the sentinels for the primary and opens it (redis/sentinel_connect.cpp).
    void connectThroughSentinels();
    // Every kSentinelRecheck, before a round of commands: asks the sentinel again and moves to
    // the primary it names now if that changed (redis/sentinel_connect.cpp).
    void recheckPrimary();
    void checkIfIdle();
    TimePoint deadlineFrom(std::chrono::milliseconds timeout) const;
    // Waits until the socket is ready for `events` (POLLIN/POLLOUT) or the deadline passes.
    bool waitFor(short events, TimePoint deadline) const;
    static bool waitFor(int fd, short events, TimePoint deadline);
    void writeAll(TimePoint deadline, const char* during);
    [[noreturn]] void fail(const char* during);
    [[noreturn]] void failTimeout(const char* during);

    RedisUrl url_;
    ConnectOptions options_;
    std::unique_ptr<RedisTransport> transport_;
    bool broken_ = false;
    std::size_t pending_ = 0;
    bool hasDeadline_ = false;
    TimePoint deadline_{};
    TimePoint lastIo_{};
    RespWriter writer_;
    QString address_;
    // Sentinel: the primary answered READONLY (demoted by a failover).
    bool demoted_ = false;
    // Sentinel: which one answered last (asked first next time), when they were last asked, and
    // why that failed (repeated while the sentinels are not asked again).
    int sentinelIndex_ = 0;
    TimePoint lastAsk_{};
    bool askedBefore_ = false;
    std::string lastAskCause_;
    // Sentinel: the primary connected to, and the connection to the sentinel that named it.
    QString primaryHost_;
    int primaryPort_ = 0;
    std::unique_ptr<RedisConnection> sentinel_;
    TimePoint lastRecheck_{};
};

}  // namespace ratelab
