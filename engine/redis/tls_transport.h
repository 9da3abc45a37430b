#pragma once

#include <hiredis/read.h>

#include <memory>
#include <string>

#include "redis/redis_transport.h"
#include "redis/resp_guard.h"
#include "url/redis_url.h"

struct ssl_st;
struct ssl_ctx_st;

namespace ratelab {

// A TLS session (OpenSSL) on a non-blocking TCP socket of our own, with hiredis's reply parser
// (redisReader) fed the decrypted bytes. The server's certificate is always verified: against
// the URL's CA file (or the system store), and against the host name, or the IP address when
// the host is one (SNI is sent for names).
class TlsTransport final : public RedisTransport {
public:
    // Connects and completes the handshake (rediss://). Throws RedisError(Kind::Connect) with
    // the reason: unreachable, handshake failure, or which certificate check failed; and
    // InputError when a TLS file cannot be used.
    TlsTransport(const RedisUrl& url, const Wait& wait, ReplyLimits limits = {});
    ~TlsTransport() override;

    int fd() const override { return fd_; }
    bool append(const char* data, std::size_t size) override;
    Io write() override;
    short readEvents() const override;
    bool read() override;
    bool nextReply(void** reply) override;
    Failure failure(int savedErrno) const override;

private:
    struct SslDeleter {
        void operator()(ssl_st* ssl) const;
    };
    struct ReaderDeleter {
        void operator()(redisReader* reader) const { redisReaderFree(reader); }
    };

    void connectSocket(const RedisUrl& url, const Wait& wait, const std::string& where);
    void handshake(const RedisUrl& url, const Wait& wait, const std::string& where);
    // Records why an SSL call failed (ret is its return value); returns the Io to report.
    Io sslFailure(int ret, bool reading);
    void explainWriteFailure();

    int fd_ = -1;
    std::shared_ptr<ssl_ctx_st> context_;
    std::unique_ptr<ssl_st, SslDeleter> ssl_;
    std::unique_ptr<redisReader, ReaderDeleter> reader_;
    std::string out_;  // queued bytes, sent from outSent_
    std::size_t outSent_ = 0;
    short readWants_ = 0;  // POLLIN, or POLLOUT when SSL_read asked to write
    Failure failure_;
    RespGuard guard_;
};

}  // namespace ratelab
