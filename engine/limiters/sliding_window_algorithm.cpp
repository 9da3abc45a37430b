// The multi-rule sliding log: a request passes only if, for every rule (limit, window_ms), the
// grants in (now - window_ms, now] plus its permits stay within limit.
#include <QJsonArray>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>

#include "input_error.h"
#include "json_input.h"
#include "limiters/algorithm.h"
#include "limiters/algorithm_list.h"
#include "limiters/limiter_state.h"
#include "limiters/reason_text.h"
#include "limiters/sliding_window_limiter.h"
#include "limiters/state_keys.h"
#include "redis/redis_router.h"

namespace ratelab {
namespace {

using namespace json_input;

const QLatin1String kRules("rules"), kLimit("limit"), kWindowMs("window_ms");

// A rule's fields, as integer fields of a LimiterSpec-less record.
qint64 readRuleInt(const QJsonObject& rule, const QString& path, QLatin1String key, qint64 max) {
    const QString where = memberPath(path, key);
    const QJsonValue value = required(rule, path, key);
    if (!value.isDouble()) {
        throw InputError(where, QStringLiteral("must be an integer, got ") + describe(value));
    }
    const double number = value.toDouble();
    if (!std::isfinite(number) || number != std::trunc(number) || number < 1 ||
        number > double(max)) {
        throw InputError(where, QStringLiteral("must be an integer from 1 to %1, got %2")
                                    .arg(max)
                                    .arg(describe(value)));
    }
    return static_cast<qint64>(number);
}

QVector<SlidingRule> readRules(const QJsonObject& object, const QString& path) {
    const QString where = memberPath(path, kRules);
    const QJsonValue value = required(object, path, kRules);
    if (!value.isArray()) {
        throw InputError(where, QStringLiteral("must be an array of {\"limit\", \"window_ms\"} "
                                               "objects, got ") +
                                    describe(value));
    }
    const QJsonArray array = value.toArray();
    if (array.isEmpty()) {
        throw InputError(where, QStringLiteral("must hold at least one rule"));
    }
    if (array.size() > spec_limits::kMaxRules) {
        throw InputError(where, QStringLiteral("has %1 rules; at most %2 are allowed")
                                    .arg(array.size())
                                    .arg(spec_limits::kMaxRules));
    }
    QVector<SlidingRule> rules;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString rulePath = where + QStringLiteral("[%1]").arg(i);
        if (!array.at(i).isObject()) {
            throw InputError(
                rulePath, QStringLiteral("expected a JSON object, got ") + describe(array.at(i)));
        }
        const QJsonObject rule = array.at(i).toObject();
        refuseUnknownFields(rule, rulePath, {kLimit, kWindowMs});
        SlidingRule parsed;
        parsed.limit = readRuleInt(rule, rulePath, kLimit, spec_limits::kMaxSlidingLimit);
        parsed.windowMs = readRuleInt(rule, rulePath, kWindowMs, spec_limits::kMaxIntervalMs);
        rules.append(parsed);
    }
    return rules;
}

class SlidingWindowAlgorithm final : public Algorithm {
public:
    SlidingWindowAlgorithm()
        : Algorithm(LimiterType::SlidingWindow, QStringLiteral("sliding_window"), {}, {kRules}) {}

    void readFields(const QJsonObject& object, const QString& path,
                    LimiterSpec& spec) const override {
        spec.rules = readRules(object, path);
    }
    void writeFields(const LimiterSpec& spec, QJsonObject& object) const override {
        QJsonArray rules;
        for (const SlidingRule& rule : spec.rules) {
            rules.append(QJsonObject{{kLimit, rule.limit}, {kWindowMs, rule.windowMs}});
        }
        object.insert(kRules, rules);
    }
    bool sameFields(const LimiterSpec& a, const LimiterSpec& b) const override {
        return a.rules == b.rules;
    }
    LimiterSpec defaults(const QString& name) const override {
        LimiterSpec spec;
        spec.type = type();
        spec.name = name;
        spec.rules = {{5, 1000}, {20, 60000}};
        return spec;
    }

    // The log holds grants, not a config: new rules count the same grants.
    bool keepsState(const LimiterSpec&, const LimiterSpec&) const override { return true; }
    // The smallest rule limit.
    qint64 capacity(const LimiterSpec& spec) const override {
        qint64 smallest = 0;
        for (int i = 0; i < spec.rules.size(); ++i) {
            smallest = i == 0 ? spec.rules[i].limit : std::min(smallest, spec.rules[i].limit);
        }
        return smallest;
    }
    std::vector<qint64> windowsMs(const LimiterSpec& spec) const override {
        std::vector<qint64> windows;
        for (const SlidingRule& rule : spec.rules) {
            windows.push_back(rule.windowMs);
        }
        return windows;
    }
    // The tightest rule.
    double limitPerBucket(const LimiterSpec& spec, qint64 bucketMs) const override {
        double limit = 0;
        for (int i = 0; i < spec.rules.size(); ++i) {
            const double rule =
                permitsPerBucket(spec.rules[i].limit, spec.rules[i].windowMs, bucketMs);
            limit = i == 0 ? rule : std::min(limit, rule);
        }
        return limit;
    }
    // rules[i].limit and rules[i].window_ms.
    std::vector<NumericParam> numericParams(const LimiterSpec& spec) const override {
        std::vector<NumericParam> params;
        for (int i = 0; i < spec.rules.size(); ++i) {
            params.push_back(
                {rulePath(i, kLimit), spec.rules[i].limit, 1, spec_limits::kMaxSlidingLimit});
            params.push_back({rulePath(i, kWindowMs), spec.rules[i].windowMs, 1,
                              spec_limits::kMaxIntervalMs, false});
        }
        return params;
    }
    bool setNumericParam(LimiterSpec& spec, const QString& path, qint64 value) const override {
        static const QRegularExpression form(QStringLiteral("^rules\\[(\\d+)\\]\\.(\\w+)$"));
        const QRegularExpressionMatch match = form.match(path);
        const int i = match.hasMatch() ? match.captured(1).toInt() : -1;
        if (i < 0 || i >= spec.rules.size()) {
            return false;
        }
        if (match.captured(2) == kLimit) {
            spec.rules[i].limit = value;
        } else if (match.captured(2) == kWindowMs) {
            spec.rules[i].windowMs = value;
        } else {
            return false;
        }
        return true;
    }
    QString reasonText(const LimiterSpec& spec, const Decision& d) const override {
        const DecisionReason& r = d.reason;
        const SlidingRule rule = spec.rules.value(r.rule);
        QString which;
        if (spec.rules.size() > 1) {
            which = QStringLiteral("rule %1 of %2 (%3): ")
                        .arg(r.rule + 1)
                        .arg(spec.rules.size())
                        .arg(d.allowed ? QStringLiteral("the least room left")
                                       : QStringLiteral("the longest wait"));
        }
        return which + QStringLiteral("%1 per %2 ms held %3 of %1 in %4, asked %5 → %6")
                           .arg(rule.limit)
                           .arg(rule.windowMs)
                           .arg(r.counted)
                           .arg(reasonInterval(r.fromMs, r.toMs, true))
                           .arg(r.permits)
                           .arg(reasonOutcome(d));
    }
    // One quota per rule; RateLimit names the deciding rule's.
    std::vector<HeaderQuota> headerQuotas(const LimiterSpec& spec,
                                          const Decision& d) const override {
        std::vector<HeaderQuota> quotas;
        for (int i = 0; i < spec.rules.size(); ++i) {
            const SlidingRule& rule = spec.rules[i];
            const bool deciding = i == d.reason.rule;
            const qint64 left = deciding
                                    ? std::max<qint64>(0, rule.limit - d.reason.counted -
                                                              (d.allowed ? d.reason.permits : 0))
                                    : 0;
            // A grant made now leaves the window, and the rule is whole, one window from now.
            quotas.push_back({QStringLiteral("rule-%1").arg(i + 1), rule.limit, rule.windowMs, left,
                              d.allowed || d.retryAfterMs < 0 ? rule.windowMs : d.retryAfterMs,
                              deciding});
        }
        return quotas;
    }
    ChartKind chartKind() const override { return ChartKind::RuleSpans; }
    std::unique_ptr<Limiter> make(const LimiterSpec& spec,
                                  const LimiterOptions& options) const override {
        return std::make_unique<SlidingWindowLimiter>(spec, options);
    }

    // Per rule the permits in (now - window_ms, now] of every log {name}:log[:client], summed,
    // and the busiest client's.
    void readChartState(RedisConnection& c, const Limiter& limiter,
                        LimiterState* state) const override {
        const LimiterSpec& spec = limiter.spec();
        for (const SlidingRule& rule : spec.rules) {
            state->spans.push_back({rule.limit, rule.windowMs, 0, 0, QString()});
        }
        const std::vector<std::string> names = scanKeys(c, keyPattern(limiter, "log*"));
        for (const std::string& k : names) {
            for (const SlidingRule& rule : spec.rules) {
                c.append({"ZCOUNT", k, "(" + std::to_string(state->nowMs - rule.windowMs), "+inf"});
            }
        }
        const std::string tag = limiter.hashTag() + ":";
        for (const std::string& k : names) {
            const std::string rest = suffixOf(k, tag);  // "log[:client]"
            const std::string client = rest.size() > 4 ? rest.substr(4) : std::string();
            for (LimiterState::RuleSpan& span : state->spans) {
                const RedisReply r = c.readReply();
                if (r->type != REDIS_REPLY_INTEGER) {
                    continue;
                }
                span.total += r->integer;
                if (r->integer > span.busiest) {
                    span.busiest = r->integer;
                    span.busiestClient = fromStd(client);
                }
            }
        }
    }

private:
    static QString rulePath(int i, QLatin1String field) {
        return QStringLiteral("rules[%1].%2").arg(i).arg(field);
    }
};

}  // namespace

const Algorithm& slidingWindowAlgorithm() {
    static const SlidingWindowAlgorithm algorithm;
    return algorithm;
}

}  // namespace ratelab
