#pragma once

#include <QJsonObject>
#include <QLatin1String>
#include <QString>
#include <memory>
#include <optional>
#include <vector>

#include "limiters/calendar_window.h"
#include "limiters/limiter_spec.h"

namespace ratelab {

class Limiter;
struct Decision;
struct Request;
class RedisConnection;
class RedisRouter;
struct LimiterOptions;
struct LimiterState;

// A numeric parameter of one limiter spec, addressed by its field path as a sweep's "vary" key
// and an explanation's counterfactual name it ("rate", "burst", "rules[1].limit"): its value
// and the values the parser accepts.
struct NumericParam {
    QString path;
    qint64 value = 0;
    qint64 min = 1;
    qint64 max = 0;
    // A larger value admits more (a rate, a limit, a burst); false: a smaller one does (a
    // window, an interval, a period).
    bool moreAdmits = true;
    // Whether changing it alone may change this limiter's own decision (an explanation's
    // counterfactuals try it): false for what a script limiter's reference decides with.
    bool counterfactual = true;
};

// One quota of the IETF httpapi rate-limit header fields for a decision: RateLimit-Policy's
// "name";q=quota;w=window and RateLimit's "name";r=remaining;t=reset (ms here; the headers
// say seconds).
struct HeaderQuota {
    QString name;
    qint64 quota = 0;
    qint64 windowMs = 0;  // 0: no window (a burst: how many at once)
    qint64 remaining = 0;
    // Refused: the wait; granted: when the quota is whole again if nothing else came.
    qint64 resetMs = 0;
    bool deciding = true;  // RateLimit names it (the deciding rule's quota)
};

// The quotas of a limiter of a sustained rate and a burst (GCRA, the leaky bucket), whose
// tolerance is often a fraction of a second, which the headers cannot say (whole seconds): the
// rate as "default", `rate` per `periodMs` over the fewest whole seconds that hold a whole
// number of requests (3 per 1000 ms: q=3;w=1; 1 per 1500 ms: q=2;w=3), and the burst as
// "burst", how many at once (no window), which RateLimit names with the decision's remaining
// and reset.
std::vector<HeaderQuota> rateAndBurstQuotas(qint64 rate, qint64 periodMs, qint64 burst,
                                            qint64 remaining, qint64 resetMs);

// What a limiter's chart state holds (LimiterState): the token bucket's available permits, the
// fixed window's window counts, the sliding log's rule spans, or the other algorithms' levels.
enum class ChartKind { Tokens, Windows, RuleSpans, Levels };

// One limiter algorithm: everything the engine knows about a limiter type outside its Limiter
// class and its script. One descriptor per type, listed once (algorithms.cpp); outside the
// descriptors no code switches on LimiterType, so a new algorithm is its script, its class, its
// descriptor and one line in that list (and its registration on the window's side).
//
// Integer fields are described by a table (IntField) that reads, writes, compares and exposes
// them as numeric parameters alike; a type's other fields (the fixed window's unit and zone,
// the sliding log's rules, the leaky bucket's nodelay) are its descriptor's own code.
class Algorithm {
public:
    virtual ~Algorithm() = default;
    Algorithm(const Algorithm&) = delete;
    Algorithm& operator=(const Algorithm&) = delete;

    LimiterType type() const { return type_; }
    // The spec's "type": "token_bucket", "fixed_window", ...
    const QString& name() const { return name_; }

    // --- The spec's JSON (limiter_spec_parser.cpp reads the common fields) ---
    // The fields of this type besides the common ones (type, name, scope, on_error, time);
    // "flavor" last when the type offers flavors.
    std::vector<QLatin1String> fieldKeys() const;
    // The library flavors this type offers besides Flavor::Exact (none for most).
    virtual std::vector<Flavor> flavors() const { return {}; }
    // Reads this type's fields into `spec`, in the order their errors are reported (the
    // integer fields, then the flavor; the common fields are read already).
    virtual void readFields(const QJsonObject& object, const QString& path,
                            LimiterSpec& spec) const;
    virtual void writeFields(const LimiterSpec& spec, QJsonObject& object) const;
    // The same for a type whose spec names files (the script type's .lua): they are read
    // relative to `baseDir` (empty: the current directory) and written as `files` says. The
    // other types have no files and use readFields/writeFields.
    virtual void readSpecFields(const QJsonObject& object, const QString& path, LimiterSpec& spec,
                                const QString& baseDir) const {
        (void)baseDir;
        readFields(object, path, spec);
    }
    virtual void writeSpecFields(const LimiterSpec& spec, QJsonObject& object,
                                 SpecFiles files) const {
        (void)files;
        writeFields(spec, object);
    }
    // Whether two specs of this type have the same fields of this type.
    virtual bool sameFields(const LimiterSpec& a, const LimiterSpec& b) const;
    // What a new limiter of this type starts with (the editor's "add").
    virtual LimiterSpec defaults(const QString& name) const = 0;

    // --- Semantics ---
    // Largest permits one request may ask for; above it: rejected, retry -1.
    virtual qint64 capacity(const LimiterSpec& spec) const = 0;
    // The window lengths the config names (ms), for the admitted burst (stats/admitted_burst.h).
    virtual std::vector<qint64> windowsMs(const LimiterSpec& spec) const = 0;
    // The steady-state permits one scope key is admitted per bucketMs (limits/limit_geometry.h).
    virtual double limitPerBucket(const LimiterSpec& spec, qint64 bucketMs) const = 0;
    // Whether its limit is on requests in flight rather than a rate: a grant holds a slot until
    // it is released or its lease runs out. The timelines draw requests in flight against it.
    virtual bool limitsInFlight() const { return false; }
    // Whether a gateway may keep this type's counts itself and add them to Redis every sync_ms
    // (gateway mode "batched"; Limiter::countedWindow names the counter a request counts in).
    virtual bool batchable() const { return false; }
    // The calendar windows a fixed window counts in; none for the other types.
    virtual std::optional<CalendarWindows> calendarWindows(const LimiterSpec& spec) const;
    // Whether a limiter changed from `before` to `after` (both of this type) decides on the
    // state it had (the sliding log's grants apply to new rules; a library flavor's keys do not
    // name the config); the others start afresh (their keys or the config they hold name it).
    virtual bool keepsState(const LimiterSpec& before, const LimiterSpec& after) const {
        (void)before;
        (void)after;
        return false;
    }
    // Every numeric parameter of `spec`, in the spec's order.
    virtual std::vector<NumericParam> numericParams(const LimiterSpec& spec) const;
    // Sets the parameter at `path` (as numericParams names it); false for an unknown path.
    // The value is not checked: the caller validates the result (parseLimiterSpec).
    virtual bool setNumericParam(LimiterSpec& spec, const QString& path, qint64 value) const;

    // --- Redis ---
    virtual std::unique_ptr<Limiter> make(const LimiterSpec& spec,
                                          const LimiterOptions& options) const = 0;
    // What the timelines draw at state->nowMs (limiter_state.h, readLimiterChartState):
    // read-only commands on the limiter's keys.
    virtual void readChartState(RedisConnection& connection, const Limiter& limiter,
                                LimiterState* state) const = 0;
    // Which part of LimiterState readChartState fills.
    virtual ChartKind chartKind() const = 0;

    // --- Explanations ---
    // Why `decision` went as it did, in one sentence with its numbers (Decision::reason):
    // "rule 2 of 2: 40 per 10000 ms held 40 of 40 in (08:00:03.100, 08:00:13.100] → refused,
    // retry in 312 ms".
    virtual QString reasonText(const LimiterSpec& spec, const Decision& decision) const = 0;
    // The decision's quotas for the rate-limit headers: every rule's in RateLimit-Policy, the
    // deciding ones in RateLimit.
    virtual std::vector<HeaderQuota> headerQuotas(const LimiterSpec& spec,
                                                  const Decision& decision) const = 0;
    // The first instant (epoch ms) whose grants still count against the decision: the
    // interval of its reason (DecisionReason::fromMs, inclusive for a calendar window);
    // the counter's previous window; GCRA's and the leaky bucket's last (burst + 1) periods.
    virtual qint64 countedSinceMs(const LimiterSpec& spec, const Decision& decision) const;
    // Copies the state one request's decision reads (its scope key's) from limiter `from` to
    // limiter `to`, of this type and possibly another config, as `to` would hold it: the
    // "same state" an explanation's counterfactual decides on. False when that state has no
    // meaning under `to`'s config (a fixed window or counter of another window length).
    // Read and write commands on both limiters' keys; `ttlMs` is the copies' TTL.
    virtual bool copyState(RedisRouter& router, const Limiter& from, const Limiter& to,
                           const Request& request, qint64 ttlMs) const;

protected:
    // An integer field: its JSON key, its member, and the accepted values (min 0 or 1).
    struct IntField {
        QLatin1String key;
        qint64 LimiterSpec::*member;
        qint64 min;
        qint64 max;
        bool moreAdmits = true;  // NumericParam::moreAdmits
    };
    // copyState's common case: the call's keys (and exact keys) of `from` copied to `to`'s in
    // the same places (DUMP and RESTORE), but for the positions in `skip`; absent keys stay
    // absent.
    static void copyKeys(RedisRouter& router, const Limiter& from, const Limiter& to,
                         const Request& request, qint64 ttlMs, std::vector<int> skip = {});
    Algorithm(LimiterType type, QString name, std::vector<IntField> intFields,
              std::vector<QLatin1String> otherKeys = {});
    const std::vector<IntField>& intFields() const { return intFields_; }
    // Reads one integer field (limiter_spec_parser's rules: JSON has only doubles, so 1.0 is an
    // integer but 1.5 is not; errors name its path and the accepted range).
    static qint64 readInt(const QJsonObject& object, const QString& path, const IntField& field);
    // `permits` per windowMs scaled to one bucket; 0 for a degenerate window.
    static double permitsPerBucket(qint64 permits, qint64 windowMs, qint64 bucketMs) {
        return windowMs > 0 ? double(permits) * double(bucketMs) / double(windowMs) : 0.0;
    }

private:
    LimiterType type_;
    QString name_;
    std::vector<IntField> intFields_;
    std::vector<QLatin1String> otherKeys_;
};

// The descriptor of a type, of a spec's type, or of a type's JSON name (nullptr when none).
const Algorithm& algorithmOf(LimiterType type);
inline const Algorithm& algorithmOf(const LimiterSpec& spec) {
    return algorithmOf(spec.type);
}
const Algorithm* algorithmNamed(const QString& name);
// Every algorithm, in the order the window and the documentation list them.
const std::vector<const Algorithm*>& algorithms();

}  // namespace ratelab
