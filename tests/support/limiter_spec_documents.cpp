#include "support/limiter_spec_documents.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace ratelab {
char* toString(const LimiterSpec& spec) {
    return qstrdup(
        QJsonDocument(limiterSpecToJson(spec)).toJson(QJsonDocument::Compact).constData());
}
}  // namespace ratelab

namespace ratelab::test {

QStringList strings(std::initializer_list<const char*> texts) {
    QStringList out;
    for (const char* text : texts) {
        out << QString::fromUtf8(text);
    }
    return out;
}

LimiterSpec tokenBucket(const QString& name, Scope scope, qint64 rate, qint64 intervalMs) {
    LimiterSpec spec;
    spec.type = LimiterType::TokenBucket;
    spec.name = name;
    spec.scope = scope;
    spec.rate = rate;
    spec.intervalMs = intervalMs;
    return spec;
}

LimiterSpec fixedWindow(const QString& name, Scope scope, qint64 rate, qint64 interval,
                        CalendarUnit unit, const QByteArray& timezone) {
    LimiterSpec spec;
    spec.type = LimiterType::FixedWindow;
    spec.name = name;
    spec.scope = scope;
    spec.rate = rate;
    spec.interval = interval;
    spec.unit = unit;
    spec.timezone = timezone;
    return spec;
}

LimiterSpec slidingWindow(const QString& name, Scope scope, const QVector<SlidingRule>& rules) {
    LimiterSpec spec;
    spec.type = LimiterType::SlidingWindow;
    spec.name = name;
    spec.scope = scope;
    spec.rules = rules;
    return spec;
}

LimiterSpec gcra(const QString& name, Scope scope, qint64 rate, qint64 periodMs, qint64 burst) {
    LimiterSpec spec;
    spec.type = LimiterType::Gcra;
    spec.name = name;
    spec.scope = scope;
    spec.rate = rate;
    spec.periodMs = periodMs;
    spec.burst = burst;
    return spec;
}

LimiterSpec slidingCounter(const QString& name, Scope scope, qint64 limit, qint64 windowMs) {
    LimiterSpec spec;
    spec.type = LimiterType::SlidingCounter;
    spec.name = name;
    spec.scope = scope;
    spec.limit = limit;
    spec.windowMs = windowMs;
    return spec;
}

LimiterSpec leakyBucket(const QString& name, Scope scope, qint64 rate, qint64 periodMs,
                        qint64 burst, bool nodelay) {
    LimiterSpec spec = gcra(name, scope, rate, periodMs, burst);
    spec.type = LimiterType::LeakyBucket;
    spec.nodelay = nodelay;
    return spec;
}

LimiterSpec withPolicy(LimiterSpec spec, FailurePolicy policy) {
    spec.onError = policy;
    return spec;
}

QByteArray tb(const char* extra) {
    return QByteArray(R"({"type": "token_bucket", "name": "api", )") + extra + '}';
}

QByteArray fw(const char* extra) {
    return QByteArray(R"({"type": "fixed_window", "name": "quota", )") + extra + '}';
}

QByteArray sw(const char* extra) {
    return QByteArray(R"({"type": "sliding_window", "name": "login", )") + extra + '}';
}

QByteArray nestedArrays(int depth) {
    return QByteArray(depth, '[') + QByteArray(depth, ']');
}

QByteArray manyRules(int count) {
    QJsonArray rules;
    for (int i = 0; i < count; ++i) {
        rules.append(QJsonObject{{QStringLiteral("limit"), i + 1},
                                 {QStringLiteral("window_ms"), 1000 * (i + 1)}});
    }
    QJsonObject object{{QStringLiteral("type"), QStringLiteral("sliding_window")},
                       {QStringLiteral("name"), QStringLiteral("many")},
                       {QStringLiteral("rules"), rules}};
    return QJsonDocument(object).toJson();
}

QVector<SlidingRule> manyRuleValues(int count) {
    QVector<SlidingRule> rules;
    for (int i = 0; i < count; ++i) {
        rules.append({i + 1, 1000LL * (i + 1)});
    }
    return rules;
}

QByteArray withName(const QString& name) {
    QJsonObject object{{QStringLiteral("type"), QStringLiteral("token_bucket")},
                       {QStringLiteral("name"), name},
                       {QStringLiteral("rate"), 1},
                       {QStringLiteral("interval_ms"), 1}};
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

}  // namespace ratelab::test
