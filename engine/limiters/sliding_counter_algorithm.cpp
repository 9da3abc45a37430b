// The sliding-window counter of Cloudflare and upstash: `limit` permits per epoch-aligned
// window of `window_ms`, the previous window weighted by how much of it is still in view.
#include "input_error.h"
#include "json_input.h"
#include "limiters/algorithm.h"
#include "limiters/algorithm_list.h"
#include "limiters/limiter_state.h"
#include "limiters/reason_text.h"
#include "limiters/sliding_counter_limiter.h"
#include "limiters/upstash_counter_limiter.h"

namespace ratelab {
namespace {

class SlidingCounterAlgorithm final : public Algorithm {
public:
    SlidingCounterAlgorithm()
        : Algorithm(
              LimiterType::SlidingCounter, QStringLiteral("sliding_counter"),
              {{QLatin1String("limit"), &LimiterSpec::limit, 1, spec_limits::kMaxCounterLimit},
               {QLatin1String("window_ms"), &LimiterSpec::windowMs, 1,
                spec_limits::kMaxAlgoPeriodMs, false}}) {}

    std::vector<Flavor> flavors() const override { return {Flavor::Upstash}; }
    void readFields(const QJsonObject& object, const QString& path,
                    LimiterSpec& spec) const override {
        Algorithm::readFields(object, path, spec);
        if (spec.flavor == Flavor::Upstash && spec.time == TimeSource::Redis) {
            throw InputError(json_input::memberPath(path, QStringLiteral("flavor")),
                             QStringLiteral("the upstash flavor decides at the time its caller "
                                            "passes (the library's Date.now()), so it takes no "
                                            "\"time\": \"redis\""));
        }
    }
    // The upstash flavor's keys name no config: a new limit counts what the windows hold.
    bool keepsState(const LimiterSpec& before, const LimiterSpec& after) const override {
        return before.flavor == Flavor::Upstash && after.flavor == Flavor::Upstash &&
               before.windowMs == after.windowMs;
    }
    LimiterSpec defaults(const QString& name) const override {
        LimiterSpec spec;
        spec.type = type();
        spec.name = name;
        spec.limit = 10;
        spec.windowMs = 1000;
        return spec;
    }
    qint64 capacity(const LimiterSpec& spec) const override { return spec.limit; }
    std::vector<qint64> windowsMs(const LimiterSpec& spec) const override {
        return {spec.windowMs};
    }
    double limitPerBucket(const LimiterSpec& spec, qint64 bucketMs) const override {
        return permitsPerBucket(spec.limit, spec.windowMs, bucketMs);
    }
    // "estimate 9 = floor(8 × 62.5%) + 4 of 10 in the window [..): ..."
    QString reasonText(const LimiterSpec& spec, const Decision& d) const override {
        const DecisionReason& r = d.reason;
        // The same figures in both; upstash's says its own rule (the permits not in the check).
        const QString text =
            spec.flavor == Flavor::Upstash
                // "upstash: estimate 9 = floor(previous 8 × 62.5% in doubles) + current 4 ..."
                ? QStringLiteral(
                      "upstash: %1 per %2 ms window: estimate %3 = floor(previous %4 "
                      "× %5% in doubles) + current %6 of %1 in %7, checked before the "
                      "request's %8 (the library's rule: granted while the estimate "
                      "is below %1) → %9")
                : QStringLiteral(
                      "%1 per %2 ms window: estimate %3 = floor(previous %4 × %5%) + "
                      "current %6 of %1 in %7, asked %8 → %9");
        return text.arg(spec.limit)
            .arg(spec.windowMs)
            .arg(r.estimate)
            .arg(r.previous)
            .arg(double(r.weightPerMille) / 10.0, 0, 'f', 1)
            .arg(r.current)
            .arg(reasonInterval(r.fromMs, r.toMs, false))
            .arg(r.permits)
            .arg(reasonOutcome(d));
    }
    std::vector<HeaderQuota> headerQuotas(const LimiterSpec& spec,
                                          const Decision& d) const override {
        // A grant weighs on this window and the next: whole again when the next one ends.
        const qint64 offset = d.atMs - d.reason.fromMs;
        return {{QStringLiteral("default"), spec.limit, spec.windowMs, d.remaining,
                 d.allowed || d.retryAfterMs < 0 ? 2 * spec.windowMs - offset : d.retryAfterMs,
                 true}};
    }
    // The two windows' counts, when both count in windows of the same length.
    bool copyState(RedisRouter& c, const Limiter& from, const Limiter& to, const Request& request,
                   qint64 ttlMs) const override {
        if (from.spec().windowMs != to.spec().windowMs) {
            return false;
        }
        copyKeys(c, from, to, request, ttlMs);
        return true;
    }
    qint64 countedSinceMs(const LimiterSpec& spec, const Decision& d) const override {
        return d.reason.fromMs - spec.windowMs;  // the previous window weighs in too
    }
    ChartKind chartKind() const override { return ChartKind::Levels; }
    std::unique_ptr<Limiter> make(const LimiterSpec& spec,
                                  const LimiterOptions& options) const override {
        if (spec.flavor == Flavor::Upstash) {
            return std::make_unique<UpstashCounterLimiter>(spec, options);
        }
        return std::make_unique<SlidingCounterLimiter>(spec, options);
    }
    void readChartState(RedisConnection& c, const Limiter& limiter,
                        LimiterState* state) const override {
        if (limiter.spec().flavor == Flavor::Upstash) {
            readUpstashLevels(c, static_cast<const UpstashCounterLimiter&>(limiter), state);
            return;
        }
        readCounterLevels(c, static_cast<const SlidingCounterLimiter&>(limiter), state);
    }
};

}  // namespace

const Algorithm& slidingCounterAlgorithm() {
    static const SlidingCounterAlgorithm algorithm;
    return algorithm;
}

}  // namespace ratelab
