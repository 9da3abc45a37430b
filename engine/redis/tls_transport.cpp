#include "redis/tls_transport.h"

#include <arpa/inet.h>
#include <hiredis/hiredis.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "input_error.h"
#include "redis/tls_context.h"

namespace ratelab {
namespace {

// The reason of the last OpenSSL error ("tlsv13 alert certificate required"), queue emptied.
std::string lastSslReason() {
    unsigned long code = 0;
    unsigned long last = 0;
    while ((code = ERR_get_error()) != 0) {
        last = code;
    }
    const char* reason = last != 0 ? ERR_reason_error_string(last) : nullptr;
    return reason != nullptr ? reason : std::string();
}

bool isIpAddress(const std::string& host) {
    unsigned char buffer[sizeof(in6_addr)];
    return ::inet_pton(AF_INET, host.c_str(), buffer) == 1 ||
           ::inet_pton(AF_INET6, host.c_str(), buffer) == 1;
}

// What a failed certificate check means for the user, from the verify result.
std::string describeVerifyFailure(long result) {
    const std::string detail = X509_verify_cert_error_string(result);
    switch (result) {
        case X509_V_ERR_CERT_HAS_EXPIRED:
            return "the server's certificate has expired (" + detail + ")";
        case X509_V_ERR_CERT_NOT_YET_VALID:
            return "the server's certificate is not valid yet (" + detail + ")";
        case X509_V_ERR_HOSTNAME_MISMATCH:
        case X509_V_ERR_IP_ADDRESS_MISMATCH:
            return "the server's certificate does not match the host name (" + detail + ")";
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
        case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
        case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
        case X509_V_ERR_CERT_SIGNATURE_FAILURE:
        case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
            return "the server's certificate is not signed by a trusted CA (" + detail +
                   "; give the CA with --tls-ca-cert)";
        default:
            return "the server's certificate failed verification (" + detail + ")";
    }
}

// Alerts a server sends when it refuses the client's certificate (mutual TLS).
std::string explainAlert(const std::string& reason) {
    if (reason.find("certificate required") != std::string::npos) {
        return reason + ": the server requires a client certificate (--tls-cert, --tls-key)";
    }
    if (reason.find("unknown ca") != std::string::npos ||
        reason.find("bad certificate") != std::string::npos ||
        reason.find("certificate unknown") != std::string::npos) {
        return reason + ": the server refused the client certificate";
    }
    return reason;
}

}  // namespace

void TlsTransport::SslDeleter::operator()(ssl_st* ssl) const {
    SSL_free(ssl);
}

TlsTransport::TlsTransport(const RedisUrl& url, const Wait& wait, ReplyLimits limits)
    : guard_(limits) {
    const std::string where = url.toDisplayString().toStdString();
    try {
        context_ = tlsContextFor(url.tlsFiles);
    } catch (const InputError& e) {
        // A file that was fine when the URL was checked and is not now: a connect failure.
        throw RedisError(RedisError::Kind::Connect,
                         "cannot connect to " + where + ": " + e.message().toStdString(),
                         "connection failed");
    }
    reader_.reset(redisReaderCreate());
    if (!reader_) {
        throw RedisError(RedisError::Kind::Connect, "cannot allocate a Redis reply reader");
    }
    try {
        connectSocket(url, wait, where);
        handshake(url, wait, where);
    } catch (...) {
        ssl_.reset();
        if (fd_ >= 0) {
            ::close(fd_);
        }
        fd_ = -1;
        throw;
    }
}

TlsTransport::~TlsTransport() {
    ssl_.reset();
    if (fd_ >= 0) {
        ::close(fd_);
    }
}

void TlsTransport::connectSocket(const RedisUrl& url, const Wait& wait, const std::string& where) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    const std::string host = url.host.toStdString();
    const int status =
        ::getaddrinfo(host.c_str(), std::to_string(url.port).c_str(), &hints, &found);
    if (status != 0) {
        throw RedisError(RedisError::Kind::Connect,
                         "cannot connect to " + where + ": " + ::gai_strerror(status),
                         "host unreachable");
    }
    std::unique_ptr<addrinfo, void (*)(addrinfo*)> addresses(found, ::freeaddrinfo);
    int lastError = ECONNREFUSED;
    for (const addrinfo* a = addresses.get(); a != nullptr; a = a->ai_next) {
        const int fd =
            ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) {
            lastError = errno;
            continue;
        }
        fd_ = fd;  // closed by the constructor's cleanup when the wait throws
        if (::connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
            if (errno != EINPROGRESS) {
                lastError = errno;
                ::close(fd);
                fd_ = -1;
                continue;
            }
            wait(fd, POLLOUT);
        }
        int socketError = 0;
        socklen_t length = sizeof(socketError);
        if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &socketError, &length) != 0) {
            socketError = errno;
        }
        if (socketError != 0) {
            lastError = socketError;
            ::close(fd);
            fd_ = -1;
            continue;
        }
        const int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
        return;
    }
    throw RedisError(RedisError::Kind::Connect,
                     "cannot connect to " + where + ": " + std::strerror(lastError),
                     causeOfErrno(lastError));
}

void TlsTransport::handshake(const RedisUrl& url, const Wait& wait, const std::string& where) {
    ERR_clear_error();
    ssl_.reset(SSL_new(context_.get()));
    if (!ssl_ || SSL_set_fd(ssl_.get(), fd_) != 1) {
        throw RedisError(RedisError::Kind::Connect,
                         "cannot start TLS with " + where + ": " + lastSslReason(),
                         "connection failed");
    }
    const std::string host = url.host.toStdString();
    bool named = false;
    if (isIpAddress(host)) {
        // No SNI for an address (RFC 6066); the certificate must list it as an IP SAN.
        named = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl_.get()), host.c_str()) == 1;
    } else {
        named = SSL_set_tlsext_host_name(ssl_.get(), host.c_str()) == 1 &&
                SSL_set1_host(ssl_.get(), host.c_str()) == 1;
    }
    if (!named) {
        throw RedisError(RedisError::Kind::Connect,
                         "cannot start TLS with " + where + ": cannot check the host name " + host,
                         "connection failed");
    }
    for (;;) {
        ERR_clear_error();
        const int ret = SSL_connect(ssl_.get());
        if (ret == 1) {
            return;
        }
        const int error = SSL_get_error(ssl_.get(), ret);
        if (error == SSL_ERROR_WANT_READ) {
            wait(fd_, POLLIN);
            continue;
        }
        if (error == SSL_ERROR_WANT_WRITE) {
            wait(fd_, POLLOUT);
            continue;
        }
        const long verify = SSL_get_verify_result(ssl_.get());
        std::string reason;
        if (verify != X509_V_OK) {
            reason = describeVerifyFailure(verify);
        } else {
            const int savedErrno = errno;
            reason = lastSslReason();
            if (reason.empty()) {
                reason = error == SSL_ERROR_SYSCALL && savedErrno != 0
                             ? std::strerror(savedErrno)
                             : "the server closed the connection (is it a TLS port?)";
            }
            reason = "TLS handshake failed: " + explainAlert(reason);
        }
        throw RedisError(RedisError::Kind::Connect, "cannot connect to " + where + ": " + reason,
                         "connection failed");
    }
}

bool TlsTransport::append(const char* data, std::size_t size) {
    if (!ssl_) {
        return false;
    }
    out_.append(data, size);
    return true;
}

RedisTransport::Io TlsTransport::sslFailure(int ret, bool reading) {
    const int savedErrno = errno;
    const int error = SSL_get_error(ssl_.get(), ret);
    if (error == SSL_ERROR_WANT_READ) {
        return Io::WantRead;
    }
    if (error == SSL_ERROR_WANT_WRITE) {
        return Io::WantWrite;
    }
    failure_ = Failure{};
    failure_.cause = "connection lost";
    if (error == SSL_ERROR_ZERO_RETURN) {
        failure_.reason = "the server closed the TLS session";
    } else if (error == SSL_ERROR_SYSCALL) {
        const std::string reason = lastSslReason();
        failure_.reason = !reason.empty()   ? reason
                          : savedErrno != 0 ? std::strerror(savedErrno)
                          : reading         ? "Server closed the connection"
                                            : "connection lost";
        if (savedErrno != 0) {
            failure_.cause = causeOfErrno(savedErrno);
            if (failure_.cause == "connection failed") {
                failure_.cause = "connection lost";
            }
        }
    } else {
        const std::string reason = lastSslReason();
        failure_.reason = "TLS error: " + explainAlert(reason.empty() ? "unknown" : reason);
    }
    return Io::Failed;
}

// A server that refuses the client's certificate (TLS 1.3) sends its alert after the handshake
// and closes: a write then fails with "connection reset" while the alert that says why is
// still waiting to be read. Read it, if it is there, for the message.
void TlsTransport::explainWriteFailure() {
    const Failure writeFailure = failure_;
    char buffer[256];
    ERR_clear_error();
    const int ret = SSL_read(ssl_.get(), buffer, sizeof(buffer));
    if (ret <= 0 && SSL_get_error(ssl_.get(), ret) == SSL_ERROR_SSL) {
        const std::string reason = lastSslReason();
        if (!reason.empty()) {
            failure_.reason = "TLS error: " + explainAlert(reason);
            return;
        }
    }
    failure_ = writeFailure;
}

RedisTransport::Io TlsTransport::write() {
    while (outSent_ < out_.size()) {
        ERR_clear_error();
        errno = 0;
        const int ret =
            SSL_write(ssl_.get(), out_.data() + outSent_,
                      static_cast<int>(std::min<std::size_t>(out_.size() - outSent_, 1 << 30)));
        if (ret <= 0) {
            const Io io = sslFailure(ret, false);
            if (io == Io::Failed) {
                explainWriteFailure();
            }
            return io;
        }
        outSent_ += static_cast<std::size_t>(ret);
    }
    out_.clear();
    outSent_ = 0;
    return Io::Done;
}

short TlsTransport::readEvents() const {
    if (SSL_has_pending(ssl_.get()) == 1) {
        return 0;
    }
    return readWants_ != 0 ? readWants_ : POLLIN;
}

bool TlsTransport::read() {
    char buffer[16 * 1024];
    ERR_clear_error();
    errno = 0;
    const int ret = SSL_read(ssl_.get(), buffer, sizeof(buffer));
    if (ret > 0) {
        readWants_ = POLLIN;
        if (!guard_.feed(buffer, static_cast<std::size_t>(ret))) {
            failure_ = Failure{RedisError::Kind::Protocol, "protocol error: " + guard_.error(),
                               "protocol error"};
            return false;
        }
        if (redisReaderFeed(reader_.get(), buffer, static_cast<std::size_t>(ret)) != REDIS_OK) {
            failure_ = Failure{RedisError::Kind::Protocol, reader_->errstr, "protocol error"};
            return false;
        }
        return true;
    }
    switch (sslFailure(ret, true)) {
        case Io::WantRead:
            readWants_ = POLLIN;
            return true;
        case Io::WantWrite:
            readWants_ = POLLOUT;
            return true;
        default:
            return false;
    }
}

bool TlsTransport::nextReply(void** reply) {
    if (redisReaderGetReply(reader_.get(), reply) != REDIS_OK) {
        failure_ = Failure{RedisError::Kind::Protocol, reader_->errstr, "protocol error"};
        return false;
    }
    return true;
}

RedisTransport::Failure TlsTransport::failure(int) const {
    Failure f = failure_;
    if (f.reason.empty()) {
        f.reason = "connection lost";
    }
    if (f.cause.empty()) {
        f.cause = "connection lost";
    }
    return f;
}

}  // namespace ratelab
