// GCRA as go-redis redis_rate and redis-cell decide: `rate` per `period_ms`, up to `burst` at
// once.
#include "limiters/algorithm.h"
#include "limiters/algorithm_list.h"
#include "limiters/gcra_limiter.h"
#include "limiters/limiter_state.h"
#include "limiters/reason_text.h"

namespace ratelab {
namespace {

class GcraAlgorithm final : public Algorithm {
public:
    GcraAlgorithm()
        : Algorithm(
              LimiterType::Gcra, QStringLiteral("gcra"),
              {{QLatin1String("rate"), &LimiterSpec::rate, 1, spec_limits::kMaxAlgoRate},
               {QLatin1String("period_ms"), &LimiterSpec::periodMs, 1,
                spec_limits::kMaxAlgoPeriodMs},
               {QLatin1String("burst"), &LimiterSpec::burst, 1, spec_limits::kMaxAlgoBurst}}) {}

    LimiterSpec defaults(const QString& name) const override {
        LimiterSpec spec;
        spec.type = type();
        spec.name = name;
        spec.rate = 10;
        spec.periodMs = 1000;
        spec.burst = 5;
        return spec;
    }
    qint64 capacity(const LimiterSpec& spec) const override { return spec.burst; }
    std::vector<qint64> windowsMs(const LimiterSpec& spec) const override {
        return {spec.periodMs};
    }
    // The sustained rate.
    double limitPerBucket(const LimiterSpec& spec, qint64 bucketMs) const override {
        return permitsPerBucket(spec.rate, spec.periodMs, bucketMs);
    }
    // "TAT now + 4200 ms (tolerance 5000 ms = burst 5 × 1000 ms): allow at now + 200 ms"
    QString reasonText(const LimiterSpec& spec, const Decision& d) const override {
        const DecisionReason& r = d.reason;
        const qint64 nowUnits = d.atMs * r.unitsPerMs;
        const auto fromNow = [&](qint64 units) {
            const qint64 ahead = units - nowUnits;
            return ahead >= 0 ? QStringLiteral("now + %1").arg(reasonMs(ahead, r.unitsPerMs))
                              : QStringLiteral("now − %1").arg(reasonMs(-ahead, r.unitsPerMs));
        };
        const QString tolerance = QStringLiteral("tolerance %1 = burst %2 × %3")
                                      .arg(reasonMs(r.tolerance, r.unitsPerMs))
                                      .arg(spec.burst)
                                      .arg(reasonMs(spec.periodMs, spec.rate));
        const QString tat =
            r.hasTat ? QStringLiteral("TAT %1 (%2)").arg(fromNow(r.tat), tolerance) : tolerance;
        return QStringLiteral("%1 per %2 ms, %3: allow at %4, asked %5 → %6")
            .arg(spec.rate)
            .arg(spec.periodMs)
            .arg(tat)
            .arg(fromNow(r.allowAt))
            .arg(r.permits)
            .arg(reasonOutcome(d));
    }
    ChartKind chartKind() const override { return ChartKind::Levels; }
    std::unique_ptr<Limiter> make(const LimiterSpec& spec,
                                  const LimiterOptions& options) const override {
        return std::make_unique<GcraLimiter>(spec, options);
    }
    void readChartState(RedisConnection& c, const Limiter& limiter,
                        LimiterState* state) const override {
        readGcraLevels(c, static_cast<const GcraLimiter&>(limiter), state);
    }
};

}  // namespace

const Algorithm& gcraAlgorithm() {
    static const GcraAlgorithm algorithm;
    return algorithm;
}

}  // namespace ratelab
