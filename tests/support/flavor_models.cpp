#include "support/flavor_models.h"

#include <algorithm>
#include <cmath>

namespace ratelab::test {
namespace {

qint64 floorDiv(qint64 a, qint64 b) {
    return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

QString scopeKey(const LimiterSpec& spec, const Request& r) {
    return spec.scope == Scope::PerClient ? r.client : QString();
}

}  // namespace

qint64 UpstashModel::count(const QString& key, qint64 window) const {
    const auto counts = counts_.find(key);
    if (counts == counts_.end()) {
        return 0;
    }
    const auto it = counts->find(window);
    return it == counts->end() ? 0 : it->second;
}

qint64 UpstashModel::estimate(const QString& key, qint64 t) const {
    const qint64 w = spec_.windowMs;
    const qint64 i = floorDiv(t, w);
    const double inCurrent = double(t - i * w) / double(w);
    return qint64(std::floor((1.0 - inCurrent) * double(count(key, i - 1)))) + count(key, i);
}

Decision UpstashModel::decide(const Request& r) {
    const QString key = scopeKey(spec_, r);
    const qint64 w = spec_.windowMs;
    const qint64 i = floorDiv(r.nowMs, w);
    const qint64 est = estimate(key, r.nowMs);
    Decision d;
    d.atMs = r.nowMs;
    DecisionReason& why = d.reason;
    why.limit = spec_.limit;
    why.counted = est;
    why.estimate = est;
    why.previous = count(key, i - 1);
    why.current = count(key, i);
    why.weightPerMille = (w - (r.nowMs - i * w)) * 1000 / w;
    why.fromMs = i * w;
    why.toMs = (i + 1) * w;
    // The library checks the count before the request, whatever its permits.
    d.allowed = est < spec_.limit;
    if (d.allowed) {
        counts_[key][i] += r.permits;
        d.remaining = std::max<qint64>(0, spec_.limit - est - r.permits);
        return d;
    }
    d.remaining = std::max<qint64>(0, spec_.limit - est);
    // The estimate only falls as time goes on: the first passing wait by doubling and halving.
    const auto passes = [&](qint64 wait) { return estimate(key, r.nowMs + wait) < spec_.limit; };
    qint64 hi = 1;
    while (!passes(hi)) {
        hi *= 2;
    }
    qint64 lo = hi / 2;
    while (hi - lo > 1) {
        const qint64 mid = lo + (hi - lo) / 2;
        (passes(mid) ? hi : lo) = mid;
    }
    d.retryAfterMs = hi;
    return d;
}

RedisRateModel::RedisRateModel(const LimiterSpec& spec) : spec_(spec) {
    // The period as Go's Duration.Seconds() gives it, then T = period / rate.
    const double period =
        double(spec.periodMs / 1000) + double((spec.periodMs % 1000) * 1'000'000) / 1e9;
    emission_ = period / double(spec.rate);
}

Decision RedisRateModel::decide(const Request& r) {
    const QString key = scopeKey(spec_, r);
    const qint64 seconds = floorDiv(r.nowMs, 1000);
    const double now = double(seconds - 1483228800) + double(r.nowMs - seconds * 1000) / 1000.0;
    const double increment = emission_ * double(r.permits);
    const double burstOffset = emission_ * double(spec_.burst);
    const double tat = std::max(tat_.contains(key) ? tat_.value(key) : now, now);
    const double newTat = tat + increment;
    const double diff = now - (newTat - burstOffset);
    const double remaining = diff / emission_;
    Decision d;
    d.atMs = r.nowMs;
    DecisionReason& why = d.reason;
    why.limit = spec_.burst;
    why.hasTat = true;
    why.unitsPerMs = 1000;  // microseconds
    why.tat = r.nowMs * 1000 + std::llround((tat - now) * 1e6);
    why.tolerance = std::llround(burstOffset * 1e6);
    why.allowAt = r.nowMs * 1000 + std::llround((tat + increment - burstOffset - now) * 1e6);
    if (remaining < 0) {
        d.allowed = false;
        d.retryAfterMs = qint64(std::ceil(-diff * 1000));
        return d;
    }
    d.allowed = true;
    d.remaining = qint64(std::floor(remaining));
    if (newTat - now > 0) {
        tat_[key] = newTat;
    }
    return d;
}

}  // namespace ratelab::test
