#include "limiters/gcra_limiter.h"

#include <numeric>

#include "input_error.h"
#include "limiters/floor_div.h"
#include "limiters/request_ids.h"
#include "redis/lua_script.h"

namespace ratelab {
namespace lua {
extern const char* const kLua_gcra;
extern const char* const kLua_gcra_units;
}  // namespace lua

GcraLimiter::GcraLimiter(LimiterSpec spec, LimiterOptions options)
    : Limiter(std::move(spec), options),
      configArgs_{std::to_string(this->spec().rate), std::to_string(this->spec().periodMs),
                  std::to_string(this->spec().burst),
                  std::to_string(this->spec().rate) + '/' + std::to_string(this->spec().periodMs) +
                      '/' + std::to_string(this->spec().burst)},
      // A grant leaves TAT at most tau = burst x period / rate ahead of now: the state may go
      // after that (absent = now), and a lagging worker still finds it for the grace.
      stateTtl_(ttlArg(ceilDiv(this->spec().burst * this->spec().periodMs, this->spec().rate) + 1 +
                       kStateGraceMs)) {
    const LimiterSpec& s = this->spec();
    const qint64 g = std::gcd(s.rate, s.periodMs);
    unitsPerMs_ = s.rate / g;
    periodUnits_ = s.periodMs / g;
    tauUnits_ = s.burst * periodUnits_;
    unitState_ = s.time != TimeSource::Redis && unitsPerMs_ <= kMaxUnitsPerMs;
    if (unitState_) {
        qint64 grid = 1;
        while (grid < tauUnits_ + periodUnits_) {
            grid *= 2;
        }
        tauArg_ = std::to_string(tauUnits_);
        gridArg_ = std::to_string(grid);
        // A TTL set at now covers the end of the TAT's grid cell, at most tau + grid units
        // ahead (gcra_units.lua), plus the grace.
        unitTtl_ = ttlArg(ceilDiv(tauUnits_ + grid, unitsPerMs_) + 1 + kStateGraceMs);
        unitPrefix_ = key("tat:" + configFingerprint(configArgs_[3]));
    }
}

const LuaScript& GcraLimiter::script() const {
    static const LuaScript kScript(lua::kLua_gcra);
    static const LuaScript kUnits(lua::kLua_gcra_units);
    return unitState_ ? kUnits : kScript;
}

std::string GcraLimiter::stateKey(const QString& client) const {
    if (!unitState_) {
        return scopedKey("tat", client);
    }
    return spec().scope == Scope::PerClient ? unitPrefix_ + ':' + client.toStdString()
                                            : unitPrefix_;
}

ScriptCall GcraLimiter::prepare(const Request& request) const {
    checkPermits(request.permits);
    if (unitState_) {
        if (request.nowMs < 0 || request.nowMs > kMaxUnitNowMs) {
            throw InputError(QStringLiteral("time"),
                             QStringLiteral("%1 ms is outside 0 ... %2 ms, the times GCRA decides "
                                            "at exactly")
                                 .arg(request.nowMs)
                                 .arg(kMaxUnitNowMs));
        }
        // permits <= burst keeps permits x T below 2^53; a larger request never passes and
        // asks for burst + 1 (the same refusal, no overflow).
        const qint64 permits = std::min(request.permits, spec().burst + 1);
        return withConfigTtl(
            ScriptCall{{stateKey(request.client)},
                       {std::to_string(request.nowMs * unitsPerMs_),
                        std::to_string(permits * periodUnits_), tauArg_, gridArg_, unitTtl_},
                       request.nowMs,
                       0,
                       0,
                       request.permits});
    }
    return packedCall({stateKey(request.client)},
                      {configArgs_[0], configArgs_[1], configArgs_[2],
                       std::to_string(request.permits), nowArg(request), stateTtl_, configArgs_[3]},
                      request, spec().burst);
}

std::optional<Decision> GcraLimiter::decodeOwnReply(ReplyView reply, const ScriptCall& call) const {
    if (!unitState_ || call.radix != 0) {
        return std::nullopt;  // gcra.lua's packed reply or text
    }
    if (reply.is(ReplyView::Type::Integer)) {
        return decodeUnits(reply.integer(), call);
    }
    long long value = 0;
    if (reply.is(ReplyView::Type::String) && reply.integers("reset ", &value, 1)) {
        Decision d = decodeUnits(value, call);
        d.configReset = true;
        return d;
    }
    return std::nullopt;  // parseReply names what it got
}

// The script answers the TAT it left (granted) or -(max(TAT, now)) - 1 (refused).
Decision GcraLimiter::decodeUnits(long long value, const ScriptCall& call) const {
    Decision d;
    d.atMs = call.atMs;
    const qint64 now = call.atMs * unitsPerMs_;
    d.allowed = value >= 0;
    const qint64 tat = d.allowed ? value : -(value + 1);
    // The TAT the request found: max(TAT, now) (a grant answers the TAT it left).
    const qint64 permitsUnits = std::min(call.permits, spec().burst + 1) * periodUnits_;
    d.reason.hasTat = true;
    d.reason.tat = d.allowed ? tat - permitsUnits : tat;
    d.reason.allowAt = d.reason.tat + permitsUnits - tauUnits_;
    // remaining = floor((now + tau - TAT) / T) at the TAT the decision leaves
    d.remaining = std::max<qint64>(0, floorDiv(now + tauUnits_ - tat, periodUnits_));
    if (!d.allowed) {
        const qint64 permits = call.permits;
        if (permits > spec().burst) {
            d.retryAfterMs = -1;
        } else {
            // allow_at = tat + permits x T - tau; retry = ceil(allow_at) - now (ms)
            const qint64 allowAt = tat + permits * periodUnits_ - tauUnits_;
            d.retryAfterMs = -floorDiv(-allowAt, unitsPerMs_) - call.atMs;
        }
    }
    return d;
}

// TAT, the tolerance and allow_at in units of 1/unitsPerMs ms. The float-state script
// (gcra.lua: Redis's time, or reduced units too fine for one integer) answers no TAT.
void GcraLimiter::explain(Decision* d, const ScriptCall&) const {
    DecisionReason& r = d->reason;
    r.limit = spec().burst;
    if (r.hasTat) {
        r.tolerance = tauUnits_;
        r.unitsPerMs = unitsPerMs_;
        return;
    }
    // In 1/rate ms: tolerance = burst x period exactly; a refusal's allow_at to the whole ms
    // (now + the wait), a grant's at or before now.
    r.unitsPerMs = spec().rate;
    r.tolerance = spec().burst * spec().periodMs;
    r.allowAt = (d->atMs + (d->allowed ? 0 : std::max<qint64>(0, d->retryAfterMs))) * spec().rate;
}

}  // namespace ratelab
