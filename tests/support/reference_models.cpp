#include "support/reference_models.h"

#include <algorithm>

namespace ratelab::test {
namespace {

QString scopeKey(const LimiterSpec& spec, const QString& client) {
    return spec.scope == Scope::PerClient ? client : QString();
}

Decision make(bool allowed, qint64 retry, qint64 remaining, qint64 at) {
    Decision d;
    d.allowed = allowed;
    d.retryAfterMs = retry;
    d.remaining = remaining;
    d.atMs = at;
    return d;
}

}  // namespace

Decision TokenBucketModel::decide(const Request& r) {
    std::deque<Grant>& grants = grants_[scopeKey(spec_, r.client)];
    // A grant is back once it is interval_ms old.
    while (!grants.empty() && grants.front().t <= r.nowMs - spec_.intervalMs) {
        grants.pop_front();
    }
    qint64 held = 0;
    for (const Grant& g : grants) {
        held += g.permits;
    }
    const qint64 value = spec_.rate - held;
    if (r.permits > spec_.rate) {
        return make(false, -1, value, r.nowMs);
    }
    if (r.permits <= value) {
        grants.push_back({r.nowMs, r.permits});
        return make(true, 0, value - r.permits, r.nowMs);
    }
    qint64 released = 0;
    for (const Grant& g : grants) {
        released += g.permits;
        if (value + released >= r.permits) {
            return make(false, g.t + spec_.intervalMs - r.nowMs, value, r.nowMs);
        }
    }
    qFatal("token bucket model: grants cannot cover a request within the rate");
}

FixedWindowModel::FixedWindowModel(const LimiterSpec& spec)
    : spec_(spec), windows_(spec.interval, spec.unit, zoneForId(spec.timezone)) {}

Decision FixedWindowModel::decide(const Request& r) {
    const CalendarWindow w = windows_.windowAt(r.nowMs);
    qint64& count = counts_[{w.startMs, scopeKey(spec_, r.client)}];
    if (r.permits > spec_.rate) {
        return make(false, -1, spec_.rate - count, r.nowMs);
    }
    if (count + r.permits > spec_.rate) {
        return make(false, w.endMs - r.nowMs, spec_.rate - count, r.nowMs);
    }
    count += r.permits;
    return make(true, 0, spec_.rate - count, r.nowMs);
}

Decision SlidingWindowModel::decide(const Request& r) {
    std::vector<Grant>& grants = grants_[scopeKey(spec_, r.client)];
    qint64 remaining = std::numeric_limits<qint64>::max();
    qint64 retry = 0;
    bool violated = false;
    bool tooLarge = false;
    for (const SlidingRule& rule : spec_.rules) {
        // Grants in (now - window, now], oldest first.
        std::vector<Grant> inWindow;
        qint64 count = 0;
        for (const Grant& g : grants) {
            if (g.t > r.nowMs - rule.windowMs) {
                inWindow.push_back(g);
                count += g.permits;
            }
        }
        remaining = std::min(remaining, rule.limit - count);
        if (r.permits > rule.limit) {
            tooLarge = true;
        } else if (count + r.permits > rule.limit) {
            violated = true;
            const qint64 k = count + r.permits - rule.limit;  // the k-th oldest permit must leave
            qint64 seen = 0;
            for (const Grant& g : inWindow) {
                seen += g.permits;
                if (seen >= k) {
                    retry = std::max(retry, g.t + rule.windowMs - r.nowMs);
                    break;
                }
            }
        }
    }
    if (tooLarge) {
        return make(false, -1, remaining, r.nowMs);
    }
    if (violated) {
        return make(false, retry, remaining, r.nowMs);
    }
    grants.push_back({r.nowMs, r.permits});
    return make(true, 0, remaining - r.permits, r.nowMs);
}

ReferenceModel::ReferenceModel(const LimiterSpec& spec) : type_(spec.type) {
    switch (type_) {
        case LimiterType::TokenBucket:
            tokenBucket_ = std::make_unique<TokenBucketModel>(spec);
            break;
        case LimiterType::FixedWindow:
            fixedWindow_ = std::make_unique<FixedWindowModel>(spec);
            break;
        case LimiterType::SlidingWindow:
            slidingWindow_ = std::make_unique<SlidingWindowModel>(spec);
            break;
        case LimiterType::Gcra:
            gcra_ = std::make_unique<GcraModel>(spec);
            break;
        case LimiterType::SlidingCounter:
            slidingCounter_ = std::make_unique<SlidingCounterModel>(spec);
            break;
        case LimiterType::LeakyBucket:
            leakyBucket_ = std::make_unique<LeakyBucketModel>(spec);
            break;
    }
}

Decision ReferenceModel::decide(const Request& request) {
    switch (type_) {
        case LimiterType::TokenBucket:
            return tokenBucket_->decide(request);
        case LimiterType::FixedWindow:
            return fixedWindow_->decide(request);
        case LimiterType::SlidingWindow:
            return slidingWindow_->decide(request);
        case LimiterType::Gcra:
            return gcra_->decide(request);
        case LimiterType::SlidingCounter:
            return slidingCounter_->decide(request);
        case LimiterType::LeakyBucket:
            return leakyBucket_->decide(request);
    }
    return {};
}

}  // namespace ratelab::test
