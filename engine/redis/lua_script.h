#pragma once

#include <string>

#include "redis/redis_connection.h"

namespace ratelab {

// A Lua script with its SHA1 computed locally, run with EVALSHA and re-sent with EVAL when the
// server answers NOSCRIPT (after SCRIPT FLUSH, a restart, or on a fresh server).
class LuaScript {
public:
    explicit LuaScript(std::string source);

    const std::string& source() const { return source_; }
    const std::string& sha1() const { return sha1_; }

    // Runs the script; returns the reply (which may be an error reply other than NOSCRIPT).
    RedisReply run(RedisConnection& connection, const RedisArgs& keys, const RedisArgs& args) const;

    // Pipelining: appends EVALSHA straight to the connection's output (no argument copies).
    void appendEvalsha(RedisConnection& connection, const RedisArgs& keys,
                       const RedisArgs& args) const;
    // Adds one EVALSHA command to a RESP buffer (for batches sent with appendFormatted).
    void formatEvalsha(RespWriter& writer, const RedisArgs& keys, const RedisArgs& args) const;
    // Argument vectors for EVALSHA and EVAL.
    RedisArgs evalshaCommand(const RedisArgs& keys, const RedisArgs& args) const;
    RedisArgs evalCommand(const RedisArgs& keys, const RedisArgs& args) const;

    static bool isNoScript(const redisReply* reply);

private:
    std::string source_;
    std::string sha1_;
};

}  // namespace ratelab
