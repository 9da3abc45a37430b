// GCRA as go-redis redis_rate and redis-cell decide: `rate` per `period_ms`, up to `burst` at
// once.
#include "limiters/algorithm.h"
#include "limiters/algorithm_list.h"
#include "limiters/gcra_limiter.h"
#include "limiters/limiter_state.h"
#include "limiters/reason_text.h"
#include "limiters/redis_rate_gcra_limiter.h"
#include "redis/redis_reply.h"
#include "redis/redis_router.h"

namespace ratelab {
namespace {

class GcraAlgorithm final : public Algorithm {
public:
    GcraAlgorithm()
        : Algorithm(
              LimiterType::Gcra, QStringLiteral("gcra"),
              {{QLatin1String("rate"), &LimiterSpec::rate, 1, spec_limits::kMaxAlgoRate},
               {QLatin1String("period_ms"), &LimiterSpec::periodMs, 1,
                spec_limits::kMaxAlgoPeriodMs, false},
               {QLatin1String("burst"), &LimiterSpec::burst, 1, spec_limits::kMaxAlgoBurst}}) {}

    std::vector<Flavor> flavors() const override { return {Flavor::RedisRate}; }
    // redis_rate's key names no config: the TAT, in seconds, counts under a new one.
    bool keepsState(const LimiterSpec& before, const LimiterSpec& after) const override {
        return before.flavor == Flavor::RedisRate && after.flavor == Flavor::RedisRate;
    }
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
        QString flavor;
        if (spec.flavor == Flavor::RedisRate) {
            // The library's doubles: a sum that lands a hair past the allow time (or before it)
            // rounds to "now" here.
            const bool hair = (!d.allowed && r.allowAt <= nowUnits && d.retryAfterMs >= 0) ||
                              (d.allowed && r.allowAt > nowUnits);
            flavor = hair ? QStringLiteral(
                                "redis_rate (doubles: the sums land a hair %1 the "
                                "allow time, which rounds to now): ")
                                .arg(d.allowed ? QStringLiteral("before") : QStringLiteral("after"))
                          : QStringLiteral("redis_rate (doubles): ");
        }
        return flavor + QStringLiteral("%1 per %2 ms, %3: allow at %4, asked %5 → %6")
                            .arg(spec.rate)
                            .arg(spec.periodMs)
                            .arg(tat)
                            .arg(fromNow(r.allowAt))
                            .arg(r.permits)
                            .arg(reasonOutcome(d));
    }
    std::vector<HeaderQuota> headerQuotas(const LimiterSpec& spec,
                                          const Decision& d) const override {
        const DecisionReason& r = d.reason;
        const qint64 tolerance = (spec.burst * spec.periodMs + spec.rate - 1) / spec.rate;
        qint64 reset = d.retryAfterMs < 0 ? tolerance : d.retryAfterMs;
        if (d.allowed) {
            // Whole again when TAT has passed: the TAT the grant left, less now.
            const qint64 left = r.hasTat ? r.tat - d.atMs * r.unitsPerMs +
                                               std::min(r.permits, spec.burst) * spec.periodMs *
                                                   r.unitsPerMs / spec.rate
                                         : tolerance * r.unitsPerMs;
            reset = std::max<qint64>(0, (left + r.unitsPerMs - 1) / r.unitsPerMs);
        }
        return rateAndBurstQuotas(spec.rate, spec.periodMs, spec.burst, d.remaining, reset);
    }
    // TAT, as `to` keeps it: in its units (rounded up to the next one when `to`'s grid is
    // coarser) or as "q r config" (the float-state script).
    bool copyState(RedisRouter& c, const Limiter& from, const Limiter& to, const Request& request,
                   qint64 ttlMs) const override;
    // TAT (the water) reaches back at most (burst + 1) periods' worth of grants.
    qint64 countedSinceMs(const LimiterSpec& spec, const Decision& d) const override {
        return d.atMs - ((spec.burst + 1) * spec.periodMs + spec.rate - 1) / spec.rate + 1;
    }
    ChartKind chartKind() const override { return ChartKind::Levels; }
    std::unique_ptr<Limiter> make(const LimiterSpec& spec,
                                  const LimiterOptions& options) const override {
        if (spec.flavor == Flavor::RedisRate) {
            return std::make_unique<RedisRateGcraLimiter>(spec, options);
        }
        return std::make_unique<GcraLimiter>(spec, options);
    }
    void readChartState(RedisConnection& c, const Limiter& limiter,
                        LimiterState* state) const override {
        if (limiter.spec().flavor == Flavor::RedisRate) {
            readRedisRateLevels(c, static_cast<const RedisRateGcraLimiter&>(limiter), state);
            return;
        }
        readGcraLevels(c, static_cast<const GcraLimiter&>(limiter), state);
    }
};

bool GcraAlgorithm::copyState(RedisRouter& c, const Limiter& from, const Limiter& to,
                              const Request& request, qint64 ttlMs) const {
    if (from.spec().flavor == Flavor::RedisRate) {
        copyKeys(c, from, to, request, ttlMs);  // the TAT in seconds means the same under both
        return true;
    }
    const auto& a = static_cast<const GcraLimiter&>(from);
    const auto& b = static_cast<const GcraLimiter&>(to);
    const std::string source = a.stateKey(request.client);
    const std::string target = b.stateKey(request.client);
    c.command(b.slot(), {"DEL", target});
    const RedisReply value = c.command(a.slot(), {"GET", source});
    if (value->type != REDIS_REPLY_STRING) {
        return true;  // no TAT: absent in both
    }
    // TAT = num / den ms.
    const QByteArray text(value->str, int(value->len));
    __int128 num = 0;
    __int128 den = 1;
    if (a.unitState()) {
        num = text.toLongLong();
        den = a.unitsPerMs();
    } else {
        const QList<QByteArray> parts = text.split(' ');  // "q r config"
        den = a.spec().rate;
        num = __int128(parts.value(0).toLongLong()) * den + parts.value(1).toLongLong();
    }
    const auto ceilDiv = [](__int128 x, __int128 y) {
        return x >= 0 ? (x + y - 1) / y : -((-x) / y);
    };
    std::string written;
    if (b.unitState()) {
        written = std::to_string(qint64(ceilDiv(num * b.unitsPerMs(), den)));
    } else {
        const LimiterSpec& s = b.spec();
        const __int128 ticks = ceilDiv(num * s.rate, den);  // in 1/rate ms
        __int128 q = ticks / s.rate;
        __int128 r = ticks % s.rate;
        if (r < 0) {
            r += s.rate;
            q -= 1;
        }
        written = std::to_string(qint64(q)) + ' ' + std::to_string(qint64(r)) + ' ' +
                  std::to_string(s.rate) + '/' + std::to_string(s.periodMs) + '/' +
                  std::to_string(s.burst);
    }
    c.command(b.slot(), {"SET", target, written, "PX", std::to_string(ttlMs)});
    return true;
}

}  // namespace

const Algorithm& gcraAlgorithm() {
    static const GcraAlgorithm algorithm;
    return algorithm;
}

}  // namespace ratelab
