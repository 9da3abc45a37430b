#include "limiters/redis_rate_gcra_limiter.h"

#include <QByteArray>
#include <QList>
#include <cmath>
#include <cstdio>

#include "limiters/floor_div.h"
#include "limiters/request_ids.h"
#include "redis/lua_script.h"

namespace ratelab {
namespace lua {
extern const char* const kLua_redis_rate_gcra;
}

namespace {

// 17 significant digits: the text reads back as the same double (Lua's tonumber is strtod).
std::string exactText(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

}  // namespace

RedisRateGcraLimiter::RedisRateGcraLimiter(LimiterSpec spec, LimiterOptions options)
    : Limiter(std::move(spec), options),
      period_(periodSeconds(this->spec().periodMs)),
      burstArg_(std::to_string(this->spec().burst)),
      rateArg_(std::to_string(this->spec().rate)),
      periodArg_(exactText(period_)),
      ttlScale_(exactText(options.ttlScale)),
      // The key lives until its TAT (scaled), and a grace plus any extra beyond it.
      ttlExtra_(ttlArg(kStateGraceMs)),
      prefix_(key("rr")) {}

const LuaScript& RedisRateGcraLimiter::script() const {
    static const LuaScript kScript(lua::kLua_redis_rate_gcra);
    return kScript;
}

double RedisRateGcraLimiter::periodSeconds(qint64 periodMs) {
    // Go: sec := d / Second; nsec := d % Second; return float64(sec) + float64(nsec)/1e9
    const qint64 nanoseconds = (periodMs % 1000) * 1'000'000;
    return double(periodMs / 1000) + double(nanoseconds) / 1e9;
}

double RedisRateGcraLimiter::nowSeconds(qint64 epochSeconds, double fractionNumerator,
                                        double denominator) {
    return double(epochSeconds - kEpoch2017) + fractionNumerator / denominator;
}

std::string RedisRateGcraLimiter::stateKey(const QString& client) const {
    return scopedKey("rr", client);
}

ScriptCall RedisRateGcraLimiter::prepare(const Request& request) const {
    checkPermits(request.permits);
    ScriptCall call{{stateKey(request.client)},
                    {burstArg_, rateArg_, periodArg_, std::to_string(request.permits),
                     nowArg(request), ttlScale_, ttlExtra_},
                    request.nowMs};
    if (options().ttlCapMs > 0) {
        call.args.push_back(std::to_string(options().ttlCapMs / 2));  // as every capped TTL
    }
    call.permits = request.permits;
    return call;
}

std::optional<Decision> RedisRateGcraLimiter::decodeOwnReply(ReplyView reply,
                                                             const ScriptCall& call) const {
    if (!reply.is(ReplyView::Type::String)) {
        return std::nullopt;  // parseReply names what it got
    }
    // "<allowed> <remaining> <retry_ms> <tat>[ <sec> <usec>]"
    const QList<QByteArray> parts =
        QByteArray(reply.text().data(), int(reply.text().size())).split(' ');
    if (parts.size() != 4 && parts.size() != 6) {
        return std::nullopt;
    }
    bool ok[6] = {true, true, true, true, true, true};
    const qint64 allowed = parts[0].toLongLong(&ok[0]);
    const qint64 remaining = parts[1].toLongLong(&ok[1]);
    const qint64 retry = parts[2].toLongLong(&ok[2]);
    const double tat = parts[3].toDouble(&ok[3]);
    qint64 atMs = call.atMs;
    double now = 0;
    if (parts.size() == 6) {  // Redis's TIME
        const qint64 seconds = parts[4].toLongLong(&ok[4]);
        const qint64 micros = parts[5].toLongLong(&ok[5]);
        atMs = seconds * 1000 + micros / 1000;
        now = nowSeconds(seconds, double(micros), 1e6);
    } else {
        const qint64 seconds = floorDiv(call.atMs, 1000);
        now = nowSeconds(seconds, double(call.atMs - seconds * 1000), 1000);
    }
    for (bool good : ok) {
        if (!good) {
            return std::nullopt;
        }
    }
    if (allowed != 0 && allowed != 1) {
        return std::nullopt;
    }
    Decision d;
    d.allowed = allowed == 1;
    d.remaining = remaining;
    d.retryAfterMs = d.allowed ? 0 : retry;
    d.atMs = atMs;
    // The reason in microseconds (the library's own resolution): TAT and the allow time
    // relative to now, rounded to the nearest; the exact doubles are in the script's reply.
    DecisionReason& r = d.reason;
    const double t = emissionInterval();
    r.hasTat = true;
    r.unitsPerMs = 1000;
    r.tat = atMs * 1000 + std::llround((tat - now) * 1e6);
    r.tolerance = std::llround(t * double(spec().burst) * 1e6);
    r.allowAt =
        atMs * 1000 +
        std::llround((tat + t * double(call.permits) - t * double(spec().burst) - now) * 1e6);
    return d;
}

void RedisRateGcraLimiter::explain(Decision* d, const ScriptCall&) const {
    d->reason.limit = spec().burst;
}

}  // namespace ratelab
