#pragma once

#include <hiredis/hiredis.h>

#include <memory>

#include "redis/redis_transport.h"
#include "redis/resp_guard.h"
#include "url/redis_url.h"

namespace ratelab {

// A plain TCP or unix socket: hiredis's own redisContext (connect, output buffer, reader), so
// the pipelined hot path is exactly hiredis's.
class PlainTransport final : public RedisTransport {
public:
    // Connects to url (redis:// or unix://). Throws RedisError(Kind::Connect).
    PlainTransport(const RedisUrl& url, const Wait& wait, ReplyLimits limits = {});

    int fd() const override { return context_->fd; }
    bool append(const char* data, std::size_t size) override;
    Io write() override;
    short readEvents() const override;
    bool read() override;
    bool nextReply(void** reply) override;
    Failure failure(int savedErrno) const override;

private:
    struct ContextDeleter {
        void operator()(redisContext* context) const { redisFree(context); }
    };
    // Marks the context failed as hiredis does, with `text` as its message.
    void setError(int type, const std::string& text);

    std::unique_ptr<redisContext, ContextDeleter> context_;
    RespGuard guard_;
};

}  // namespace ratelab
