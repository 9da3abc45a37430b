// The token bucket (Redisson RRateLimiter): `rate` permits per `interval_ms`.
#include "limiters/algorithm.h"
#include "limiters/algorithm_list.h"
#include "limiters/limiter_state.h"
#include "limiters/permit_record.h"
#include "limiters/reason_text.h"
#include "limiters/state_keys.h"
#include "limiters/token_bucket_limiter.h"
#include "redis/redis_router.h"

namespace ratelab {
namespace {

class TokenBucketAlgorithm final : public Algorithm {
public:
    TokenBucketAlgorithm()
        : Algorithm(LimiterType::TokenBucket, QStringLiteral("token_bucket"),
                    {{QLatin1String("rate"), &LimiterSpec::rate, 1, spec_limits::kMaxRate},
                     {QLatin1String("interval_ms"), &LimiterSpec::intervalMs, 1,
                      spec_limits::kMaxIntervalMs, false}}) {}

    LimiterSpec defaults(const QString& name) const override {
        LimiterSpec spec;
        spec.type = type();
        spec.name = name;
        spec.rate = 10;
        spec.intervalMs = 1000;
        return spec;
    }
    qint64 capacity(const LimiterSpec& spec) const override { return spec.rate; }
    std::vector<qint64> windowsMs(const LimiterSpec& spec) const override {
        return {spec.intervalMs};
    }
    double limitPerBucket(const LimiterSpec& spec, qint64 bucketMs) const override {
        return permitsPerBucket(spec.rate, spec.intervalMs, bucketMs);
    }
    QString reasonText(const LimiterSpec& spec, const Decision& d) const override {
        const DecisionReason& r = d.reason;
        QString text = QStringLiteral(
                           "%1 per %2 ms: %3 of %1 permits held in %4, %5 available, "
                           "asked %6 → %7")
                           .arg(spec.rate)
                           .arg(spec.intervalMs)
                           .arg(r.counted)
                           .arg(reasonInterval(r.fromMs, r.toMs, true))
                           .arg(spec.rate - r.counted)
                           .arg(r.permits)
                           .arg(reasonOutcome(d));
        if (r.releaseAtMs >= 0) {
            text += QStringLiteral(" (enough permits back at %1)").arg(reasonTime(r.releaseAtMs));
        }
        return text;
    }
    std::vector<HeaderQuota> headerQuotas(const LimiterSpec& spec,
                                          const Decision& d) const override {
        // A grant made now is back, and the bucket whole, one interval from now.
        return {{QStringLiteral("default"), spec.rate, spec.intervalMs, d.remaining,
                 d.allowed || d.retryAfterMs < 0 ? spec.intervalMs : d.retryAfterMs, true}};
    }
    // The grants (and the clock); the config hash and the value are left out: the script
    // creates the one and rebuilds the other from the grants, at `to`'s rate.
    bool copyState(RedisRouter& c, const Limiter& from, const Limiter& to, const Request& request,
                   qint64 ttlMs) const override {
        copyKeys(c, from, to, request, ttlMs, {0, 1, 4});
        return true;
    }
    ChartKind chartKind() const override { return ChartKind::Tokens; }
    std::unique_ptr<Limiter> make(const LimiterSpec& spec,
                                  const LimiterOptions& options) const override {
        return std::make_unique<TokenBucketLimiter>(spec, options);
    }

    // The permits available per scope key: rate minus the permits of the grants younger than
    // interval_ms in each permit zset ({name}:permits[:client]); a bucket without grants is full.
    void readChartState(RedisConnection& c, const Limiter& limiter,
                        LimiterState* state) const override {
        const LimiterSpec& spec = limiter.spec();
        const std::vector<std::string> names = scanKeys(c, keyPattern(limiter, "permits*"));
        const std::string since = "(" + std::to_string(state->nowMs - spec.intervalMs);
        for (const std::string& k : names) {
            c.append({"ZRANGEBYSCORE", k, since, "+inf"});
        }
        const std::string tag = limiter.hashTag() + ":";
        for (const std::string& k : names) {
            // A key of another type answers WRONGTYPE, one that expired since the SCAN nil.
            const RedisReply r = c.readReply();
            if (r->type != REDIS_REPLY_ARRAY) {
                continue;
            }
            qint64 held = 0;
            for (size_t m = 0; m < r->elements; ++m) {
                const redisReply* e = r->element[m];
                if (e->type != REDIS_REPLY_STRING) {
                    continue;
                }
                if (const std::optional<PermitRecord> record = decodePermitRecord(e->str, e->len)) {
                    held += record->permits;
                }
            }
            const std::string rest = suffixOf(k, tag);  // "permits[:client]"
            const std::string client = rest.size() > 8 ? rest.substr(8) : std::string();
            state->tokensAvailable.push_back({fromStd(client), spec.rate - held});
        }
        if (state->tokensAvailable.isEmpty()) {
            state->tokensAvailable.push_back({QString(), spec.rate});  // no grants held: full
        }
    }
};

}  // namespace

const Algorithm& tokenBucketAlgorithm() {
    static const TokenBucketAlgorithm algorithm;
    return algorithm;
}

}  // namespace ratelab
