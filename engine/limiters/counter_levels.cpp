// The levels of a sliding_counter limiter: its window keys (sliding_counter.lua, or the upstash
// flavor's upstash_sliding_window.lua) for the reader's window and the one before, evaluated at
// the reader's now with the script's formula. Read-only: SCAN and GET.
#include <QByteArray>
#include <functional>
#include <map>

#include "limiters/floor_div.h"
#include "limiters/limiter_state.h"
#include "limiters/sliding_counter_limiter.h"
#include "limiters/upstash_counter_limiter.h"
#include "redis/redis_scan.h"

namespace ratelab {
namespace {

// The keys "<prefix><window>[:client]" of the reader's window and the one before, one level per
// client; `estimate(cur, prev, offset)` is the script's.
void readWindowLevels(RedisConnection& c, const Limiter& limiter, const std::string& prefix,
                      const std::function<qint64(qint64, qint64, qint64)>& estimate,
                      LimiterState* state) {
    const LimiterSpec& spec = limiter.spec();
    const qint64 w = spec.windowMs;
    const qint64 window = floorDiv(state->nowMs, w);
    std::string pattern = limiter.scanPattern();
    pattern.pop_back();                                            // "{name}:" escaped
    pattern += prefix.substr(limiter.hashTag().size() + 1) + "*";  // "sc:<hex>:": nothing to escape

    // The keys of the two windows that count now, by client: "<window>[:client]".
    struct Wanted {
        std::string key;
        QString client;
        bool current;
    };
    std::vector<Wanted> wanted;
    scanEach(c, pattern, [&](std::vector<std::string>& keys) {
        for (const std::string& k : keys) {
            const std::string rest = k.substr(prefix.size());
            const std::size_t colon = rest.find(':');
            bool ok = false;
            const qint64 index = QByteArray::fromStdString(rest.substr(0, colon)).toLongLong(&ok);
            if (!ok || (index != window && index != window - 1)) {
                continue;  // an older window (or a newer one than the reader's now)
            }
            const QString client = colon == std::string::npos
                                       ? QString()
                                       : QString::fromStdString(rest.substr(colon + 1));
            wanted.push_back({k, client, index == window});
        }
    });
    for (const Wanted& k : wanted) {
        c.append({"GET", k.key});
    }
    std::map<QString, LimiterState::Level> byClient;  // sorted by client, as the other levels
    for (const Wanted& k : wanted) {
        RedisReply reply = c.readReply();
        bool ok = false;
        qint64 count = reply->type == REDIS_REPLY_STRING
                           ? QByteArray(reply->str, int(reply->len)).toLongLong(&ok)
                           : 0;
        if (!ok) {
            continue;  // expired since the SCAN, or not ours
        }
        if (count >= SlidingCounterLimiter::kClosedMark) {
            count -= SlidingCounterLimiter::kClosedMark;  // a window with a successor
        }
        LimiterState::Level& level = byClient[k.client];
        (k.current ? level.current : level.previous) = count;
    }
    for (auto& [client, level] : byClient) {
        level.client = client;
        level.capacity = spec.limit;
        level.windowStartMs = window * w;
        level.used = double(estimate(level.current, level.previous, state->nowMs - window * w));
        state->levels.push_back(level);
    }
}

}  // namespace

void readCounterLevels(RedisConnection& c, const SlidingCounterLimiter& limiter,
                       LimiterState* state) {
    // "{name}:sc:<fingerprint>:"
    readWindowLevels(
        c, limiter, limiter.windowKeyPrefix(),
        [&](qint64 cur, qint64 prev, qint64 offset) { return limiter.estimate(cur, prev, offset); },
        state);
}

void readUpstashLevels(RedisConnection& c, const UpstashCounterLimiter& limiter,
                       LimiterState* state) {
    // "{name}:up:"
    const qint64 w = limiter.spec().windowMs;
    readWindowLevels(
        c, limiter, limiter.windowKeyPrefix(),
        [w](qint64 cur, qint64 prev, qint64 offset) {
            return UpstashCounterLimiter::weighted(prev, offset, w) + cur;
        },
        state);
}

}  // namespace ratelab
