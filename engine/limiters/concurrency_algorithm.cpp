// The concurrency (in-flight) limiter, Stripe's concurrent-requests limiter: at most `limit`
// requests hold a slot at once; a slot is held from its grant until the request releases it or
// its lease of `lease_ms` runs out.
#include "limiters/algorithm.h"
#include "limiters/algorithm_list.h"
#include "limiters/concurrency_limiter.h"
#include "limiters/limiter_state.h"
#include "limiters/reason_text.h"

namespace ratelab {
namespace {

class ConcurrencyAlgorithm final : public Algorithm {
public:
    ConcurrencyAlgorithm()
        : Algorithm(
              LimiterType::Concurrency, QStringLiteral("concurrency"),
              {{QLatin1String("limit"), &LimiterSpec::limit, 1, spec_limits::kMaxConcurrencyLimit},
               // A longer lease admits nothing more now; it keeps a leaked slot longer.
               {QLatin1String("lease_ms"), &LimiterSpec::leaseMs, 1, spec_limits::kMaxLeaseMs,
                false}}) {}

    LimiterSpec defaults(const QString& name) const override {
        LimiterSpec spec;
        spec.type = type();
        spec.name = name;
        spec.limit = 5;
        spec.leaseMs = 5000;
        return spec;
    }
    qint64 capacity(const LimiterSpec& spec) const override { return spec.limit; }
    // A slot comes back at the latest when its lease runs out: no more than limit grants in a
    // lease's length whose holders never release.
    std::vector<qint64> windowsMs(const LimiterSpec& spec) const override { return {spec.leaseMs}; }
    double limitPerBucket(const LimiterSpec& spec, qint64 bucketMs) const override {
        return permitsPerBucket(spec.limit, spec.leaseMs, bucketMs);
    }
    // Slots held now belong to the limit whatever its config: a changed limit or lease keeps
    // them (each keeps the lease it was granted with).
    bool keepsState(const LimiterSpec&, const LimiterSpec&) const override { return true; }
    // "3 of 5 slots in flight (1 lease ran out and was removed), asked 2 → refused, retry in
    // 312 ms"
    QString reasonText(const LimiterSpec& spec, const Decision& d) const override {
        const DecisionReason& r = d.reason;
        QString expired;
        if (d.expiredLeases > 0) {
            expired =
                QStringLiteral(" (%1 lease%2 ran out unreleased and %3 removed)")
                    .arg(d.expiredLeases)
                    .arg(d.expiredLeases == 1 ? QString() : QStringLiteral("s"))
                    .arg(d.expiredLeases == 1 ? QStringLiteral("was") : QStringLiteral("were"));
        }
        return QStringLiteral("%1 of %2 slots in flight, leases of %3 ms%4, asked %5 → %6")
            .arg(r.counted)
            .arg(spec.limit)
            .arg(spec.leaseMs)
            .arg(expired)
            .arg(r.permits)
            .arg(reasonOutcome(d));
    }
    // The limit's slots over a lease: whole again, at the latest, when the lease just granted
    // runs out.
    std::vector<HeaderQuota> headerQuotas(const LimiterSpec& spec,
                                          const Decision& d) const override {
        const qint64 reset =
            d.allowed ? spec.leaseMs : (d.retryAfterMs < 0 ? spec.leaseMs : d.retryAfterMs);
        return {{QStringLiteral("default"), spec.limit, spec.leaseMs, d.remaining, reset, true}};
    }
    ChartKind chartKind() const override { return ChartKind::Levels; }
    bool limitsInFlight() const override { return true; }
    std::unique_ptr<Limiter> make(const LimiterSpec& spec,
                                  const LimiterOptions& options) const override {
        return std::make_unique<ConcurrencyLimiter>(spec, options);
    }
    void readChartState(RedisConnection& c, const Limiter& limiter,
                        LimiterState* state) const override {
        readConcurrencyLevels(c, static_cast<const ConcurrencyLimiter&>(limiter), state);
    }
};

}  // namespace

const Algorithm& concurrencyAlgorithm() {
    static const ConcurrencyAlgorithm algorithm;
    return algorithm;
}

}  // namespace ratelab
