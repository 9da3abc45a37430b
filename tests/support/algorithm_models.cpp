#include "support/algorithm_models.h"

#include <algorithm>

namespace ratelab::test {
namespace {

using i128 = __int128;

i128 floorDiv(i128 a, i128 b) {
    i128 q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0))) {
        --q;
    }
    return q;
}

i128 ceilDiv(i128 a, i128 b) {
    return -floorDiv(-a, b);
}

QString scopeKey(const LimiterSpec& spec, const Request& r) {
    return spec.scope == Scope::PerClient ? r.client : QString();
}

// The smallest whole w >= 1 with passes(w), passing being monotone in w (state only drains).
template <typename Passes>
qint64 firstPassing(Passes passes) {
    qint64 hi = 1;
    while (!passes(hi)) {
        hi *= 2;
    }
    qint64 lo = hi / 2;  // fails, or 0
    while (hi - lo > 1) {
        const qint64 mid = lo + (hi - lo) / 2;
        (passes(mid) ? hi : lo) = mid;
    }
    return hi;
}

Decision answer(bool allowed, qint64 retry, qint64 remaining, qint64 now, qint64 delay = 0) {
    Decision d;
    d.allowed = allowed;
    d.retryAfterMs = retry;
    d.remaining = remaining;
    d.atMs = now;
    d.delayMs = delay;
    return d;
}

}  // namespace

Decision GcraModel::decide(const Request& r) {
    // ticks = ms x rate, so T = period_ms ticks and tau = burst x period_ms ticks exactly.
    const i128 rate = spec_.rate;
    const i128 T = spec_.periodMs;
    const i128 tau = i128(spec_.burst) * T;
    const i128 now = i128(r.nowMs) * rate;
    const QString key = scopeKey(spec_, r);
    const i128 tat = std::max(tat_.value(key, now), now);
    const auto remainingAt = [&](i128 t) {
        return qint64(std::max<i128>(0, floorDiv(now + tau - t, T)));
    };
    const i128 newTat = tat + i128(std::min(r.permits, spec_.burst + 1)) * T;
    const i128 allowAt = newTat - tau;
    // Why, in ticks of 1/rate ms: max(TAT, now), the tolerance and allow_at.
    const auto why = [&](Decision d) {
        d.reason.limit = spec_.burst;
        d.reason.hasTat = true;
        d.reason.unitsPerMs = spec_.rate;
        d.reason.tat = qint64(tat);
        d.reason.tolerance = qint64(tau);
        d.reason.allowAt = qint64(allowAt);
        return d;
    };
    if (r.permits > spec_.burst) {
        return why(answer(false, -1, remainingAt(tat), r.nowMs));
    }
    if (allowAt <= now) {
        tat_[key] = newTat;
        return why(answer(true, 0, remainingAt(newTat), r.nowMs));
    }
    return why(answer(false, qint64(ceilDiv(allowAt, rate)) - r.nowMs, remainingAt(tat), r.nowMs));
}

qint64 SlidingCounterModel::estimate(const QString& key, qint64 t) const {
    const qint64 w = spec_.windowMs;
    const qint64 i = qint64(floorDiv(t, w));
    const auto counts = counts_.value(key);
    const auto count = [&](qint64 index) {
        const auto it = counts.find(index);
        return it == counts.end() ? 0 : it->second;
    };
    return qint64(floorDiv(i128(count(i - 1)) * (w - (t - i * w)), w)) + count(i);
}

Decision SlidingCounterModel::decide(const Request& r) {
    const QString key = scopeKey(spec_, r);
    const qint64 est = estimate(key, r.nowMs);
    const qint64 w = spec_.windowMs;
    const qint64 i = qint64(floorDiv(r.nowMs, w));
    // Why: the two windows' counts, the previous one's weight and the estimate.
    const auto counts = counts_.value(key);
    const auto count = [&](qint64 index) {
        const auto it = counts.find(index);
        return it == counts.end() ? 0 : it->second;
    };
    const auto why = [&](Decision d) {
        d.reason.limit = spec_.limit;
        d.reason.counted = est;
        d.reason.estimate = est;
        d.reason.previous = count(i - 1);
        d.reason.current = count(i);
        d.reason.weightPerMille = (w - (r.nowMs - i * w)) * 1000 / w;
        d.reason.fromMs = i * w;
        d.reason.toMs = (i + 1) * w;
        return d;
    };
    if (r.permits <= spec_.limit && est + r.permits <= spec_.limit) {
        counts_[key][i] += r.permits;
        return why(answer(true, 0, spec_.limit - est - r.permits, r.nowMs));
    }
    const qint64 remaining = std::max<qint64>(0, spec_.limit - est);
    if (r.permits > spec_.limit) {
        return why(answer(false, -1, remaining, r.nowMs));
    }
    const qint64 wait = firstPassing(
        [&](qint64 ms) { return estimate(key, r.nowMs + ms) + r.permits <= spec_.limit; });
    return why(answer(false, wait, remaining, r.nowMs));
}

qint64 LeakyBucketModel::level(const QString& key, qint64 t) const {
    const auto it = state_.find(key);
    if (it == state_.end()) {
        return 0;
    }
    const i128 leaked = floorDiv(i128(spec_.rate) * 1000 * (t - it->last), spec_.periodMs);
    return qint64(std::max<i128>(it->excess - leaked + 1000, 0));
}

Decision LeakyBucketModel::decide(const Request& r) {
    const QString key = scopeKey(spec_, r);
    const qint64 x = level(key, r.nowMs);
    const qint64 e = x + 1000 * (r.permits - 1);
    const qint64 burst = spec_.burst;
    const qint64 refusedRemaining =
        std::max<qint64>(0, qint64(floorDiv(1000 * burst - x, 1000)) + 1);
    // Why: the water level found, of burst + 1 requests.
    const auto why = [&](Decision d) {
        d.reason.limit = burst + 1;
        d.reason.levelMilli = x;
        d.reason.capacityMilli = 1000 * (burst + 1);
        d.reason.counted = (x + 999) / 1000;
        return d;
    };
    if (r.permits > burst + 1) {
        return why(answer(false, -1, refusedRemaining, r.nowMs));
    }
    if (e <= 1000 * burst) {
        state_[key] = State{e, r.nowMs};
        const qint64 delay =
            spec_.nodelay ? 0 : qint64(floorDiv(i128(e) * spec_.periodMs, i128(spec_.rate) * 1000));
        return why(answer(true, 0, qint64(floorDiv(1000 * burst - e, 1000)), r.nowMs, delay));
    }
    const qint64 wait = firstPassing(
        [&](qint64 w) { return level(key, r.nowMs + w) + 1000 * (r.permits - 1) <= 1000 * burst; });
    return why(answer(false, wait, refusedRemaining, r.nowMs));
}

Decision ConcurrencyModel::decide(const Request& r) {
    std::vector<Slot>& held = slots_[scopeKey(spec_, r)];
    Decision d;
    d.atMs = r.nowMs;
    // Leases that ran out (expiry <= now) go first.
    const auto live =
        std::partition(held.begin(), held.end(), [&](const Slot& s) { return s.expiry > r.nowMs; });
    d.expiredLeases = qint64(held.end() - live);
    held.erase(live, held.end());
    const qint64 n = qint64(held.size());
    d.reason.limit = spec_.limit;
    d.reason.counted = n;
    d.reason.fromMs = r.nowMs - spec_.leaseMs;
    d.reason.toMs = r.nowMs;
    d.remaining = spec_.limit - n;
    if (r.permits > spec_.limit) {
        d.retryAfterMs = -1;
        return d;
    }
    if (n + r.permits <= spec_.limit) {
        const qint64 id = r.id >= 0 ? r.id : ownIds_--;
        for (qint64 i = 0; i < r.permits; ++i) {
            held.push_back({r.nowMs + spec_.leaseMs, id});
        }
        d.allowed = true;
        d.remaining -= r.permits;
        return d;
    }
    // The wait: until the (n + permits - limit)-th earliest lease runs out.
    std::vector<qint64> expiries;
    for (const Slot& s : held) {
        expiries.push_back(s.expiry);
    }
    std::sort(expiries.begin(), expiries.end());
    d.retryAfterMs = expiries[size_t(n + r.permits - spec_.limit - 1)] - r.nowMs;
    return d;
}

bool ConcurrencyModel::release(const Request& grant) {
    std::vector<Slot>& held = slots_[scopeKey(spec_, grant)];
    bool found = false;
    bool late = true;
    for (auto it = held.begin(); it != held.end();) {
        if (it->id == grant.id) {
            found = true;
            late = it->expiry <= grant.nowMs;
            it = held.erase(it);
        } else {
            ++it;
        }
    }
    return !found || late;
}

qint64 ConcurrencyModel::inFlight(const QString& client, qint64 t) const {
    const std::vector<Slot> held =
        slots_.value(spec_.scope == Scope::PerClient ? client : QString());
    return std::count_if(held.begin(), held.end(), [&](const Slot& s) { return s.expiry > t; });
}

}  // namespace ratelab::test
