#include "support/reference_models.h"

#include <stdexcept>

#include "limiters/script_spec.h"

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
    // Why: the permits held in (now - interval, now] of the rate.
    const auto why = [&](Decision d) {
        d.reason.limit = spec_.rate;
        d.reason.counted = held;
        d.reason.fromMs = r.nowMs - spec_.intervalMs;
        d.reason.toMs = r.nowMs;
        if (!d.allowed && d.retryAfterMs >= 0) {
            d.reason.releaseAtMs = r.nowMs + d.retryAfterMs;
        }
        return d;
    };
    if (r.permits > spec_.rate) {
        return why(make(false, -1, value, r.nowMs));
    }
    if (r.permits <= value) {
        grants.push_back({r.nowMs, r.permits});
        return why(make(true, 0, value - r.permits, r.nowMs));
    }
    qint64 released = 0;
    for (const Grant& g : grants) {
        released += g.permits;
        if (value + released >= r.permits) {
            return why(make(false, g.t + spec_.intervalMs - r.nowMs, value, r.nowMs));
        }
    }
    qFatal("token bucket model: grants cannot cover a request within the rate");
}

FixedWindowModel::FixedWindowModel(const LimiterSpec& spec)
    : spec_(spec), windows_(spec.interval, spec.unit, zoneForId(spec.timezone)) {}

Decision FixedWindowModel::decide(const Request& r) {
    const CalendarWindow w = windows_.windowAt(r.nowMs);
    qint64& count = counts_[{w.startMs, scopeKey(spec_, r.client)}];
    // Why: the calendar window's count of its rate.
    const auto why = [&](Decision d, qint64 counted) {
        d.reason.limit = spec_.rate;
        d.reason.counted = counted;
        d.reason.fromMs = w.startMs;
        d.reason.toMs = w.endMs;
        return d;
    };
    if (r.permits > spec_.rate) {
        return why(make(false, -1, spec_.rate - count, r.nowMs), count);
    }
    if (count + r.permits > spec_.rate) {
        return why(make(false, w.endMs - r.nowMs, spec_.rate - count, r.nowMs), count);
    }
    const qint64 before = count;
    count += r.permits;
    return why(make(true, 0, spec_.rate - count, r.nowMs), before);
}

Decision SlidingWindowModel::decide(const Request& r) {
    std::vector<Grant>& grants = grants_[scopeKey(spec_, r.client)];
    qint64 remaining = std::numeric_limits<qint64>::max();
    qint64 retry = 0;
    bool violated = false;
    bool tooLarge = false;
    // The deciding rule: the first too small for the permits, else the violated one with the
    // longest wait (the first of equal ones), else the one with the least room (the first).
    int tight = 0, worst = -1, big = -1;
    std::vector<qint64> counts;
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
        const int index = int(counts.size());
        counts.push_back(count);
        if (rule.limit - count < remaining) {
            tight = index;
        }
        remaining = std::min(remaining, rule.limit - count);
        if (r.permits > rule.limit) {
            big = big < 0 ? index : big;
            tooLarge = true;
        } else if (count + r.permits > rule.limit) {
            violated = true;
            const qint64 k = count + r.permits - rule.limit;  // the k-th oldest permit must leave
            qint64 seen = 0;
            for (const Grant& g : inWindow) {
                seen += g.permits;
                if (seen >= k) {
                    const qint64 wait = g.t + rule.windowMs - r.nowMs;
                    if (worst < 0 || wait > retry) {
                        worst = index;
                    }
                    retry = std::max(retry, wait);
                    break;
                }
            }
        }
    }
    const auto why = [&](Decision d, int rule) {
        d.reason.rule = rule;
        d.reason.limit = spec_.rules[rule].limit;
        d.reason.counted = counts[size_t(rule)];
        d.reason.fromMs = r.nowMs - spec_.rules[rule].windowMs;
        d.reason.toMs = r.nowMs;
        return d;
    };
    if (tooLarge) {
        return why(make(false, -1, remaining, r.nowMs), big);
    }
    if (violated) {
        return why(make(false, retry, remaining, r.nowMs), worst);
    }
    grants.push_back({r.nowMs, r.permits});
    return why(make(true, 0, remaining - r.permits, r.nowMs), tight);
}

ReferenceModel::ReferenceModel(const LimiterSpec& spec) : type_(spec.type) {
    if (spec.flavor == Flavor::Upstash) {
        upstash_ = std::make_unique<UpstashModel>(spec);
        return;
    }
    if (spec.flavor == Flavor::RedisRate) {
        redisRate_ = std::make_unique<RedisRateModel>(spec);
        return;
    }
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
        case LimiterType::Concurrency:
            concurrency_ = std::make_unique<ConcurrencyModel>(spec);
            break;
        case LimiterType::Script:
            // A script claims to implement its reference: that is its model (none without).
            if (const std::optional<LimiterSpec> reference = referenceSpecOf(spec)) {
                script_ = std::make_unique<ReferenceModel>(*reference);
            }
            break;
    }
}

Decision ReferenceModel::decide(const Request& request) {
    if (upstash_) {
        return upstash_->decide(request);
    }
    if (redisRate_) {
        return redisRate_->decide(request);
    }
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
        case LimiterType::Concurrency:
            return concurrency_->decide(request);
        case LimiterType::Script:
            if (!script_) {
                throw std::logic_error("a script limiter without a reference has no model");
            }
            return script_->decide(request);
    }
    return {};
}

}  // namespace ratelab::test
