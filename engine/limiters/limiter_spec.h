#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QVector>
#include <memory>

#include "input_limits.h"

namespace ratelab {

enum class LimiterType {
    TokenBucket,
    FixedWindow,
    SlidingWindow,
    Gcra,            // GCRA as go-redis redis_rate and redis-cell decide
    SlidingCounter,  // the two-window estimate of Cloudflare and upstash
    LeakyBucket,     // nginx limit_req (and APISIX limit-req)
    Concurrency,     // in-flight requests, Stripe's concurrent-requests limiter
    Script           // the user's own Lua, run as their code calls it (script_spec.h)
};
enum class Scope { Global, PerClient };
enum class CalendarUnit { Milliseconds, Seconds, Minutes, Hours, Days, Months };
// What a failed decision (Redis unreachable, a timeout, an error or garbage reply) counts as:
// always an error (fired = accepted + rejected + errors), and with Open or Closed also as let
// through or refused by the policy, counted apart from accepted and rejected.
enum class FailurePolicy { Error, Open, Closed };
// Whose clock a decision uses: the "now" the engine passes (the client's, as Redisson and most
// libraries do), or Redis's own TIME read inside the script (immune to app-server clock skew).
enum class TimeSource { Client, Redis };
// Whose arithmetic decides ("flavor"; the sliding counter and GCRA only): ratelab's exact
// semantics, or a library's own script decision for decision (docs/algorithms.md, "Library
// flavors"): @upstash/ratelimit's sliding window, go-redis/redis_rate's GCRA.
enum class Flavor { Exact, Upstash, RedisRate };

// How several gateways use a limiter ("gateway"; any type, default shared): every decision in
// Redis (shared; with cacheRefusals a gateway refuses a client locally until the retry_after
// it was last given has passed), each gateway its own state under its own name "<name>@g<g>"
// (local: a node-local limiter), or (the fixed window) grants counted locally and added to
// Redis once every syncMs (batched).
enum class GatewayMode { Shared, Local, Batched };
struct GatewayUse {
    GatewayMode mode = GatewayMode::Shared;
    bool cacheRefusals = false;  // shared only
    qint64 syncMs = 0;           // batched only
    bool isDefault() const { return mode == GatewayMode::Shared && !cacheRefusals; }
    bool operator==(const GatewayUse& o) const {
        return mode == o.mode && cacheRefusals == o.cacheRefusals && syncMs == o.syncMs;
    }
};

struct ScriptSpec;  // script_spec.h

struct SlidingRule {
    qint64 limit = 0;
    qint64 windowMs = 0;
    bool operator==(const SlidingRule& o) const {
        return limit == o.limit && windowMs == o.windowMs;
    }
};

// One limiter as the user configured it (docs/scenarios.md, "Limiter specs"). Only the fields of
// its type are meaningful.
struct LimiterSpec {
    LimiterType type = LimiterType::TokenBucket;
    QString name;
    Scope scope = Scope::Global;
    // "on_error" (any type; optional, default "error", written only when not the default).
    FailurePolicy onError = FailurePolicy::Error;
    // "time" (any type; optional, default "client", written only when not the default).
    TimeSource time = TimeSource::Client;
    // "flavor" (the types that offer one, Algorithm::flavors; optional, default "exact", written
    // only when not the default).
    Flavor flavor = Flavor::Exact;
    // "gateway" (any type; optional, default {"mode": "shared"}, written only when not).
    GatewayUse gateway;

    // token_bucket: rate permits per intervalMs. fixed_window: rate permits per window.
    qint64 rate = 0;
    qint64 intervalMs = 0;  // token_bucket

    // fixed_window: windows of `interval` x `unit` in `timezone` (IANA id; empty = system zone).
    qint64 interval = 0;
    CalendarUnit unit = CalendarUnit::Seconds;
    QByteArray timezone;

    // sliding_window
    QVector<SlidingRule> rules;

    // gcra and leaky_bucket: `rate` requests per periodMs, up to `burst` at once (gcra: burst
    // >= 1 permits pass at once; leaky_bucket: burst >= 0 requests wait beyond the first).
    qint64 periodMs = 0;
    qint64 burst = 0;
    bool nodelay = false;  // leaky_bucket: accepted requests are not held (delay_ms 0)

    // sliding_counter: `limit` permits per epoch-aligned window of windowMs.
    // concurrency: at most `limit` slots held at once, each lease ending leaseMs after its grant.
    qint64 limit = 0;
    qint64 windowMs = 0;
    qint64 leaseMs = 0;

    // script: the user's Lua, its templates, reply mapping, reference and the rest
    // (script_spec.h); shared and never changed once parsed (a changed spec gets a new one).
    std::shared_ptr<const ScriptSpec> script;

    // Largest permits one request may ask for (the bucket's rate, the window's rate, the
    // smallest rule limit): above it a request is rejected with retry_after_ms = -1.
    qint64 capacity() const;

    bool operator==(const LimiterSpec& o) const;
    bool operator!=(const LimiterSpec& o) const { return !(*this == o); }
};

// Limits of accepted values: spec_limits in input_limits.h (validation refuses anything outside).

// Parsing and validation (limiter_spec_parser.cpp). Every error is an InputError whose place is
// the JSON path of the offending field ("$.rules[1].window_ms"), or "line L, column C" for
// malformed JSON. Unknown fields, wrong types, non-integers, zero or negative numbers, values
// above the limits, unknown types, scopes, units and zones are all refused.
// `baseDir`: where a file the spec names is read from (a script limiter's .lua: relative to the
// file holding the spec; empty: the current directory).
LimiterSpec parseLimiterSpec(const QJsonObject& object,
                             const QString& jsonPath = QStringLiteral("$"),
                             const QString& baseDir = QString());
LimiterSpec parseLimiterSpecJson(const QByteArray& json, const QString& baseDir = QString());
// Reads and parses a file; errors are prefixed with the file name.
LimiterSpec loadLimiterSpecFile(const QString& path);

// How a spec names the files it was read from: as the user wrote it (a scenario saved where
// it was read), by their absolute paths (the window's editors: read back from any folder, saved
// to any), or with their content inline (a self-contained copy: summary.json).
enum class SpecFiles { AsWritten, Resolved, Inline };
// The spec as JSON, in the same format parseLimiterSpec reads (round-trips).
QJsonObject limiterSpecToJson(const LimiterSpec& spec, SpecFiles files = SpecFiles::AsWritten);

QString limiterTypeName(LimiterType type);        // "token_bucket", ...
QString scopeName(Scope scope);                   // "global", "per_client"
QString calendarUnitName(CalendarUnit unit);      // "milliseconds", ...
QString failurePolicyName(FailurePolicy policy);  // "error", "open", "closed"
QString timeSourceName(TimeSource source);        // "client", "redis"
QString flavorName(Flavor flavor);                // "exact", "upstash", "redis_rate"
QString gatewayModeName(GatewayMode mode);        // "shared", "local", "batched"
// "gateway" at `where` (gateway_use.cpp): its JSON and back.
GatewayUse readGatewayUse(const QJsonValue& value, const QString& where, LimiterType type);
QJsonObject gatewayUseToJson(const GatewayUse& use);

}  // namespace ratelab
