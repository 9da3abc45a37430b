// The concurrency limiter's in-flight level per scope key (concurrency.lua's lease zsets),
// read at the reader's now: the slots whose lease has not run out. Read-only: SCAN, ZCOUNT and
// ZRANGEBYSCORE.
#include <QString>
#include <algorithm>

#include "limiters/concurrency_limiter.h"
#include "limiters/limiter_state.h"
#include "redis/redis_error.h"
#include "redis/redis_reply.h"
#include "redis/redis_scan.h"

namespace ratelab {

void readConcurrencyLevels(RedisConnection& c, const ConcurrencyLimiter& limiter,
                           LimiterState* state) {
    // {name}:leases[:client]
    const std::string prefix = limiter.leaseKeyPrefix();
    std::string pattern = limiter.scanPattern();
    pattern.pop_back();  // "{name}:" escaped
    pattern += "leases";
    std::vector<std::string> names;
    for (const std::string& p : {pattern, pattern + ":*"}) {
        scanEach(c, p, [&](std::vector<std::string>& keys) {
            names.insert(names.end(), keys.begin(), keys.end());
        });
    }
    std::sort(names.begin(), names.end());
    // A slot counts while its lease runs: score > now.
    const std::string after = "(" + std::to_string(state->nowMs);
    for (const std::string& k : names) {
        c.append({"ZCOUNT", k, after, "+inf"});
        c.append({"ZRANGEBYSCORE", k, after, "+inf", "WITHSCORES", "LIMIT", "0", "1"});
    }
    for (const std::string& k : names) {
        RedisReply count = c.readReply();
        RedisReply first = c.readReply();
        if (count->type != REDIS_REPLY_INTEGER) {
            continue;  // another type under our name: not ours to draw
        }
        LimiterState::Level level;
        level.client = QString::fromStdString(
            k.size() > prefix.size() + 1 ? k.substr(prefix.size() + 1) : std::string());
        level.used = double(count->integer);
        level.capacity = limiter.spec().limit;
        // The first lease to run out, from now.
        if (first->type == REDIS_REPLY_ARRAY && first->elements == 2 &&
            first->element[1]->type == REDIS_REPLY_STRING) {
            level.aheadMs =
                qint64(std::stod(std::string(first->element[1]->str, first->element[1]->len))) -
                state->nowMs;
        }
        state->levels.push_back(level);
    }
}

}  // namespace ratelab
