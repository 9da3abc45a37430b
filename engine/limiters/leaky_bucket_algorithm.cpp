// nginx's leaky bucket (limit_req, and APISIX limit-req): `rate` requests per `period_ms`,
// `burst` more waiting in the queue, held unless `nodelay`.
#include "input_error.h"
#include "json_input.h"
#include "limiters/algorithm.h"
#include "limiters/algorithm_list.h"
#include "limiters/leaky_bucket_limiter.h"
#include "limiters/limiter_state.h"
#include "limiters/reason_text.h"

namespace ratelab {
namespace {

const QLatin1String kNodelay("nodelay");

class LeakyBucketAlgorithm final : public Algorithm {
public:
    LeakyBucketAlgorithm()
        : Algorithm(LimiterType::LeakyBucket, QStringLiteral("leaky_bucket"),
                    {{QLatin1String("rate"), &LimiterSpec::rate, 1, spec_limits::kMaxAlgoRate},
                     {QLatin1String("period_ms"), &LimiterSpec::periodMs, 1,
                      spec_limits::kMaxAlgoPeriodMs, false},
                     // 0: no queue, only the request itself
                     {QLatin1String("burst"), &LimiterSpec::burst, 0, spec_limits::kMaxAlgoBurst}},
                    {kNodelay}) {}

    void readFields(const QJsonObject& object, const QString& path,
                    LimiterSpec& spec) const override {
        Algorithm::readFields(object, path, spec);
        if (object.contains(kNodelay)) {
            const QJsonValue value = object.value(kNodelay);
            if (!value.isBool()) {
                throw InputError(
                    json_input::memberPath(path, kNodelay),
                    QStringLiteral("must be true or false, got ") + json_input::describe(value));
            }
            spec.nodelay = value.toBool();
        }
    }
    void writeFields(const LimiterSpec& spec, QJsonObject& object) const override {
        Algorithm::writeFields(spec, object);
        object.insert(kNodelay, spec.nodelay);
    }
    bool sameFields(const LimiterSpec& a, const LimiterSpec& b) const override {
        return Algorithm::sameFields(a, b) && a.nodelay == b.nodelay;
    }
    LimiterSpec defaults(const QString& name) const override {
        LimiterSpec spec;
        spec.type = type();
        spec.name = name;
        spec.rate = 10;
        spec.periodMs = 1000;
        spec.burst = 4;
        return spec;
    }
    // The request itself plus `burst` waiting behind it.
    qint64 capacity(const LimiterSpec& spec) const override { return spec.burst + 1; }
    std::vector<qint64> windowsMs(const LimiterSpec& spec) const override {
        return {spec.periodMs};
    }
    // The sustained rate.
    double limitPerBucket(const LimiterSpec& spec, qint64 bucketMs) const override {
        return permitsPerBucket(spec.rate, spec.periodMs, bucketMs);
    }
    // "water level 4.200 of 5 (burst 4 + this one): ..."
    QString reasonText(const LimiterSpec& spec, const Decision& d) const override {
        const DecisionReason& r = d.reason;
        return QStringLiteral(
                   "%1 per %2 ms: water level %3 of %4 requests (burst %5 + this "
                   "one), asked %6 → %7")
            .arg(spec.rate)
            .arg(spec.periodMs)
            .arg(double(r.levelMilli) / 1000.0, 0, 'f', 3)
            .arg(spec.burst + 1)
            .arg(spec.burst)
            .arg(r.permits)
            .arg(reasonOutcome(d));
    }
    std::vector<HeaderQuota> headerQuotas(const LimiterSpec& spec,
                                          const Decision& d) const override {
        const qint64 leak = spec.rate * 1000;  // milli-requests per period
        const qint64 window = ((spec.burst + 1) * 1000 * spec.periodMs + leak - 1) / leak;
        qint64 reset = d.retryAfterMs < 0 ? window : d.retryAfterMs;
        if (d.allowed) {
            // The excess the grant left drains (as levelFound counts) after this long.
            const qint64 excess = d.reason.levelMilli + 1000 * (d.reason.permits - 1);
            reset = (excess + 1000) * spec.periodMs / leak + 1;
        }
        // burst + 1 at once: the burst the bucket holds and the one it lets through.
        return rateAndBurstQuotas(spec.rate, spec.periodMs, spec.burst + 1, d.remaining, reset);
    }
    // TAT (the water) reaches back at most (burst + 1) periods' worth of grants.
    qint64 countedSinceMs(const LimiterSpec& spec, const Decision& d) const override {
        return d.atMs - ((spec.burst + 1) * spec.periodMs + spec.rate - 1) / spec.rate + 1;
    }
    ChartKind chartKind() const override { return ChartKind::Levels; }
    std::unique_ptr<Limiter> make(const LimiterSpec& spec,
                                  const LimiterOptions& options) const override {
        return std::make_unique<LeakyBucketLimiter>(spec, options);
    }
    void readChartState(RedisConnection& c, const Limiter& limiter,
                        LimiterState* state) const override {
        readLeakyLevels(c, static_cast<const LeakyBucketLimiter&>(limiter), state);
    }
};

}  // namespace

const Algorithm& leakyBucketAlgorithm() {
    static const LeakyBucketAlgorithm algorithm;
    return algorithm;
}

}  // namespace ratelab
