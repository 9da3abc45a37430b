#pragma once

#include <hiredis/hiredis.h>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "redis/redis_reply.h"
#include "redis/redis_url.h"
#include "redis/resp_writer.h"

namespace ratelab {

struct ConnectOptions {
    std::chrono::milliseconds connectTimeout{2000};
    std::chrono::milliseconds commandTimeout{2000};
};

using RedisArgs = std::vector<std::string>;

// One synchronous connection (RAII over redisContext). Not thread-safe: one per thread.
// After connecting it authenticates (AUTH password, or AUTH user password for ACL users)
// and selects the URL's database. Any I/O error or timeout marks it broken; a broken
// connection throws on use until reconnect() succeeds.
class RedisConnection {
public:
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

    bool broken() const { return context_ == nullptr || broken_; }
    // Drops the old socket and connects again (AUTH, SELECT). Throws RedisError on failure.
    void reconnect();

    const RedisUrl& url() const { return url_; }

private:
    struct ContextDeleter {
        void operator()(redisContext* context) const { redisFree(context); }
    };

    void connect();
    [[noreturn]] void fail(const char* during);

    RedisUrl url_;
    ConnectOptions options_;
    std::unique_ptr<redisContext, ContextDeleter> context_;
    bool broken_ = false;
    std::size_t pending_ = 0;
    RespWriter writer_;
};

}  // namespace ratelab
