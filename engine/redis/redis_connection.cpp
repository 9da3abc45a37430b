#include "redis/redis_connection.h"

#include <sys/time.h>
#include <cerrno>
#include <csignal>
#include <mutex>

#include "redis/redis_error.h"

namespace ratelab {
namespace {

timeval toTimeval(std::chrono::milliseconds ms) {
    timeval tv{};
    tv.tv_sec = static_cast<time_t>(ms.count() / 1000);
    tv.tv_usec = static_cast<suseconds_t>((ms.count() % 1000) * 1000);
    return tv;
}

// hiredis writes with write(): a peer that went away would raise SIGPIPE and kill the
// process. A lost server is normal here, so the write must fail with EPIPE instead.
void ignoreSigpipeOnce() {
    static std::once_flag once;
    std::call_once(once, [] { std::signal(SIGPIPE, SIG_IGN); });
}

}  // namespace

RedisConnection::RedisConnection(RedisUrl url, ConnectOptions options)
    : url_(std::move(url)), options_(options) {
    ignoreSigpipeOnce();
    connect();
}

RedisConnection::~RedisConnection() = default;

void RedisConnection::connect() {
    context_.reset();
    broken_ = false;
    pending_ = 0;
    const timeval connectTimeout = toTimeval(options_.connectTimeout);
    redisContext* raw = nullptr;
    if (url_.transport == RedisUrl::Transport::Unix) {
        raw =
            redisConnectUnixWithTimeout(url_.socketPath.toLocal8Bit().constData(), connectTimeout);
    } else {
        raw =
            redisConnectWithTimeout(url_.host.toLocal8Bit().constData(), url_.port, connectTimeout);
    }
    if (raw == nullptr) {
        throw RedisError(RedisError::Kind::Connect, "cannot allocate a Redis connection");
    }
    context_.reset(raw);
    const std::string where = url_.toDisplayString().toStdString();
    if (context_->err) {
        const std::string reason = context_->errstr;
        context_.reset();
        throw RedisError(RedisError::Kind::Connect, "cannot connect to " + where + ": " + reason);
    }
    if (redisSetTimeout(context_.get(), toTimeval(options_.commandTimeout)) != REDIS_OK) {
        context_.reset();
        throw RedisError(RedisError::Kind::Connect, "cannot set the command timeout on " + where);
    }
    try {
        if (!url_.password.isEmpty()) {
            RedisReply reply =
                url_.user.isEmpty()
                    ? command({"AUTH", url_.password.toStdString()})
                    : command({"AUTH", url_.user.toStdString(), url_.password.toStdString()});
            // The server's message never contains the password, so it is safe to pass on.
            expectStatusOk(reply.get(), ("AUTH on " + where).c_str());
        }
        if (url_.db != 0) {
            RedisReply reply = command({"SELECT", std::to_string(url_.db)});
            expectStatusOk(reply.get(), ("SELECT on " + where).c_str());
        }
    } catch (const RedisError& e) {
        context_.reset();
        throw RedisError(RedisError::Kind::Connect, e.what());
    }
}

void RedisConnection::reconnect() {
    connect();
}

void RedisConnection::fail(const char* during) {
    broken_ = true;
    pending_ = 0;
    const bool timeout = context_ && context_->err == REDIS_ERR_IO &&
                         (errno == EAGAIN || errno == EWOULDBLOCK || errno == ETIMEDOUT);
    std::string reason = context_ ? context_->errstr : "not connected";
    if (reason.empty()) {
        reason = "connection lost";
    }
    throw RedisError(timeout ? RedisError::Kind::Timeout : RedisError::Kind::Io,
                     std::string(during) + " on " + url_.toDisplayString().toStdString() + ": " +
                         (timeout ? "timed out" : reason));
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
    if (redisAppendFormattedCommand(context_.get(), resp.data(), resp.size()) != REDIS_OK) {
        fail("sending a command");
    }
    pending_ += commands;
}

void RedisConnection::flush() {
    if (broken()) {
        fail("sending commands");
    }
    int done = 0;
    while (!done) {
        if (redisBufferWrite(context_.get(), &done) != REDIS_OK) {
            fail("sending commands");
        }
    }
}

RedisReply RedisConnection::readReply() {
    if (broken()) {
        fail("reading a reply");
    }
    void* raw = nullptr;
    errno = 0;
    if (redisGetReply(context_.get(), &raw) != REDIS_OK || raw == nullptr) {
        fail("reading a reply");
    }
    if (pending_ > 0) {
        --pending_;
    }
    return RedisReply(static_cast<redisReply*>(raw));
}

}  // namespace ratelab
