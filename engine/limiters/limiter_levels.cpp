// The levels of the limiters whose state is one string per scope key (gcra.lua, gcra_units.lua,
// leaky_bucket.lua), evaluated at the reader's now with the scripts' own formulas (the
// sliding-window counter's window keys: counter_levels.cpp). Read-only: SCAN and GET.
#include <QByteArray>
#include <QList>
#include <algorithm>
#include <cmath>

#include "limiters/floor_div.h"
#include "limiters/gcra_limiter.h"
#include "limiters/leaky_bucket_limiter.h"
#include "limiters/limiter_state.h"
#include "limiters/redis_rate_gcra_limiter.h"
#include "redis/redis_error.h"
#include "redis/redis_scan.h"

namespace ratelab {
namespace {

// `count` numbers and, unless `config` is empty, "<config>" as the last field. Empty on a
// foreign value.
QList<qint64> stateNumbers(const QByteArray& value, const QByteArray& config, int count) {
    const QList<QByteArray> parts = value.split(' ');
    QList<qint64> numbers;
    const int fields = config.isEmpty() ? count : count + 1;
    if (parts.size() != fields || (!config.isEmpty() && parts.last() != config)) {
        return {};  // written under another config (reset at the next decision) or not ours
    }
    for (int i = 0; i < count; ++i) {
        bool ok = false;
        numbers.append(parts[i].toLongLong(&ok));
        if (!ok) {
            return {};
        }
    }
    return numbers;
}

LimiterState::Level gcraLevel(const LimiterSpec& spec, const QList<qint64>& n, qint64 now) {
    // TAT = q + r / rate ms; T = period / rate.
    LimiterState::Level level;
    level.capacity = spec.burst;
    const double tat = double(n[0]) + double(n[1]) / double(spec.rate);
    const double ahead = std::max(0.0, tat - double(now));
    level.aheadMs = qint64(ahead + 0.999999);
    level.used = ahead * double(spec.rate) / double(spec.periodMs);
    return level;
}

LimiterState::Level leakyLevel(const LimiterSpec& spec, const QList<qint64>& n, qint64 now) {
    // x = max(E - floor(rate * 1000 * elapsed / period) + 1000, 0): what a request finds now.
    LimiterState::Level level;
    level.capacity = spec.burst + 1;
    const qint64 x = LeakyBucketLimiter::levelFound(spec, n[0], std::max<qint64>(0, now - n[1]));
    level.used = double(x) / 1000.0;
    level.aheadMs = spec.nodelay ? 0 : floorDiv(x * spec.periodMs, spec.rate * 1000);
    return level;
}

}  // namespace

namespace {

// The state strings of a limiter's scope keys whose names start with `prefix` (exactly, or
// followed by ":<client>"), by key name; `pattern` is prefix as a SCAN pattern.
std::vector<std::pair<std::string, QByteArray>> scopeStrings(RedisConnection& c,
                                                             const std::string& pattern) {
    std::vector<std::string> names;
    for (const std::string& p : {pattern, pattern + ":*"}) {
        scanEach(c, p, [&](std::vector<std::string>& keys) {
            names.insert(names.end(), keys.begin(), keys.end());
        });
    }
    std::sort(names.begin(), names.end());
    for (const std::string& k : names) {
        c.append({"GET", k});
    }
    std::vector<std::pair<std::string, QByteArray>> values;
    for (const std::string& k : names) {
        RedisReply reply = c.readReply();
        if (reply->type == REDIS_REPLY_STRING) {  // else expired since the SCAN, or another type
            values.emplace_back(k, QByteArray(reply->str, int(reply->len)));
        }
    }
    return values;
}

// The client of a scope key "<prefix>[:client]".
QString clientOf(const std::string& key, const std::string& prefix) {
    return QString::fromStdString(key.size() > prefix.size() + 1 ? key.substr(prefix.size() + 1)
                                                                 : std::string());
}

}  // namespace

void readGcraLevels(RedisConnection& c, const GcraLimiter& limiter, LimiterState* state) {
    const LimiterSpec& spec = limiter.spec();
    const QByteArray config = QByteArray::number(spec.rate) + '/' +
                              QByteArray::number(spec.periodMs) + '/' +
                              QByteArray::number(spec.burst);
    // GCRA in units (gcra_limiter.h): {name}:tat:<fingerprint>[:client] holds TAT x u; the
    // float form {name}:tat[:client] holds "<q> <r> <config>".
    std::string pattern = limiter.scanPattern();
    pattern.pop_back();  // "{name}:" escaped
    pattern += "tat";
    std::string prefix = limiter.hashTag() + ":tat";
    if (limiter.unitState()) {
        prefix = limiter.unitKeyPrefix();
        pattern += prefix.substr(prefix.rfind(':'));  // ":<fingerprint>", hex: nothing to escape
    }
    for (const auto& [key, value] : scopeStrings(c, pattern)) {
        QList<qint64> numbers;
        if (limiter.unitState()) {
            // TAT = v / u ms = q + r / rate ms with q = floor(v / u), r = (v mod u) x rate / u
            bool ok = false;
            const qint64 v = value.toLongLong(&ok);
            if (ok) {
                const qint64 u = limiter.unitsPerMs();
                const qint64 q = floorDiv(v, u);
                numbers = {q, (v - q * u) * (spec.rate / u)};
            }
        } else {
            numbers = stateNumbers(value, config, 2);
        }
        if (!numbers.isEmpty()) {
            LimiterState::Level level = gcraLevel(spec, numbers, state->nowMs);
            level.client = clientOf(key, prefix);
            state->levels.push_back(level);
        }
    }
}

void readRedisRateLevels(RedisConnection& c, const RedisRateGcraLimiter& limiter,
                         LimiterState* state) {
    // {name}:rr[:client] holds the TAT, seconds since 2017 as a double.
    const std::string& prefix = limiter.stateKeyPrefix();
    std::string pattern = limiter.scanPattern();
    pattern.pop_back();  // "{name}:" escaped
    pattern += "rr";
    const double nowS = double(state->nowMs) / 1000.0 - double(RedisRateGcraLimiter::kEpoch2017);
    const double t = limiter.emissionInterval();
    for (const auto& [key, value] : scopeStrings(c, pattern)) {
        bool ok = false;
        const double tat = value.toDouble(&ok);
        if (!ok) {
            continue;
        }
        LimiterState::Level level;
        level.client = clientOf(key, prefix);
        level.capacity = limiter.spec().burst;
        const double ahead = std::max(0.0, tat - nowS);  // seconds
        level.aheadMs = qint64(std::ceil(ahead * 1000.0 - 1e-3));  // within a µs of the double
        level.used = ahead / t;
        state->levels.push_back(level);
    }
}

void readLeakyLevels(RedisConnection& c, const LeakyBucketLimiter& limiter, LimiterState* state) {
    // {name}:lb:<fingerprint>[:client] holds "<excess> <last>".
    const std::string prefix = limiter.stateKeyPrefix();
    std::string pattern = limiter.scanPattern();
    pattern.pop_back();                                  // "{name}:" escaped
    pattern += "lb" + prefix.substr(prefix.rfind(':'));  // ":<fingerprint>": nothing to escape
    for (const auto& [key, value] : scopeStrings(c, pattern)) {
        const QList<qint64> numbers = stateNumbers(value, QByteArray(), 2);
        if (!numbers.isEmpty()) {
            LimiterState::Level level = leakyLevel(limiter.spec(), numbers, state->nowMs);
            level.client = clientOf(key, prefix);
            state->levels.push_back(level);
        }
    }
}

}  // namespace ratelab
