#pragma once

#include <QString>
#include <QVector>

#include "limiters/limiter.h"

namespace ratelab {

class ConcurrencyLimiter;
class GcraLimiter;
class LeakyBucketLimiter;
class RedisRateGcraLimiter;
class ScriptLimiter;
class SlidingCounterLimiter;
class UpstashCounterLimiter;

// One Redis key of a limiter as the state panel shows it.
struct KeyState {
    QString key;
    QString type;                             // "string", "hash", "zset", ... as TYPE answers
    qint64 ttlMs = -1;                        // PTTL: -1 no expiry, -2 gone
    qint64 size = 0;                          // strings: length; hashes: fields; zsets: members
    QString value;                            // strings: the value (binary shown escaped)
    QVector<QPair<QString, QString>> fields;  // hashes: field, value
    QVector<QPair<QString, double>> members;  // zsets: the newest members (decoded), score
};

// What the charts draw about a limiter, derived from its keys at one instant.
struct LimiterState {
    qint64 nowMs = 0;        // the limiter's clock when read (virtual runs: virtual time)
    QVector<KeyState> keys;  // sorted by name, at most maxKeys of them
    int totalKeys = 0;       // how many keys the limiter has in all

    // Token bucket: permits available now per scope key ("" for global), computed exactly
    // as the script would (rate minus the permits of grants younger than interval_ms).
    QVector<QPair<QString, qint64>> tokensAvailable;
    // Fixed window: the live counters (window start, client, count).
    struct WindowCount {
        qint64 startMs = 0;
        qint64 endMs = 0;
        QString client;
        qint64 count = 0;
    };
    QVector<WindowCount> windows;
    // Sliding window: for each rule, the permits in (now - window_ms, now], summed over the
    // scope keys (per_client: the busiest client's count is in busiest).
    struct RuleSpan {
        qint64 limit = 0;
        qint64 windowMs = 0;
        qint64 total = 0;
        qint64 busiest = 0;
        QString busiestClient;
    };
    QVector<RuleSpan> spans;
    // gcra, sliding_counter, leaky_bucket, concurrency: one entry per live scope key ("" for
    // global), read from the script's state (the counter's two window keys, the lease zsets)
    // and evaluated at nowMs exactly as the script would.
    struct Level {
        QString client;
        double used = 0;           // permits taken: gcra (TAT - now) / T; counter: the weighted
                                   // estimate; leaky: the water level x / 1000; concurrency:
                                   // the slots in flight
        qint64 capacity = 0;       // gcra burst, counter limit, leaky burst + 1, concurrency
                                   // limit
        qint64 aheadMs = 0;        // gcra: TAT - now (the band is burst x T); leaky: the delay a
                                   // request arriving now would be held (0 with nodelay);
                                   // concurrency: when the first lease runs out, from now
        qint64 windowStartMs = 0;  // counter: the current window's start
        qint64 previous = 0;       // counter: the previous window's count
        qint64 current = 0;        // counter: the current window's count
    };
    QVector<Level> levels;
};

// What the timelines draw (tokensAvailable, windows, spans) at nowMs, without the key listing
// (keys stays empty, totalKeys 0): a SCAN over only the keys of the kind the chart needs (the
// token bucket's permit zsets, the fixed window's counters, the sliding window's logs) and one
// pipelined read per such key (ZRANGEBYSCORE of the live grants, GET, ZCOUNT per rule). No
// TYPE, TTL or member listing: cheap enough to poll at 10 Hz. The figures are the ones
// readLimiterState derives. Read-only commands; throws RedisError when Redis fails.
LimiterState readLimiterChartState(RedisConnection& connection, const Limiter& limiter,
                                   qint64 nowMs);

// The key listing the state panel shows: every key the limiter owns (its exact keys and a SCAN
// over its hash tag) counted in state->totalKeys, and the first maxKeys by name read into
// state->keys (type, TTL, value, hash fields, the newest membersPerKey zset members); keys beyond
// maxKeys are not read. Read-only commands; throws RedisError when Redis fails.
void readLimiterKeys(RedisConnection& connection, const Limiter& limiter, LimiterState* state,
                     int maxKeys = 200, int membersPerKey = 20);

// The keys `names` (of `limiter`) as readLimiterKeys reads them, without a SCAN; keys that do
// not exist are left out.
QVector<KeyState> readKeysNamed(RedisConnection& connection, const Limiter& limiter,
                                const std::vector<std::string>& names, int membersPerKey = 20);

// The levels of a gcra or leaky_bucket limiter at state->nowMs (limiter_levels.cpp), one per
// scope key; their descriptors' readChartState.
void readGcraLevels(RedisConnection& connection, const GcraLimiter& limiter, LimiterState* state);
void readLeakyLevels(RedisConnection& connection, const LeakyBucketLimiter& limiter,
                     LimiterState* state);
// The sliding-window counter's (counter_levels.cpp): its window keys for the window at
// state->nowMs and the one before, one level per client that has either.
void readCounterLevels(RedisConnection& connection, const SlidingCounterLimiter& limiter,
                       LimiterState* state);
// The concurrency limiter's (concurrency_levels.cpp): the slots in flight per scope key.
void readConcurrencyLevels(RedisConnection& connection, const ConcurrencyLimiter& limiter,
                           LimiterState* state);
// The library flavors': upstash's window keys as the counter's, weighed as the library weighs;
// redis_rate's TAT (seconds since 2017) as GCRA's level.
void readUpstashLevels(RedisConnection& connection, const UpstashCounterLimiter& limiter,
                       LimiterState* state);
void readRedisRateLevels(RedisConnection& connection, const RedisRateGcraLimiter& limiter,
                         LimiterState* state);

// A script limiter's (script_levels.cpp): its "state" key read for each scope key, one level
// each of `capacity` (its reference's, or 0).
void readScriptLevels(RedisConnection& connection, const ScriptLimiter& limiter, qint64 capacity,
                      LimiterState* state);

// Both: readLimiterChartState, then readLimiterKeys.
LimiterState readLimiterState(RedisConnection& connection, const Limiter& limiter, qint64 nowMs,
                              int maxKeys = 200, int membersPerKey = 20);

}  // namespace ratelab
