// GCRA as go-redis redis_rate and redis-cell decide: `rate` per `period_ms`, up to `burst` at
// once.
#include "limiters/algorithm.h"
#include "limiters/algorithm_list.h"
#include "limiters/gcra_limiter.h"
#include "limiters/limiter_state.h"

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
