#pragma once

#include "limiters/limiter.h"

namespace ratelab {

// GCRA (go-redis redis_rate, redis-cell's CL.THROTTLE): emission interval T = period_ms / rate,
// tolerance burst x T, one theoretical arrival time (TAT) per scope key.
//
// Two layouts, chosen once per limiter (unitState()):
// - in units of 1/u ms, u = rate / gcd(rate, period_ms), when the engine decides the time and
//   now x u stays below 2^53 for centuries (u <= kMaxUnitsPerMs): {name}:tat:<fingerprint>
//   [:client] holds the TAT as one integer, {name}:tat:cfg the fingerprint deciding now
//   (gcra_units.lua, the cheaper script: bench/README.md, "Instructions per decision");
// - otherwise (time: redis, or a rate whose units would not fit) {name}:tat[:client] =
//   "<q> <r> <rate>/<period>/<burst>", TAT = q + r / rate ms (gcra.lua).
class GcraLimiter final : public Limiter {
public:
    // now x u + tau + permits x T stays below 2^53 for every now up to kMaxUnitNowMs (the
    // year 2112; tau and T are at most 10^5 x 86,400,000 units by the parser's bounds).
    static constexpr qint64 kMaxUnitsPerMs = 1000;
    static constexpr qint64 kMaxUnitNowMs = 4'500'000'000'000;

    GcraLimiter(LimiterSpec spec, LimiterOptions options);

    const LuaScript& script() const override;
    ScriptCall prepare(const Request& request) const override;
    std::string stateKey(const QString& client) const;

    bool unitState() const { return unitState_; }
    qint64 unitsPerMs() const { return unitsPerMs_; }
    // The units layout's keys start with this ("{name}:tat:<fingerprint>").
    const std::string& unitKeyPrefix() const { return unitPrefix_; }

protected:
    std::optional<Decision> decodeOwnReply(ReplyView reply, const ScriptCall& call) const override;
    void explain(Decision* decision, const ScriptCall& call) const override;

private:
    Decision decodeUnits(long long value, const ScriptCall& call) const;

    std::string configArgs_[4];  // rate, period_ms, burst, and the three as "r/p/b"
    std::string stateTtl_;       // the state key's TTL, ms as text
    bool unitState_ = false;
    qint64 unitsPerMs_ = 1;   // u
    qint64 periodUnits_ = 1;  // T in units
    qint64 tauUnits_ = 0;     // burst x T in units
    std::string tauArg_, gridArg_, unitTtl_;
    std::string unitPrefix_;
};

}  // namespace ratelab
