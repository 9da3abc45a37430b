#include "redis/plain_transport.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace ratelab {

std::string causeOfErrno(int error) {
    switch (error) {
        case ECONNREFUSED:
            return "connection refused";
        case ENOENT:
            return "no such socket";
        case ETIMEDOUT:
            return "connect timeout";
        case ECONNRESET:
        case EPIPE:
            return "connection lost";
        case EHOSTUNREACH:
        case ENETUNREACH:
            return "host unreachable";
        default:
            return "connection failed";
    }
}

PlainTransport::PlainTransport(const RedisUrl& url, const Wait& wait, ReplyLimits limits)
    : guard_(limits) {
    const std::string where = url.toDisplayString().toStdString();
    errno = 0;
    redisContext* raw = url.transport == RedisUrl::Transport::Unix
                            ? redisConnectUnixNonBlock(url.socketPath.toLocal8Bit().constData())
                            : redisConnectNonBlock(url.host.toLocal8Bit().constData(), url.port);
    const int connectErrno = errno;
    if (raw == nullptr) {
        throw RedisError(RedisError::Kind::Connect, "cannot allocate a Redis connection");
    }
    context_.reset(raw);
    if (context_->err) {
        const std::string reason = context_->errstr;
        // hiredis keeps only the text; errno normally still holds the number.
        std::string cause = causeOfErrno(connectErrno);
        if (cause == "connection failed") {
            cause = reason == std::strerror(ECONNREFUSED) ? causeOfErrno(ECONNREFUSED)
                    : reason == std::strerror(ENOENT)     ? causeOfErrno(ENOENT)
                                                          : cause;
        }
        throw RedisError(RedisError::Kind::Connect, "cannot connect to " + where + ": " + reason,
                         cause);
    }
    // A TCP connect may still be under way: it is done when the socket is writable.
    wait(context_->fd, POLLOUT);
    int socketError = 0;
    socklen_t length = sizeof(socketError);
    if (::getsockopt(context_->fd, SOL_SOCKET, SO_ERROR, &socketError, &length) != 0) {
        socketError = errno;
    }
    if (socketError != 0) {
        throw RedisError(RedisError::Kind::Connect,
                         "cannot connect to " + where + ": " + std::strerror(socketError),
                         causeOfErrno(socketError));
    }
}

bool PlainTransport::append(const char* data, std::size_t size) {
    return redisAppendFormattedCommand(context_.get(), data, size) == REDIS_OK;
}

RedisTransport::Io PlainTransport::write() {
    int done = 0;
    if (redisBufferWrite(context_.get(), &done) != REDIS_OK) {
        return Io::Failed;
    }
    return done ? Io::Done : Io::WantWrite;
}

short PlainTransport::readEvents() const {
    return POLLIN;
}

void PlainTransport::setError(int type, const std::string& text) {
    context_->err = type;
    std::snprintf(context_->errstr, sizeof(context_->errstr), "%s", text.c_str());
}

// As hiredis's redisBufferRead, with the bytes shown to the guard before the reader parses them.
bool PlainTransport::read() {
    if (context_->err) {
        return false;
    }
    char buffer[16 * 1024];
    const ssize_t n = ::read(context_->fd, buffer, sizeof(buffer));
    if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
            return true;  // nothing yet: the caller waits again
        }
        setError(REDIS_ERR_IO, std::strerror(errno));
        return false;
    }
    if (n == 0) {
        setError(REDIS_ERR_EOF, "Server closed the connection");
        return false;
    }
    if (!guard_.feed(buffer, std::size_t(n))) {
        setError(REDIS_ERR_PROTOCOL, "protocol error: " + guard_.error());
        return false;
    }
    if (redisReaderFeed(context_->reader, buffer, std::size_t(n)) != REDIS_OK) {
        setError(context_->reader->err, context_->reader->errstr);
        return false;
    }
    return true;
}

bool PlainTransport::nextReply(void** reply) {
    return redisGetReplyFromReader(context_.get(), reply) == REDIS_OK;
}

RedisTransport::Failure PlainTransport::failure(int savedErrno) const {
    Failure f;
    f.reason = context_->errstr;
    f.cause = "connection lost";
    if (context_->err == REDIS_ERR_PROTOCOL) {
        f.kind = RedisError::Kind::Protocol;
        f.cause = "protocol error";
    } else if (context_->err == REDIS_ERR_IO) {
        f.cause = causeOfErrno(savedErrno);
        if (f.cause == "connection failed") {
            f.cause = "connection lost";
        }
    }
    if (f.reason.empty()) {
        f.reason = "connection lost";
    }
    return f;
}

}  // namespace ratelab
