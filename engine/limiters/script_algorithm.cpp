// The user's own limiter: a Lua script run exactly as their code calls it (script_limiter.h).
// What the engine cannot know about it — its capacity, its windows, its quotas — it takes from
// the built-in limiter the spec names as its "reference", if any.
#include <QJsonArray>
#include <QRegularExpression>

#include "limiters/algorithm.h"
#include "limiters/algorithm_list.h"
#include "limiters/limiter_state.h"
#include "limiters/reason_text.h"
#include "limiters/script_limiter.h"
#include "limiters/script_spec_io.h"
#include "redis/cluster_slot.h"
#include "redis/redis_reply.h"
#include "redis/redis_router.h"

namespace ratelab {
namespace {

const QString kReferencePrefix = QStringLiteral("reference.");

// The reference as the script limiter decides with it, if any.
std::optional<LimiterSpec> referenceOf(const LimiterSpec& spec) {
    return referenceSpecOf(spec);
}

// A correct sliding log, for a new script limiter in the editor.
constexpr const char* kDefaultSource =
    "-- KEYS[1]: the log; ARGV: now_ms, permits, request_id, limit, window_ms\n"
    "local now, permits = tonumber(ARGV[1]), tonumber(ARGV[2])\n"
    "local limit, window = tonumber(ARGV[4]), tonumber(ARGV[5])\n"
    "redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)\n"
    "local count = redis.call('ZCARD', KEYS[1])\n"
    "if count + permits > limit then return {0, limit - count} end\n"
    "for i = 1, permits do redis.call('ZADD', KEYS[1], now, ARGV[3] .. ':' .. i) end\n"
    "redis.call('PEXPIRE', KEYS[1], window)\n"
    "return {1, limit - count - permits}\n";

class ScriptAlgorithm final : public Algorithm {
public:
    ScriptAlgorithm()
        : Algorithm(LimiterType::Script, QStringLiteral("script"), {}, scriptFieldKeys()) {}

    void readFields(const QJsonObject& object, const QString& path,
                    LimiterSpec& spec) const override {
        readScriptFields(object, path, QString(), spec);
    }
    void readSpecFields(const QJsonObject& object, const QString& path, LimiterSpec& spec,
                        const QString& baseDir) const override {
        readScriptFields(object, path, baseDir, spec);
    }
    void writeFields(const LimiterSpec& spec, QJsonObject& object) const override {
        writeScriptFields(spec, object, SpecFiles::AsWritten);
    }
    void writeSpecFields(const LimiterSpec& spec, QJsonObject& object,
                         SpecFiles files) const override {
        writeScriptFields(spec, object, files);
    }
    bool sameFields(const LimiterSpec& a, const LimiterSpec& b) const override {
        return a.script == b.script || (a.script && b.script && *a.script == *b.script);
    }
    LimiterSpec defaults(const QString& name) const override {
        LimiterSpec spec;
        spec.type = type();
        spec.name = name;
        spec.scope = Scope::PerClient;
        const QJsonObject object{
            {QLatin1String("script"),
             QJsonObject{{QLatin1String("inline"), QString::fromLatin1(kDefaultSource)}}},
            {QLatin1String("keys"), QJsonArray{QStringLiteral("{{{name}}}:log:{client}")}},
            {QLatin1String("args"),
             QJsonArray{QStringLiteral("{now_ms}"), QStringLiteral("{permits}"),
                        QStringLiteral("{request_id}"), QStringLiteral("10"),
                        QStringLiteral("1000")}},
            {QLatin1String("reply"), QJsonObject{{QLatin1String("allowed"), QStringLiteral("1")},
                                                 {QLatin1String("index"), 0},
                                                 {QLatin1String("remaining"), 1}}},
            // The built-in log it implements: every decision compared.
            {QLatin1String("reference"),
             QJsonObject{{QLatin1String("type"), QStringLiteral("sliding_window")},
                         {QLatin1String("rules"),
                          QJsonArray{QJsonObject{{QLatin1String("limit"), 10},
                                                 {QLatin1String("window_ms"), 1000}}}}}}};
        readScriptFields(object, QStringLiteral("$"), QString(), spec);
        return spec;
    }

    // What the script claims to implement decides what the engine cannot know about it.
    qint64 capacity(const LimiterSpec& spec) const override {
        const std::optional<LimiterSpec> reference = referenceOf(spec);
        return reference ? reference->capacity() : 0;
    }
    std::vector<qint64> windowsMs(const LimiterSpec& spec) const override {
        if (const std::optional<LimiterSpec> reference = referenceOf(spec)) {
            return algorithmOf(*reference).windowsMs(*reference);
        }
        if (spec.script && spec.script->state.read == ScriptStateRead::Read::ZcountWindow) {
            return {spec.script->state.windowMs};
        }
        return {};
    }
    double limitPerBucket(const LimiterSpec& spec, qint64 bucketMs) const override {
        const std::optional<LimiterSpec> reference = referenceOf(spec);
        return reference ? algorithmOf(*reference).limitPerBucket(*reference, bucketMs) : 0.0;
    }
    std::optional<CalendarWindows> calendarWindows(const LimiterSpec& spec) const override {
        const std::optional<LimiterSpec> reference = referenceOf(spec);
        return reference ? algorithmOf(*reference).calendarWindows(*reference) : std::nullopt;
    }
    // The script's keys are the user's: a changed spec may keep reading them.
    bool keepsState(const LimiterSpec&, const LimiterSpec&) const override { return true; }

    // "args[i]" of every argument that is a plain integer, then the reference's fields as
    // "reference.<path>" (sweepable; the script's own decision does not depend on them).
    std::vector<NumericParam> numericParams(const LimiterSpec& spec) const override {
        std::vector<NumericParam> params;
        if (!spec.script) {
            return params;
        }
        const ScriptSpec& s = *spec.script;
        for (std::size_t i = 0; i < s.args.size(); ++i) {
            if (const std::optional<qint64> value = s.args[i].integer()) {
                NumericParam p;
                p.path = QStringLiteral("args[%1]").arg(i);
                p.value = *value;
                p.min = *value >= 0 ? 0 : -script_limits::kMaxArgValue;
                p.max = script_limits::kMaxArgValue;
                params.push_back(p);
            }
        }
        if (s.reference) {
            for (NumericParam p : algorithmOf(*s.reference).numericParams(*s.reference)) {
                p.path = kReferencePrefix + p.path;
                p.counterfactual = false;
                params.push_back(p);
            }
        }
        return params;
    }
    bool setNumericParam(LimiterSpec& spec, const QString& path, qint64 value) const override {
        if (!spec.script) {
            return false;
        }
        auto changed = std::make_shared<ScriptSpec>(*spec.script);
        static const QRegularExpression arg(QStringLiteral("^args\\[(\\d+)\\]$"));
        const QRegularExpressionMatch match = arg.match(path);
        if (match.hasMatch()) {
            const std::size_t i = match.captured(1).toULongLong();
            if (i >= changed->args.size() || !changed->args[i].integer()) {
                return false;
            }
            changed->args[i] = ScriptTemplate::parse(QString::number(value), path);
        } else if (path.startsWith(kReferencePrefix) && changed->reference) {
            if (!algorithmOf(*changed->reference)
                     .setNumericParam(*changed->reference, path.mid(kReferencePrefix.size()),
                                      value)) {
                return false;
            }
        } else {
            return false;
        }
        spec.script = std::move(changed);
        return true;
    }

    std::unique_ptr<Limiter> make(const LimiterSpec& spec,
                                  const LimiterOptions& options) const override {
        return std::make_unique<ScriptLimiter>(spec, options);
    }
    void readChartState(RedisConnection& c, const Limiter& limiter,
                        LimiterState* state) const override {
        readScriptLevels(c, static_cast<const ScriptLimiter&>(limiter), capacity(limiter.spec()),
                         state);
    }
    ChartKind chartKind() const override { return ChartKind::Levels; }

    // "your script answered [1, 9] → granted, 9 left"; without the reply kept (a run's
    // decision): "your script granted it, 9 left".
    QString reasonText(const LimiterSpec&, const Decision& d) const override {
        QString outcome;
        if (d.allowed) {
            outcome = d.remaining >= 0 ? QStringLiteral("granted, %1 left").arg(d.remaining)
                                       : QStringLiteral("granted");
        } else {
            outcome = d.retryAfterMs >= 0
                          ? QStringLiteral("refused, retry in %1 ms").arg(d.retryAfterMs)
                          : QStringLiteral("refused (no wait given)");
            if (d.remaining >= 0) {
                outcome += QStringLiteral(", %1 left").arg(d.remaining);
            }
        }
        if (d.reason.rawReply.empty()) {
            return QStringLiteral("your script %1").arg(outcome);
        }
        return QStringLiteral("your script answered %1 → %2")
            .arg(QString::fromStdString(d.reason.rawReply), outcome);
    }
    // The reference's quota, if any: what the script claims to implement.
    std::vector<HeaderQuota> headerQuotas(const LimiterSpec& spec,
                                          const Decision& d) const override {
        const std::optional<LimiterSpec> reference = referenceOf(spec);
        if (!reference || d.remaining < 0) {
            return {};
        }
        const std::vector<qint64> windows = algorithmOf(*reference).windowsMs(*reference);
        const qint64 window = windows.empty() ? 0 : windows.back();
        return {{QStringLiteral("default"), reference->capacity(), window, d.remaining,
                 d.allowed ? window : (d.retryAfterMs < 0 ? window : d.retryAfterMs), true}};
    }
    qint64 countedSinceMs(const LimiterSpec& spec, const Decision& d) const override {
        const std::vector<qint64> windows = windowsMs(spec);
        return windows.empty() ? d.atMs : d.atMs - windows.back() + 1;
    }
    // The call's keys, each copied to the same place of `to`'s call (DUMP and RESTORE), each
    // on its own node.
    bool copyState(RedisRouter& c, const Limiter& from, const Limiter& to, const Request& request,
                   qint64 ttlMs) const override {
        const ScriptCall source = from.prepare(request);
        const ScriptCall target = to.prepare(request);
        const std::string ttl = std::to_string(ttlMs);
        for (std::size_t i = 0; i < source.keys.size() && i < target.keys.size(); ++i) {
            const int fromSlot = keyHashSlot(source.keys[i]);
            const int toSlot = keyHashSlot(target.keys[i]);
            c.command(toSlot, {"DEL", target.keys[i]});
            const RedisReply dump = c.command(fromSlot, {"DUMP", source.keys[i]});
            if (dump->type == REDIS_REPLY_STRING) {
                throwIfError(c.command(toSlot, {"RESTORE", target.keys[i], ttl,
                                                std::string(dump->str, dump->len), "REPLACE"})
                                 .get(),
                             "RESTORE");
            }
        }
        return true;
    }
};

}  // namespace

const Algorithm& scriptAlgorithm() {
    static const ScriptAlgorithm algorithm;
    return algorithm;
}

}  // namespace ratelab
