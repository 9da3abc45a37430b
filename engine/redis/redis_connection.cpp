#include "redis/redis_connection.h"

#include <poll.h>
#include <sys/socket.h>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>

#include "interrupt_flag.h"
#include "redis/plain_transport.h"
#include "redis/redis_error.h"
#include "redis/tls_transport.h"

namespace ratelab {
namespace {

using Clock = std::chrono::steady_clock;

// Waits are cut into slices this long so an interrupt is noticed.
constexpr std::chrono::milliseconds kWaitSlice{50};

// hiredis writes with write(): a peer that went away would raise SIGPIPE and kill the
// process. A lost server is normal here, so the write must fail with EPIPE instead.
void ignoreSigpipeOnce() {
    static std::once_flag once;
    std::call_once(once, [] { std::signal(SIGPIPE, SIG_IGN); });
}

// The cause of a server error: its first word ("WRONGPASS invalid username-password pair").
std::string causeOfReply(const std::string& text) {
    if (text.rfind("ERR max number of clients", 0) == 0) {
        return "max clients";
    }
    return text.substr(0, text.find(' '));
}

}  // namespace

RedisConnection::RedisConnection(RedisUrl url, ConnectOptions options)
    : url_(std::move(url)), options_(options) {
    ignoreSigpipeOnce();
    connect();
}

RedisConnection::~RedisConnection() = default;

void RedisConnection::setInterruptFlag(const std::atomic<bool>* flag) {
    ratelab::setInterruptFlag(flag);
}

bool RedisConnection::interrupted() {
    return interruptRequested();
}

void RedisConnection::setDeadline(TimePoint deadline) {
    hasDeadline_ = true;
    deadline_ = deadline;
}

void RedisConnection::clearDeadline() {
    hasDeadline_ = false;
}

RedisConnection::TimePoint RedisConnection::deadlineFrom(std::chrono::milliseconds timeout) const {
    const TimePoint own = Clock::now() + timeout;
    return hasDeadline_ ? std::min(own, deadline_) : own;
}

bool RedisConnection::waitFor(short events, TimePoint deadline) const {
    return waitFor(transport_->fd(), events, deadline);
}

bool RedisConnection::waitFor(int socket, short events, TimePoint deadline) {
    bool interruptSeen = false;
    for (;;) {
        TimePoint now = Clock::now();
        if (!interruptSeen && interrupted()) {
            interruptSeen = true;
            deadline = std::min(deadline, now + kInterruptGrace);
        }
        if (now >= deadline) {
            return false;
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
        pollfd fd{socket, events, 0};
        const int ready =
            ::poll(&fd, 1, int(std::clamp<long long>(left.count() + 1, 1, kWaitSlice.count())));
        if (ready > 0) {
            return true;  // readable, writable, or an error/hang-up the next I/O reports
        }
        if (ready < 0 && errno != EINTR) {
            return true;  // let the read or write report it
        }
    }
}

void RedisConnection::connect() {
    if (url_.isSentinel()) {
        connectThroughSentinels();
        return;
    }
    open(url_.host, url_.port);
}

void RedisConnection::open(const QString& host, int port) {
    transport_.reset();
    broken_ = false;
    demoted_ = false;
    pending_ = 0;
    const bool isUnix = url_.transport == RedisUrl::Transport::Unix;
    address_ = isUnix ? url_.socketPath
                      : (host.contains(u':') ? QLatin1Char('[') + host + QLatin1Char(']') : host) +
                            QLatin1Char(':') + QString::number(port);
    const std::string where = url_.isSentinel() ? address_.toStdString() + " (primary of " +
                                                      url_.masterName.toStdString() + ")"
                                                : url_.toDisplayString().toStdString();
    const TimePoint deadline = deadlineFrom(options_.connectTimeout);
    const RedisTransport::Wait wait = [&](int fd, short events) {
        if (!waitFor(fd, events, deadline)) {
            throw RedisError(
                RedisError::Kind::Connect,
                "cannot connect to " + where + ": " + (interrupted() ? "interrupted" : "timed out"),
                interrupted() ? "interrupted" : "connect timeout");
        }
    };
    // Through sentinels: the transport reaches the primary they named.
    RedisUrl target = url_;
    if (url_.isSentinel()) {
        target.transport = RedisUrl::Transport::Tcp;
        target.host = host;
        target.port = port;
    }
    if (target.tls) {
        transport_ = std::make_unique<TlsTransport>(target, wait, options_.replyLimits);
    } else {
        transport_ = std::make_unique<PlainTransport>(target, wait, options_.replyLimits);
    }
    lastIo_ = Clock::now();
    try {
        if (!url_.password.isEmpty()) {
            RedisReply reply =
                url_.user.isEmpty()
                    ? command({"AUTH", url_.password.toStdString()})
                    : command({"AUTH", url_.user.toStdString(), url_.password.toStdString()});
            // The server's message never contains the password, so it is safe to pass on.
            if (reply->type == REDIS_REPLY_ERROR) {
                const std::string text(reply->str, reply->len);
                throw RedisError(RedisError::Kind::Reply, "AUTH on " + where + ": " + text,
                                 causeOfReply(text));
            }
        }
        if (url_.db != 0) {
            RedisReply reply = command({"SELECT", std::to_string(url_.db)});
            if (reply->type == REDIS_REPLY_ERROR) {
                const std::string text(reply->str, reply->len);
                throw RedisError(RedisError::Kind::Reply, "SELECT on " + where + ": " + text,
                                 causeOfReply(text));
            }
            expectStatusOk(reply.get(), ("SELECT on " + where).c_str());
        }
        if (url_.tls && url_.password.isEmpty() && url_.db == 0) {
            // A server that refuses the client's certificate says so only after the handshake,
            // at the first read: find out now, while connecting.
            RedisReply reply = command({"PING"});
            if (reply->type == REDIS_REPLY_ERROR) {
                const std::string text(reply->str, reply->len);
                throw RedisError(RedisError::Kind::Reply, "PING on " + where + ": " + text,
                                 causeOfReply(text));
            }
        }
    } catch (const RedisError& e) {
        transport_.reset();
        throw RedisError(RedisError::Kind::Connect, e.what(), e.cause());
    }
}

void RedisConnection::reconnect() {
    connect();
}

// A server's idle timeout may have closed a connection left alone for a while: before a new
// round of commands on such a connection, PING it, and connect again if it is gone. (A stalled
// server fails the PING as a timeout, like the command would have.)
void RedisConnection::checkIfIdle() {
    if (pending_ != 0 || Clock::now() - lastIo_ < options_.idleCheck) {
        return;
    }
    static const std::string ping = "*1\r\n$4\r\nPING\r\n";
    try {
        if (!transport_->append(ping.data(), ping.size())) {
            fail("checking an idle connection");
        }
        ++pending_;
        readReply();
    } catch (const RedisError& e) {
        if (e.kind() == RedisError::Kind::Timeout) {
            throw;
        }
        connect();
    }
}

void RedisConnection::fail(const char* during) {
    const int error = errno;
    broken_ = true;
    pending_ = 0;
    RedisTransport::Failure failure;
    if (transport_) {
        failure = transport_->failure(error);
    } else {
        failure.reason = "not connected";
        failure.cause = "connection lost";
    }
    throw RedisError(
        failure.kind,
        std::string(during) + " on " + url_.toDisplayString().toStdString() + ": " + failure.reason,
        failure.cause);
}

void RedisConnection::failTimeout(const char* during) {
    broken_ = true;  // a reply may still come: the stream is out of step
    pending_ = 0;
    const bool byInterrupt = interrupted();
    throw RedisError(RedisError::Kind::Timeout,
                     std::string(during) + " on " + url_.toDisplayString().toStdString() + ": " +
                         (byInterrupt ? "interrupted" : "timed out"),
                     byInterrupt ? "interrupted" : "timeout");
}

RedisReply RedisConnection::command(const RedisArgs& args) {
    append(args);
    return readReply();
}

RedisReply RedisConnection::command(std::initializer_list<std::string_view> args) {
    writer_.clear();
    writer_.begin(args.size());
    for (std::string_view a : args) {
        writer_.arg(a);
    }
    appendFormatted(writer_.bytes());
    return readReply();
}

void RedisConnection::append(const RedisArgs& args) {
    writer_.clear();
    writer_.begin(args.size());
    for (const std::string& a : args) {
        writer_.arg(a);
    }
    appendFormatted(writer_.bytes());
}

void RedisConnection::appendFormatted(const std::string& resp, std::size_t commands) {
    if (broken()) {
        fail("sending a command");
    }
    if (url_.isSentinel()) {
        recheckPrimary();
    }
    checkIfIdle();
    if (!transport_->append(resp.data(), resp.size())) {
        fail("sending a command");
    }
    pending_ += commands;
}

void RedisConnection::writeAll(TimePoint deadline, const char* during) {
    for (;;) {
        const RedisTransport::Io io = transport_->write();
        if (io == RedisTransport::Io::Failed) {
            fail(during);
        }
        if (io == RedisTransport::Io::Done) {
            lastIo_ = Clock::now();
            return;
        }
        if (!waitFor(io == RedisTransport::Io::WantRead ? POLLIN : POLLOUT, deadline)) {
            failTimeout(during);
        }
    }
}

void RedisConnection::flush() {
    if (broken()) {
        fail("sending commands");
    }
    writeAll(deadlineFrom(options_.commandTimeout), "sending commands");
}

RedisReply RedisConnection::readReply() {
    if (broken()) {
        fail("reading a reply");
    }
    // One deadline for the whole reply, however its bytes arrive.
    const TimePoint deadline = deadlineFrom(options_.commandTimeout);
    writeAll(deadline, "sending commands");
    void* raw = nullptr;
    for (;;) {
        if (!transport_->nextReply(&raw)) {
            fail("reading a reply");
        }
        if (raw != nullptr) {
            break;
        }
        const short events = transport_->readEvents();
        if (events != 0 && !waitFor(events, deadline)) {
            failTimeout("reading a reply");
        }
        errno = 0;
        if (!transport_->read()) {
            fail("reading a reply");
        }
    }
    lastIo_ = Clock::now();
    if (pending_ > 0) {
        --pending_;
    }
    RedisReply reply(static_cast<redisReply*>(raw));
    // A server at maxclients answers a new connection with this error and closes it: the
    // commands after it will never be answered, and the next use must connect again.
    if (reply->type == REDIS_REPLY_ERROR &&
        std::string_view(reply->str, reply->len).rfind("ERR max number of clients", 0) == 0) {
        broken_ = true;
    }
    // Through sentinels: a primary that turned replica (a failover). The replies still pending
    // are read as usual; then the connection counts as broken and reconnecting asks again.
    if (url_.isSentinel() && reply->type == REDIS_REPLY_ERROR &&
        std::string_view(reply->str, reply->len).rfind("READONLY", 0) == 0) {
        demoted_ = true;
    }
    return reply;
}

}  // namespace ratelab
