// Limiter spec parsing and validation (README, "Limiter specs").

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <limits>

#include "input_error.h"
#include "limiters/limiter_spec.h"
#include "support/test_files.h"

using namespace ratelab;
using ratelab::test::writeTestFile;

Q_DECLARE_METATYPE(ratelab::LimiterSpec)

namespace ratelab {
// Lets QCOMPARE print a spec when it differs.
char* toString(const LimiterSpec& spec) {
    return qstrdup(
        QJsonDocument(limiterSpecToJson(spec)).toJson(QJsonDocument::Compact).constData());
}
}  // namespace ratelab

namespace {

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
                        CalendarUnit unit, const QByteArray& timezone = QByteArray()) {
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

// `{"type": "token_bucket", "name": "api", <extra>}` and friends, for short table rows.
QByteArray tb(const char* extra = R"("rate": 10, "interval_ms": 1000)") {
    return QByteArray(R"({"type": "token_bucket", "name": "api", )") + extra + '}';
}
QByteArray fw(const char* extra = R"("rate": 5, "interval": 2, "unit": "minutes")") {
    return QByteArray(R"({"type": "fixed_window", "name": "quota", )") + extra + '}';
}
QByteArray sw(const char* extra = R"("rules": [{"limit": 5, "window_ms": 1000}])") {
    return QByteArray(R"({"type": "sliding_window", "name": "login", )") + extra + '}';
}

LimiterSpec withPolicy(LimiterSpec spec, FailurePolicy policy) {
    spec.onError = policy;
    return spec;
}

// `depth` nested arrays, at the top level or as the value of a spec's field.
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

}  // namespace

class TestLimiterSpec : public QObject {
    Q_OBJECT

private slots:
    void parseValid_data();
    void parseValid();
    void parseInvalid_data();
    void parseInvalid();
    void parseWithPath();
    void nonFiniteNumbers();
    void roundTrip_data();
    void roundTrip();
    void toJsonFormat();
    void capacity();
    void equality();
    void names();
    void loadFile();
    void loadFileErrors();
    void loadBadFiles_data();
    void loadBadFiles();
};

void TestLimiterSpec::parseValid_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<LimiterSpec>("expected");

    // The three examples of the README's "Limiter specs", verbatim.
    QTest::newRow("design token bucket")
        << QByteArray(R"({"type": "token_bucket",   "name": "api", "scope": "global", )"
                      R"("rate": 10, "interval_ms": 1000})")
        << tokenBucket(QStringLiteral("api"), Scope::Global, 10, 1000);
    QTest::newRow("design fixed window")
        << QByteArray(R"({"type": "fixed_window",   "name": "quota", "scope": "per_client", )"
                      R"("rate": 5, "interval": 2,
 "unit": "minutes", "timezone": "Asia/Shanghai"})")
        << fixedWindow(QStringLiteral("quota"), Scope::PerClient, 5, 2, CalendarUnit::Minutes,
                       "Asia/Shanghai");
    QTest::newRow("design sliding window")
        << QByteArray(R"({"type": "sliding_window", "name": "login", "scope": "per_client",
 "rules": [{"limit": 5, "window_ms": 1000}, {"limit": 20, "window_ms": 60000}]})")
        << slidingWindow(QStringLiteral("login"), Scope::PerClient, {{5, 1000}, {20, 60000}});

    // on_error: optional on every type, default "error".
    QTest::newRow("on_error defaults to error")
        << tb()
        << withPolicy(tokenBucket(QStringLiteral("api"), Scope::Global, 10, 1000),
                      FailurePolicy::Error);
    QTest::newRow("on_error error") << tb(R"("on_error": "error", "rate": 10, "interval_ms": 1000)")
                                    << tokenBucket(QStringLiteral("api"), Scope::Global, 10, 1000);
    QTest::newRow("on_error open on a token bucket")
        << tb(R"("on_error": "open", "rate": 10, "interval_ms": 1000)")
        << withPolicy(tokenBucket(QStringLiteral("api"), Scope::Global, 10, 1000),
                      FailurePolicy::Open);
    QTest::newRow("on_error closed on a fixed window")
        << fw(R"("rate": 5, "interval": 2, "unit": "minutes", "on_error": "closed")")
        << withPolicy(
               fixedWindow(QStringLiteral("quota"), Scope::Global, 5, 2, CalendarUnit::Minutes),
               FailurePolicy::Closed);
    QTest::newRow("on_error open on a sliding window")
        << sw(R"("scope": "per_client", "on_error": "open", )"
              R"("rules": [{"limit": 5, "window_ms": 1000}])")
        << withPolicy(slidingWindow(QStringLiteral("login"), Scope::PerClient, {{5, 1000}}),
                      FailurePolicy::Open);
    QTest::newRow("scope defaults to global")
        << tb() << tokenBucket(QStringLiteral("api"), Scope::Global, 10, 1000);
    QTest::newRow("token bucket per client")
        << tb(R"("scope": "per_client", "rate": 1, "interval_ms": 1)")
        << tokenBucket(QStringLiteral("api"), Scope::PerClient, 1, 1);
    QTest::newRow("largest values")
        << tb(R"("rate": 1000000000, "interval_ms": 31622400000)")
        << tokenBucket(QStringLiteral("api"), Scope::Global, spec_limits::kMaxRate,
                       spec_limits::kMaxIntervalMs);
    QTest::newRow("integral doubles")
        << tb(R"("rate": 1e9, "interval_ms": 1000.0)")
        << tokenBucket(QStringLiteral("api"), Scope::Global, 1000000000, 1000);
    QTest::newRow("field order and whitespace")
        << QByteArray(
               "\n\t{ \"interval_ms\" : 5 ,\"rate\":3,\r\n\"name\":\"x\",\"type\":"
               "\"token_bucket\" }\n")
        << tokenBucket(QStringLiteral("x"), Scope::Global, 3, 5);
    QTest::newRow("utf-8 byte order mark")
        << QByteArray("\xEF\xBB\xBF") + tb()
        << tokenBucket(QStringLiteral("api"), Scope::Global, 10, 1000);
    QTest::newRow("name with spaces and punctuation")
        << withName(QStringLiteral("my api: v2 / login [eu] (beta)"))
        << tokenBucket(QStringLiteral("my api: v2 / login [eu] (beta)"), Scope::Global, 1, 1);
    // 200 characters that take 400 UTF-16 code units: the limit counts characters.
    const QString emojis = QString::fromUtf8("\xF0\x9F\x9A\x80").repeated(200);
    QTest::newRow("name of 200 characters outside the BMP")
        << withName(emojis) << tokenBucket(emojis, Scope::Global, 1, 1);
    QTest::newRow("name of 200 ASCII characters")
        << withName(QString(200, u'n')) << tokenBucket(QString(200, u'n'), Scope::Global, 1, 1);

    QTest::newRow("fixed window without timezone")
        << fw() << fixedWindow(QStringLiteral("quota"), Scope::Global, 5, 2, CalendarUnit::Minutes);
    QTest::newRow("fixed window with empty timezone")
        << fw(R"("rate": 5, "interval": 2, "unit": "minutes", "timezone": "")")
        << fixedWindow(QStringLiteral("quota"), Scope::Global, 5, 2, CalendarUnit::Minutes);
    QTest::newRow("fixed window in UTC")
        << fw(R"("rate": 5, "interval": 1, "unit": "days", "timezone": "UTC")")
        << fixedWindow(QStringLiteral("quota"), Scope::Global, 5, 1, CalendarUnit::Days, "UTC");
    QTest::newRow("fixed window in Europe/Berlin")
        << fw(R"("rate": 7, "interval": 15, "unit": "minutes", "timezone": "Europe/Berlin")")
        << fixedWindow(QStringLiteral("quota"), Scope::Global, 7, 15, CalendarUnit::Minutes,
                       "Europe/Berlin");
    // Every unit at its largest interval.
    QTest::newRow("1000 milliseconds")
        << fw(R"("rate": 5, "interval": 1000, "unit": "milliseconds")")
        << fixedWindow(QStringLiteral("quota"), Scope::Global, 5, 1000, CalendarUnit::Milliseconds);
    QTest::newRow("60 seconds") << fw(R"("rate": 5, "interval": 60, "unit": "seconds")")
                                << fixedWindow(QStringLiteral("quota"), Scope::Global, 5, 60,
                                               CalendarUnit::Seconds);
    QTest::newRow("60 minutes") << fw(R"("rate": 5, "interval": 60, "unit": "minutes")")
                                << fixedWindow(QStringLiteral("quota"), Scope::Global, 5, 60,
                                               CalendarUnit::Minutes);
    QTest::newRow("24 hours") << fw(R"("rate": 5, "interval": 24, "unit": "hours")")
                              << fixedWindow(QStringLiteral("quota"), Scope::Global, 5, 24,
                                             CalendarUnit::Hours);
    QTest::newRow("31 days") << fw(R"("rate": 5, "interval": 31, "unit": "days")")
                             << fixedWindow(QStringLiteral("quota"), Scope::Global, 5, 31,
                                            CalendarUnit::Days);
    QTest::newRow("12 months") << fw(R"("rate": 5, "interval": 12, "unit": "months")")
                               << fixedWindow(QStringLiteral("quota"), Scope::Global, 5, 12,
                                              CalendarUnit::Months);

    QTest::newRow("one rule") << sw()
                              << slidingWindow(QStringLiteral("login"), Scope::Global, {{5, 1000}});
    QTest::newRow("32 rules") << manyRules(spec_limits::kMaxRules)
                              << slidingWindow(QStringLiteral("many"), Scope::Global,
                                               manyRuleValues(spec_limits::kMaxRules));
    QTest::newRow("rule at the limits")
        << sw(R"("rules": [{"window_ms": 31622400000, "limit": 1000000}])")
        << slidingWindow(QStringLiteral("login"), Scope::Global,
                         {{spec_limits::kMaxSlidingLimit, spec_limits::kMaxIntervalMs}});
}

void TestLimiterSpec::parseValid() {
    QFETCH(QByteArray, json);
    QFETCH(LimiterSpec, expected);

    LimiterSpec spec;
    try {
        spec = parseLimiterSpecJson(json);
    } catch (const InputError& error) {
        QFAIL(qPrintable(QStringLiteral("refused: ") + error.message()));
    }
    // Every field, not only those operator== looks at.
    QCOMPARE(limiterTypeName(spec.type), limiterTypeName(expected.type));
    QCOMPARE(spec.name, expected.name);
    QCOMPARE(scopeName(spec.scope), scopeName(expected.scope));
    QCOMPARE(spec.rate, expected.rate);
    QCOMPARE(spec.intervalMs, expected.intervalMs);
    QCOMPARE(spec.interval, expected.interval);
    QCOMPARE(calendarUnitName(spec.unit), calendarUnitName(expected.unit));
    QCOMPARE(spec.timezone, expected.timezone);
    QCOMPARE(spec.rules, expected.rules);
    QCOMPARE(spec, expected);
}

void TestLimiterSpec::parseInvalid_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("message");

    // Not an object, not JSON.
    QTest::newRow("array") << QByteArray("[]") << "$"
                           << "expected a JSON object";
    QTest::newRow("number") << QByteArray("5") << "$"
                            << "expected a JSON object";
    QTest::newRow("string") << QByteArray(R"("token_bucket")") << "$"
                            << "expected a JSON object";
    QTest::newRow("null") << QByteArray("null") << "$"
                          << "expected a JSON object";
    QTest::newRow("empty") << QByteArray("") << "$"
                           << "expected a JSON object";
    QTest::newRow("blank") << QByteArray(" \n ") << "$"
                           << "expected a JSON object";
    QTest::newRow("trailing comma")
        << QByteArray(R"({"type": "token_bucket",})") << "line 1, column 25"
        << "malformed JSON";
    QTest::newRow("bad literal on line 3")
        << QByteArray("{\n  \"type\": \"token_bucket\",\n  \"rate\": tru\n}") << "line 3, column 13"
        << "malformed JSON";
    QTest::newRow("truncated") << QByteArray(R"({"type": "token_bucket")") << "line 1, column 23"
                               << "malformed JSON";
    QTest::newRow("garbage after the object") << tb() + " x"
                                              << "line 1, column 74"
                                              << "garbage";
    QTest::newRow("unquoted key") << QByteArray("{type: 1}") << "line 1, column 2"
                                  << "malformed JSON";
    QTest::newRow("columns count characters")
        << QByteArray("{\"name\": \"\xC3\xA9\xC3\xA9\" x}") << "line 1, column 15"
        << "malformed JSON";
    QTest::newRow("number too large for a double")
        << tb(R"("rate": 1e400, "interval_ms": 1)") << "line 1, column 53"
        << "malformed JSON";

    // type
    QTest::newRow("type missing") << QByteArray(R"({"name": "api", "rate": 1})") << "$.type"
                                  << "missing";
    QTest::newRow("type not a string") << QByteArray(R"({"type": 1, "name": "api"})") << "$.type"
                                       << "must be a string, got 1";
    QTest::newRow("type null") << QByteArray(R"({"type": null})") << "$.type"
                               << "must be a string, got null";
    QTest::newRow("type unknown")
        << QByteArray(R"({"type": "leaky", "name": "api"})") << "$.type"
        << R"(unknown type "leaky"; expected token_bucket, fixed_window, sliding_window, gcra, )"
           R"(sliding_counter or leaky_bucket)";
    QTest::newRow("type wrong case") << QByteArray(R"({"type": "Token_Bucket"})") << "$.type"
                                     << "unknown type";
    QTest::newRow("type checked before unknown fields")
        << QByteArray(R"({"colour": "red", "name": "api"})") << "$.type"
        << "missing";

    // Unknown fields, judged by the type's own set.
    QTest::newRow("unknown field")
        << tb(R"("rate": 10, "interval_ms": 1000, "colour": "red")") << "$.colour"
        << "unknown field";
    QTest::newRow("unknown field before missing ones")
        << QByteArray(R"({"type": "token_bucket", "colour": 1})") << "$.colour"
        << "unknown field";
    QTest::newRow("timezone on a token bucket")
        << tb(R"("rate": 10, "interval_ms": 1000, "timezone": "UTC")") << "$.timezone"
        << "unknown field";
    QTest::newRow("rules on a token bucket")
        << tb(R"("rate": 10, "interval_ms": 1000, "rules": [])") << "$.rules"
        << "unknown field";
    QTest::newRow("interval_ms on a fixed window")
        << fw(R"("rate": 5, "interval": 2, "unit": "minutes", "interval_ms": 1000)")
        << "$.interval_ms"
        << "unknown field";
    QTest::newRow("interval on a token bucket")
        << tb(R"("rate": 10, "interval_ms": 1000, "interval": 1)") << "$.interval"
        << "unknown field";
    QTest::newRow("rate on a sliding window")
        << sw(R"("rules": [{"limit": 5, "window_ms": 1000}], "rate": 5)") << "$.rate"
        << "unknown field";
    QTest::newRow("unit on a sliding window")
        << sw(R"("rules": [{"limit": 5, "window_ms": 1000}], "unit": "seconds")") << "$.unit"
        << "unknown field";
    QTest::newRow("key that is not an identifier")
        << tb(R"("rate": 10, "interval_ms": 1000, "my key": 1)") << R"($["my key"])"
        << "unknown field";
    QTest::newRow("misspelt field") << tb(R"("rate": 10, "interval": 1000)") << "$.interval"
                                    << "unknown field";

    // name
    QTest::newRow("name missing") << QByteArray(
                                         R"({"type": "token_bucket", "rate": 1, "interval_ms": 1})")
                                  << "$.name"
                                  << "missing";
    QTest::newRow("name not a string")
        << QByteArray(R"({"type": "token_bucket", "name": 7, "rate": 1, "interval_ms": 1})")
        << "$.name"
        << "must be a string, got 7";
    QTest::newRow("name null")
        << QByteArray(R"({"type": "token_bucket", "name": null, "rate": 1, "interval_ms": 1})")
        << "$.name"
        << "must be a string, got null";
    QTest::newRow("name empty") << withName(QString()) << "$.name"
                                << "must not be empty";
    QTest::newRow("name of 201 characters") << withName(QString(201, u'n')) << "$.name"
                                            << "must be at most 200 characters long, got 201";
    QTest::newRow("name of 201 characters outside the BMP")
        << withName(QString::fromUtf8("\xF0\x9F\x9A\x80").repeated(201)) << "$.name"
        << "must be at most 200 characters long, got 201";
    QTest::newRow("name with a hash tag") << withName(QStringLiteral("{api}")) << "$.name"
                                          << "Redis Cluster hash tag";
    QTest::newRow("name with a closing brace") << withName(QStringLiteral("a}b")) << "$.name"
                                               << "must not contain '{' or '}'";
    QTest::newRow("name with a newline") << withName(QStringLiteral("a\nb")) << "$.name"
                                         << "must not contain control characters, got U+000A";
    QTest::newRow("name with a NUL") << withName(QStringLiteral("a") + QChar(0) + u'b') << "$.name"
                                     << "control characters, got U+0000";
    QTest::newRow("name with DEL") << withName(QStringLiteral("a\x7f")) << "$.name"
                                   << "control characters, got U+007F";
    QTest::newRow("name with a C1 control") << withName(QString(QChar(0x85))) << "$.name"
                                            << "control characters, got U+0085";

    // scope
    QTest::newRow("scope unknown")
        << tb(R"("scope": "both", "rate": 1, "interval_ms": 1)") << "$.scope"
        << R"(unknown scope "both"; expected global or per_client)";
    QTest::newRow("scope not a string")
        << tb(R"("scope": 1, "rate": 1, "interval_ms": 1)") << "$.scope"
        << "must be a string, got 1";
    QTest::newRow("scope null") << tb(R"("scope": null, "rate": 1, "interval_ms": 1)") << "$.scope"
                                << "must be a string, got null";

    // Integers (token bucket rate and interval_ms).
    QTest::newRow("rate missing") << tb(R"("interval_ms": 1000)") << "$.rate"
                                  << "missing";
    QTest::newRow("rate negative") << tb(R"("rate": -1, "interval_ms": 1000)") << "$.rate"
                                   << "must be an integer from 1 to 1000000000, got -1";
    QTest::newRow("rate zero") << tb(R"("rate": 0, "interval_ms": 1000)") << "$.rate"
                               << "must be an integer from 1 to 1000000000, got 0";
    QTest::newRow("rate negative zero") << tb(R"("rate": -0.0, "interval_ms": 1000)") << "$.rate"
                                        << "must be an integer from 1 to 1000000000, got 0";
    QTest::newRow("rate fraction") << tb(R"("rate": 1.5, "interval_ms": 1000)") << "$.rate"
                                   << "must be an integer from 1 to 1000000000, got 1.5";
    QTest::newRow("rate tiny fraction") << tb(R"("rate": 1e-9, "interval_ms": 1000)") << "$.rate"
                                        << "must be an integer from 1 to 1000000000, got 1e-09";
    QTest::newRow("rate above the limit")
        << tb(R"("rate": 1000000001, "interval_ms": 1000)") << "$.rate"
        << "must be an integer from 1 to 1000000000, got 1000000001";
    QTest::newRow("rate 1e308") << tb(R"("rate": 1e308, "interval_ms": 1000)") << "$.rate"
                                << "must be an integer from 1 to 1000000000, got 1e+308";
    QTest::newRow("rate as a string") << tb(R"("rate": "10", "interval_ms": 1000)") << "$.rate"
                                      << R"(must be an integer, got "10" (a string))";
    QTest::newRow("rate NaN as a string") << tb(R"("rate": "NaN", "interval_ms": 1000)") << "$.rate"
                                          << R"(must be an integer, got "NaN" (a string))";
    QTest::newRow("rate boolean") << tb(R"("rate": true, "interval_ms": 1000)") << "$.rate"
                                  << "must be an integer, got true (a boolean)";
    QTest::newRow("rate null") << tb(R"("rate": null, "interval_ms": 1000)") << "$.rate"
                               << "must be an integer, got null";
    QTest::newRow("rate array") << tb(R"("rate": [10], "interval_ms": 1000)") << "$.rate"
                                << "must be an integer, got an array";
    QTest::newRow("rate object") << tb(R"("rate": {}, "interval_ms": 1000)") << "$.rate"
                                 << "must be an integer, got an object";
    QTest::newRow("interval_ms missing") << tb(R"("rate": 10)") << "$.interval_ms"
                                         << "missing";
    QTest::newRow("interval_ms zero") << tb(R"("rate": 10, "interval_ms": 0)") << "$.interval_ms"
                                      << "must be an integer from 1 to 31622400000, got 0";
    QTest::newRow("interval_ms above a year")
        << tb(R"("rate": 10, "interval_ms": 31622400001)") << "$.interval_ms"
        << "must be an integer from 1 to 31622400000, got 31622400001";
    QTest::newRow("interval_ms string")
        << tb(R"("rate": 10, "interval_ms": "1s")") << "$.interval_ms"
        << R"(must be an integer, got "1s" (a string))";

    // fixed_window
    QTest::newRow("fw rate missing") << fw(R"("interval": 2, "unit": "minutes")") << "$.rate"
                                     << "missing";
    QTest::newRow("fw rate zero") << fw(R"("rate": 0, "interval": 2, "unit": "minutes")")
                                  << "$.rate"
                                  << "must be an integer from 1 to 1000000000, got 0";
    QTest::newRow("unit missing") << fw(R"("rate": 5, "interval": 2)") << "$.unit"
                                  << "missing";
    QTest::newRow("unit unknown")
        << fw(R"("rate": 5, "interval": 2, "unit": "weeks")") << "$.unit"
        << R"(unknown unit "weeks"; expected milliseconds, seconds, minutes, hours, )"
           R"(days or months)";
    QTest::newRow("unit singular")
        << fw(R"("rate": 5, "interval": 2, "unit": "minute")") << "$.unit"
        << R"(unknown unit "minute")";
    QTest::newRow("unit not a string") << fw(R"("rate": 5, "interval": 2, "unit": 60)") << "$.unit"
                                       << "must be a string, got 60";
    QTest::newRow("interval missing") << fw(R"("rate": 5, "unit": "minutes")") << "$.interval"
                                      << "missing";
    QTest::newRow("interval zero")
        << fw(R"("rate": 5, "interval": 0, "unit": "minutes")") << "$.interval"
        << "must be an integer from 1 to 60, got 0";
    QTest::newRow("interval fraction")
        << fw(R"("rate": 5, "interval": 1.5, "unit": "hours")") << "$.interval"
        << "must be an integer from 1 to 24, got 1.5";
    QTest::newRow("interval string")
        << fw(R"("rate": 5, "interval": "2", "unit": "hours")") << "$.interval"
        << R"(must be an integer, got "2" (a string))";
    QTest::newRow("interval 90 minutes")
        << fw(R"("rate": 5, "interval": 90, "unit": "minutes")") << "$.interval"
        << "interval 90 exceeds the 60 minutes in an hour; use a larger unit";
    QTest::newRow("interval 1001 milliseconds")
        << fw(R"("rate": 5, "interval": 1001, "unit": "milliseconds")") << "$.interval"
        << "interval 1001 exceeds the 1000 milliseconds in a second; use a larger unit";
    QTest::newRow("interval 61 seconds")
        << fw(R"("rate": 5, "interval": 61, "unit": "seconds")") << "$.interval"
        << "interval 61 exceeds the 60 seconds in a minute; use a larger unit";
    QTest::newRow("interval 25 hours")
        << fw(R"("rate": 5, "interval": 25, "unit": "hours")") << "$.interval"
        << "interval 25 exceeds the 24 hours in a day; use a larger unit";
    QTest::newRow("interval 32 days")
        << fw(R"("rate": 5, "interval": 32, "unit": "days")") << "$.interval"
        << "interval 32 exceeds the 31 days in a month; use a larger unit";
    QTest::newRow("interval 13 months")
        << fw(R"("rate": 5, "interval": 13, "unit": "months")") << "$.interval"
        << "interval 13 exceeds the 12 months in a year";
    QTest::newRow("timezone unknown")
        << fw(R"("rate": 5, "interval": 2, "unit": "minutes", "timezone": "Mars/Olympus")")
        << "$.timezone"
        << R"(unknown time zone "Mars/Olympus")";
    QTest::newRow("timezone wrong case")
        << fw(R"("rate": 5, "interval": 2, "unit": "minutes", "timezone": "asia/shanghai")")
        << "$.timezone"
        << "unknown time zone";
    QTest::newRow("timezone not a string")
        << fw(R"("rate": 5, "interval": 2, "unit": "minutes", "timezone": 8)") << "$.timezone"
        << "must be a string, got 8";
    QTest::newRow("timezone null")
        << fw(R"("rate": 5, "interval": 2, "unit": "minutes", "timezone": null)") << "$.timezone"
        << "must be a string, got null";

    // sliding_window
    QTest::newRow("rules missing") << sw(R"("scope": "global")") << "$.rules"
                                   << "missing";
    QTest::newRow("rules not an array")
        << sw(R"("rules": {"limit": 5, "window_ms": 1000})") << "$.rules"
        << "must be an array";
    QTest::newRow("rules null") << sw(R"("rules": null)") << "$.rules"
                                << "must be an array";
    QTest::newRow("rules empty") << sw(R"("rules": [])") << "$.rules"
                                 << "must hold at least one rule";
    QTest::newRow("rule limit above the log's size")
        << sw(R"("rules": [{"limit": 1000001, "window_ms": 1000}])") << "$.rules[0].limit"
        << "must be an integer from 1 to 1000000, got 1000001";
    QTest::newRow("33 rules") << manyRules(spec_limits::kMaxRules + 1) << "$.rules"
                              << "has 33 rules; at most 32 are allowed";
    QTest::newRow("rule not an object")
        << sw(R"("rules": [{"limit": 5, "window_ms": 1000}, 5])") << "$.rules[1]"
        << "expected a JSON object, got 5";
    QTest::newRow("rule unknown field")
        << sw(R"("rules": [{"limit": 5, "window_ms": 1000, "burst": 2}])") << "$.rules[0].burst"
        << "unknown field";
    QTest::newRow("rule limit missing")
        << sw(R"("rules": [{"window_ms": 1000}])") << "$.rules[0].limit"
        << "missing";
    QTest::newRow("rule window_ms missing")
        << sw(R"("rules": [{"limit": 5, "window_ms": 1000}, {"limit": 20}])")
        << "$.rules[1].window_ms"
        << "missing";
    QTest::newRow("rule limit zero")
        << sw(R"("rules": [{"limit": 5, "window_ms": 1000}, {"limit": 0, "window_ms": 1}])")
        << "$.rules[1].limit"
        << "must be an integer from 1 to 1000000, got 0";
    QTest::newRow("rule limit string")
        << sw(R"("rules": [{"limit": "5", "window_ms": 1000}])") << "$.rules[0].limit"
        << R"(must be an integer, got "5" (a string))";
    QTest::newRow("rule window_ms negative")
        << sw(R"("rules": [{"limit": 5, "window_ms": 1000}, {"limit": 20, "window_ms": -60000}])")
        << "$.rules[1].window_ms"
        << "must be an integer from 1 to 31622400000, got -60000";
    QTest::newRow("rule window_ms fraction")
        << sw(R"("rules": [{"limit": 5, "window_ms": 0.5}])") << "$.rules[0].window_ms"
        << "got 0.5";
    QTest::newRow("rule window_ms above a year")
        << sw(R"("rules": [{"limit": 5, "window_ms": 31622400001}])") << "$.rules[0].window_ms"
        << "must be an integer from 1 to 31622400000, got 31622400001";

    // on_error
    QTest::newRow("on_error unknown")
        << tb(R"("on_error": "ignore", "rate": 1, "interval_ms": 1)") << "$.on_error"
        << R"(unknown failure policy "ignore"; expected error, open or closed)";
    QTest::newRow("on_error wrong case")
        << tb(R"("on_error": "Open", "rate": 1, "interval_ms": 1)") << "$.on_error"
        << R"(unknown failure policy "Open"; expected error, open or closed)";
    QTest::newRow("on_error empty")
        << fw(R"("rate": 5, "interval": 2, "unit": "minutes", "on_error": "")") << "$.on_error"
        << R"(unknown failure policy ""; expected error, open or closed)";
    QTest::newRow("on_error boolean")
        << sw(R"("on_error": true, "rules": [{"limit": 5, "window_ms": 1000}])") << "$.on_error"
        << "must be a string, got true (a boolean)";
    QTest::newRow("on_error number")
        << tb(R"("on_error": 1, "rate": 1, "interval_ms": 1)") << "$.on_error"
        << "must be a string, got 1";
    QTest::newRow("on_error null")
        << tb(R"("on_error": null, "rate": 1, "interval_ms": 1)") << "$.on_error"
        << "must be a string, got null";
    QTest::newRow("on_error array")
        << tb(R"("on_error": ["open"], "rate": 1, "interval_ms": 1)") << "$.on_error"
        << "must be a string, got an array";
    QTest::newRow("on_error misspelt")
        << tb(R"("onError": "open", "rate": 1, "interval_ms": 1)") << "$.onError"
        << "unknown field";

    // Numbers at the type limits (2^63, int64 max and min, 2^53 + 1, -0 written as an integer).
    QTest::newRow("rate 2^63")
        << tb(R"("rate": 9223372036854775808, "interval_ms": 1000)") << "$.rate"
        << "must be an integer from 1 to 1000000000, got 9223372036854776000";
    QTest::newRow("rate int64 max")
        << tb(R"("rate": 9223372036854775807, "interval_ms": 1000)") << "$.rate"
        << "must be an integer from 1 to 1000000000, got 9223372036854776000";
    QTest::newRow("interval_ms int64 min")
        << tb(R"("rate": 1, "interval_ms": -9223372036854775808)") << "$.interval_ms"
        << "must be an integer from 1 to 31622400000, got -9223372036854776000";
    QTest::newRow("rule limit 2^53 + 1")
        << sw(R"("rules": [{"limit": 9007199254740993, "window_ms": 1000}])") << "$.rules[0].limit"
        << "must be an integer from 1 to 1000000, got 9007199254740992";
    QTest::newRow("rate -0") << tb(R"("rate": -0, "interval_ms": 1000)") << "$.rate"
                             << "must be an integer from 1 to 1000000000, got 0";
    QTest::newRow("rate -1e308") << tb(R"("rate": -1e308, "interval_ms": 1000)") << "$.rate"
                                 << "must be an integer from 1 to 1000000000, got -1e+308";
    QTest::newRow("rate smallest denormal")
        << tb(R"("rate": 5e-324, "interval_ms": 1000)") << "$.rate"
        << "must be an integer from 1 to 1000000000, got 5e-324";

    // Deep nesting: Qt's parser stops at its nesting limit; no crash, the place is named.
    QTest::newRow("100000 nested arrays") << nestedArrays(100000) << "line 1, column 1025"
                                          << "JSON nested more than 1024 levels deep";
    QTest::newRow("100000 nested arrays in a field")
        << tb(R"("rate": )" + nestedArrays(100000) + R"(, "interval_ms": 1)")
        << "line 1, column 1072"
        << "JSON nested more than 1024 levels deep";
    QTest::newRow("nesting within Qt's limit")
        << tb(R"("rate": )" + nestedArrays(500) + R"(, "interval_ms": 1)") << "$.rate"
        << "must be an integer, got an array";
    // Binary garbage.
    QTest::newRow("binary garbage") << QByteArray("\x00\xff\xfe\x01PK\x03\x04\x89PNG", 12) << "$"
                                    << "expected a JSON object";
    QTest::newRow("NUL inside the object")
        << QByteArray("{\"type\": \"token_bucket\"\x00}", 26) << "line 1, column 24"
        << "malformed JSON";
}

void TestLimiterSpec::parseInvalid() {
    QFETCH(QByteArray, json);
    QFETCH(QString, where);
    QFETCH(QString, message);

    try {
        const LimiterSpec spec = parseLimiterSpecJson(json);
        QFAIL(qPrintable(QStringLiteral("accepted: ") +
                         QString::fromUtf8(QJsonDocument(limiterSpecToJson(spec)).toJson())));
    } catch (const InputError& error) {
        QCOMPARE(error.where(), where);
        if (!error.problem().contains(message)) {
            QFAIL(qPrintable(
                QStringLiteral("\"%1\" does not contain \"%2\"").arg(error.problem(), message)));
        }
        QCOMPARE(error.message(), where + QStringLiteral(": ") + error.problem());
    }
}

void TestLimiterSpec::parseWithPath() {
    const QString base = QStringLiteral("$.limiters[2]");
    QJsonObject object{
        {QStringLiteral("type"), QStringLiteral("sliding_window")},
        {QStringLiteral("name"), QStringLiteral("login")},
        {QStringLiteral("rules"),
         QJsonArray{QJsonObject{{QStringLiteral("limit"), 0}, {QStringLiteral("window_ms"), 10}}}}};
    try {
        parseLimiterSpec(object, base);
        QFAIL("accepted a zero limit");
    } catch (const InputError& error) {
        QCOMPARE(error.where(), QStringLiteral("$.limiters[2].rules[0].limit"));
    }

    object.remove(QStringLiteral("name"));
    try {
        parseLimiterSpec(object, base);
        QFAIL("accepted a spec without a name");
    } catch (const InputError& error) {
        QCOMPARE(error.where(), QStringLiteral("$.limiters[2].name"));
    }

    // Inside a scenario the policy is named by its limiter's path too.
    object = QJsonObject{{QStringLiteral("type"), QStringLiteral("token_bucket")},
                         {QStringLiteral("name"), QStringLiteral("api")},
                         {QStringLiteral("on_error"), QStringLiteral("sometimes")},
                         {QStringLiteral("rate"), 1},
                         {QStringLiteral("interval_ms"), 1}};
    try {
        parseLimiterSpec(object, base);
        QFAIL("accepted an unknown failure policy");
    } catch (const InputError& error) {
        QCOMPARE(error.where(), QStringLiteral("$.limiters[2].on_error"));
        QCOMPARE(error.problem(),
                 QStringLiteral(R"(unknown failure policy "sometimes"; expected error, open or )"
                                R"(closed)"));
    }

    // The default path is "$".
    try {
        parseLimiterSpec(QJsonObject());
        QFAIL("accepted an empty object");
    } catch (const InputError& error) {
        QCOMPARE(error.where(), QStringLiteral("$.type"));
        QCOMPARE(error.problem(), QStringLiteral("missing"));
    }
}

void TestLimiterSpec::nonFiniteNumbers() {
    // JSON text cannot hold them, but a QJsonObject built in code can.
    const double values[] = {std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity()};
    for (const double value : values) {
        const QJsonObject object{{QStringLiteral("type"), QStringLiteral("token_bucket")},
                                 {QStringLiteral("name"), QStringLiteral("api")},
                                 {QStringLiteral("rate"), value},
                                 {QStringLiteral("interval_ms"), 1000}};
        try {
            parseLimiterSpec(object);
            QFAIL("accepted a non-finite rate");
        } catch (const InputError& error) {
            QCOMPARE(error.where(), QStringLiteral("$.rate"));
            QVERIFY2(error.problem().startsWith(
                         QStringLiteral("must be an integer from 1 to 1000000000, got ")),
                     qPrintable(error.problem()));
        }
    }
}

void TestLimiterSpec::roundTrip_data() {
    QTest::addColumn<LimiterSpec>("spec");
    QTest::newRow("token bucket") << tokenBucket(QStringLiteral("api"), Scope::Global, 10, 1000);
    QTest::newRow("token bucket per client at the limits")
        << tokenBucket(QStringLiteral("a b/c"), Scope::PerClient, spec_limits::kMaxRate,
                       spec_limits::kMaxIntervalMs);
    QTest::newRow("fixed window with zone") << fixedWindow(
        QStringLiteral("quota"), Scope::PerClient, 5, 2, CalendarUnit::Minutes, "Asia/Shanghai");
    QTest::newRow("fixed window in the system zone")
        << fixedWindow(QStringLiteral("quota"), Scope::Global, 100, 1, CalendarUnit::Months);
    QTest::newRow("fixed window in milliseconds") << fixedWindow(
        QStringLiteral("ms"), Scope::Global, 3, 250, CalendarUnit::Milliseconds, "UTC");
    QTest::newRow("fixed window in seconds")
        << fixedWindow(QStringLiteral("s"), Scope::Global, 3, 30, CalendarUnit::Seconds);
    QTest::newRow("fixed window in hours")
        << fixedWindow(QStringLiteral("h"), Scope::Global, 3, 6, CalendarUnit::Hours);
    QTest::newRow("fixed window in days") << fixedWindow(QStringLiteral("d"), Scope::Global, 3, 7,
                                                         CalendarUnit::Days, "Europe/Berlin");
    QTest::newRow("sliding window")
        << slidingWindow(QStringLiteral("login"), Scope::PerClient, {{5, 1000}, {20, 60000}});
    QTest::newRow("32 rules") << slidingWindow(QStringLiteral("many"), Scope::Global,
                                               manyRuleValues(spec_limits::kMaxRules));
    QTest::newRow("unicode name") << tokenBucket(
        QString::fromUtf8("d\xC3\xA9j\xC3\xA0 vu \xF0\x9F\x9A\x80"), Scope::Global, 1, 1);
    QTest::newRow("token bucket failing open") << withPolicy(
        tokenBucket(QStringLiteral("api"), Scope::Global, 10, 1000), FailurePolicy::Open);
    QTest::newRow("fixed window failing closed") << withPolicy(
        fixedWindow(QStringLiteral("quota"), Scope::PerClient, 5, 2, CalendarUnit::Minutes, "UTC"),
        FailurePolicy::Closed);
    QTest::newRow("sliding window failing open") << withPolicy(
        slidingWindow(QStringLiteral("login"), Scope::PerClient, {{5, 1000}}), FailurePolicy::Open);
}

void TestLimiterSpec::roundTrip() {
    QFETCH(LimiterSpec, spec);
    const QJsonObject json = limiterSpecToJson(spec);
    QCOMPARE(parseLimiterSpec(json), spec);
    // Through text as well, as a file would hold it.
    QCOMPARE(parseLimiterSpecJson(QJsonDocument(json).toJson()), spec);
    QCOMPARE(limiterSpecToJson(parseLimiterSpec(json)), json);
}

void TestLimiterSpec::toJsonFormat() {
    const QJsonObject bucket =
        limiterSpecToJson(tokenBucket(QStringLiteral("api"), Scope::Global, 10, 1000));
    QCOMPARE(bucket, (QJsonObject{{QStringLiteral("type"), QStringLiteral("token_bucket")},
                                  {QStringLiteral("name"), QStringLiteral("api")},
                                  {QStringLiteral("scope"), QStringLiteral("global")},
                                  {QStringLiteral("rate"), 10},
                                  {QStringLiteral("interval_ms"), 1000}}));

    // The timezone is written only when set.
    LimiterSpec window =
        fixedWindow(QStringLiteral("quota"), Scope::PerClient, 5, 2, CalendarUnit::Minutes);
    QCOMPARE(limiterSpecToJson(window),
             (QJsonObject{{QStringLiteral("type"), QStringLiteral("fixed_window")},
                          {QStringLiteral("name"), QStringLiteral("quota")},
                          {QStringLiteral("scope"), QStringLiteral("per_client")},
                          {QStringLiteral("rate"), 5},
                          {QStringLiteral("interval"), 2},
                          {QStringLiteral("unit"), QStringLiteral("minutes")}}));
    window.timezone = "Asia/Shanghai";
    QCOMPARE(limiterSpecToJson(window).value(QStringLiteral("timezone")).toString(),
             QStringLiteral("Asia/Shanghai"));

    // Fields of other types are left out.
    LimiterSpec sliding =
        slidingWindow(QStringLiteral("login"), Scope::Global, {{5, 1000}, {20, 60000}});
    sliding.rate = 99;
    sliding.timezone = "UTC";
    const QJsonObject slidingJson = limiterSpecToJson(sliding);
    QCOMPARE(slidingJson.keys(), (QStringList{QStringLiteral("name"), QStringLiteral("rules"),
                                              QStringLiteral("scope"), QStringLiteral("type")}));
    QCOMPARE(slidingJson.value(QStringLiteral("rules")).toArray().at(1).toObject(),
             (QJsonObject{{QStringLiteral("limit"), 20}, {QStringLiteral("window_ms"), 60000}}));

    // on_error is written only when it is not the default, so older files stay as they were.
    LimiterSpec policy = tokenBucket(QStringLiteral("api"), Scope::Global, 10, 1000);
    QVERIFY(!limiterSpecToJson(policy).contains(QStringLiteral("on_error")));
    policy.onError = FailurePolicy::Open;
    QCOMPARE(limiterSpecToJson(policy).value(QStringLiteral("on_error")).toString(),
             QStringLiteral("open"));
    policy.onError = FailurePolicy::Closed;
    QCOMPARE(limiterSpecToJson(policy).value(QStringLiteral("on_error")).toString(),
             QStringLiteral("closed"));
    QCOMPARE(limiterSpecToJson(policy).size(), 6);
}

void TestLimiterSpec::capacity() {
    QCOMPARE(tokenBucket(QStringLiteral("a"), Scope::Global, 10, 1000).capacity(), 10);
    QCOMPARE(
        fixedWindow(QStringLiteral("a"), Scope::Global, 5, 2, CalendarUnit::Minutes).capacity(), 5);
    QCOMPARE(slidingWindow(QStringLiteral("a"), Scope::Global, {{20, 60000}, {5, 1000}, {9, 10}})
                 .capacity(),
             5);
    QCOMPARE(slidingWindow(QStringLiteral("a"), Scope::Global, {{7, 1}}).capacity(), 7);
}

void TestLimiterSpec::equality() {
    const LimiterSpec bucket = tokenBucket(QStringLiteral("api"), Scope::Global, 10, 1000);
    LimiterSpec other = bucket;
    QVERIFY(other == bucket);

    // Fields of other types do not count.
    other.interval = 5;
    other.unit = CalendarUnit::Days;
    other.timezone = "UTC";
    other.rules = {{1, 1}};
    QVERIFY(other == bucket);
    QVERIFY(!(other != bucket));

    // Common fields and the type's own fields do.
    other = bucket;
    other.name = QStringLiteral("api2");
    QVERIFY(other != bucket);
    other = bucket;
    other.scope = Scope::PerClient;
    QVERIFY(other != bucket);
    other = bucket;
    other.rate = 11;
    QVERIFY(other != bucket);
    other = bucket;
    other.intervalMs = 999;
    QVERIFY(other != bucket);
    other = bucket;
    other.type = LimiterType::FixedWindow;
    QVERIFY(other != bucket);
    other = bucket;
    other.onError = FailurePolicy::Open;
    QVERIFY(other != bucket);
    other.onError = FailurePolicy::Closed;
    QVERIFY(other != bucket);

    const LimiterSpec window = fixedWindow(QStringLiteral("quota"), Scope::PerClient, 5, 2,
                                           CalendarUnit::Minutes, "Asia/Shanghai");
    other = window;
    other.intervalMs = 12345;
    other.rules = {{1, 1}};
    QVERIFY(other == window);
    other = window;
    other.rate = 6;
    QVERIFY(other != window);
    other = window;
    other.interval = 3;
    QVERIFY(other != window);
    other = window;
    other.unit = CalendarUnit::Hours;
    QVERIFY(other != window);
    other = window;
    other.timezone.clear();
    QVERIFY(other != window);

    const LimiterSpec sliding =
        slidingWindow(QStringLiteral("login"), Scope::Global, {{5, 1000}, {20, 60000}});
    other = sliding;
    other.rate = 3;
    other.intervalMs = 4;
    other.interval = 5;
    other.timezone = "UTC";
    QVERIFY(other == sliding);
    other = sliding;
    other.rules[1].windowMs = 60001;
    QVERIFY(other != sliding);
    other = sliding;
    other.rules.removeLast();
    QVERIFY(other != sliding);
}

void TestLimiterSpec::names() {
    QCOMPARE(limiterTypeName(LimiterType::TokenBucket), QStringLiteral("token_bucket"));
    QCOMPARE(limiterTypeName(LimiterType::FixedWindow), QStringLiteral("fixed_window"));
    QCOMPARE(limiterTypeName(LimiterType::SlidingWindow), QStringLiteral("sliding_window"));
    QCOMPARE(scopeName(Scope::Global), QStringLiteral("global"));
    QCOMPARE(scopeName(Scope::PerClient), QStringLiteral("per_client"));
    QCOMPARE(calendarUnitName(CalendarUnit::Milliseconds), QStringLiteral("milliseconds"));
    QCOMPARE(calendarUnitName(CalendarUnit::Seconds), QStringLiteral("seconds"));
    QCOMPARE(calendarUnitName(CalendarUnit::Minutes), QStringLiteral("minutes"));
    QCOMPARE(calendarUnitName(CalendarUnit::Hours), QStringLiteral("hours"));
    QCOMPARE(calendarUnitName(CalendarUnit::Days), QStringLiteral("days"));
    QCOMPARE(calendarUnitName(CalendarUnit::Months), QStringLiteral("months"));
    QCOMPARE(failurePolicyName(FailurePolicy::Error), QStringLiteral("error"));
    QCOMPARE(failurePolicyName(FailurePolicy::Open), QStringLiteral("open"));
    QCOMPARE(failurePolicyName(FailurePolicy::Closed), QStringLiteral("closed"));
}

void TestLimiterSpec::loadFile() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("spec.json"));
    writeTestFile(path, tb() + '\n');
    QCOMPARE(loadLimiterSpecFile(path),
             tokenBucket(QStringLiteral("api"), Scope::Global, 10, 1000));

    // Exactly 1 MiB is still accepted.
    QByteArray padded = fw();
    padded += QByteArray(1024 * 1024 - padded.size(), ' ');
    writeTestFile(path, padded);
    QCOMPARE(loadLimiterSpecFile(path),
             fixedWindow(QStringLiteral("quota"), Scope::Global, 5, 2, CalendarUnit::Minutes));
}

void TestLimiterSpec::loadFileErrors() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("spec.json"));

    struct Case {
        const char* name;
        QByteArray content;  // null: the file is not created
        QString where;
        QString message;
    };
    const Case cases[] = {
        {"missing file", QByteArray(), path, QStringLiteral("cannot read the file")},
        {"empty file", QByteArray(""), path, QStringLiteral("the file is empty")},
        {"blank file", QByteArray(" \n\t\n"), path, QStringLiteral("the file is empty")},
        {"over 1 MiB", fw() + QByteArray(1024 * 1024, ' '), path, QStringLiteral("1 MiB")},
        {"bad field", tb(R"("rate": -1, "interval_ms": 1000)"), path + QStringLiteral(": $.rate"),
         QStringLiteral("must be an integer from 1 to 1000000000, got -1")},
        {"malformed", QByteArray("{\n  \"type\": tru\n}"),
         path + QStringLiteral(": line 2, column 13"), QStringLiteral("malformed JSON")},
        {"not an object", QByteArray("[1, 2]"), path + QStringLiteral(": $"),
         QStringLiteral("expected a JSON object")},
    };
    for (const Case& c : cases) {
        QFile::remove(path);
        if (!c.content.isNull()) {
            writeTestFile(path, c.content);
        }
        try {
            loadLimiterSpecFile(path);
            QFAIL(c.name);
        } catch (const InputError& error) {
            QVERIFY2(error.where() == c.where,
                     qPrintable(QLatin1String(c.name) + QStringLiteral(": ") + error.where()));
            QVERIFY2(error.problem().contains(c.message),
                     qPrintable(QLatin1String(c.name) + QStringLiteral(": ") + error.problem()));
            QVERIFY(error.message().startsWith(path + QStringLiteral(": ")));
        }
    }

    // A directory is not a spec file.
    try {
        loadLimiterSpecFile(dir.path());
        QFAIL("read a directory");
    } catch (const InputError& error) {
        QCOMPARE(error.where(), dir.path());
        QVERIFY2(error.problem().contains(QStringLiteral("cannot read the file")),
                 qPrintable(error.problem()));
    }
}

// Files that must be refused whole: oversized (100 MB, sparse: refused from its size, unread),
// deeply nested, binary. Each message starts with the file's path.
void TestLimiterSpec::loadBadFiles_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<qint64>("size");    // > content size: the file is extended (sparse) to it
    QTest::addColumn<QString>("where");  // after "<path>: ", or empty when where is the path
    QTest::addColumn<QString>("message");

    const qint64 hundredMb = 100LL * 1024 * 1024;
    QTest::newRow("100 MB of spaces after a spec")
        << tb() << hundredMb << QString()
        << QStringLiteral(
               "the file is larger than 1 MiB (104857600 bytes); a limiter spec is a "
               "few lines of JSON");
    QTest::newRow("100 MB of NULs") << QByteArray() << hundredMb << QString()
                                    << QStringLiteral("larger than 1 MiB (104857600 bytes)");
    QTest::newRow("1 MiB + 1 byte") << QByteArray("{") << qint64(1024 * 1024 + 1) << QString()
                                    << QStringLiteral("larger than 1 MiB (1048577 bytes)");
    QTest::newRow("empty") << QByteArray("") << qint64(0) << QString()
                           << QStringLiteral("the file is empty");
    QTest::newRow("100000 nested arrays")
        << nestedArrays(100000) << qint64(0) << QStringLiteral("line 1, column 1025")
        << QStringLiteral("JSON nested more than 1024 levels deep");
    QTest::newRow("100000 nested objects")
        << QByteArray("{\"a\":").repeated(100000) + QByteArray(100000, '}') << qint64(0)
        << QStringLiteral("line 1, column 5121")
        << QStringLiteral("JSON nested more than 1024 levels deep");
    QTest::newRow("binary garbage")
        << QByteArray(
               "\x7f"
               "ELF\x02\x01\x01\x00\x00\x00\xff\xfe",
               12)
        << qint64(0) << QStringLiteral("$") << QStringLiteral("expected a JSON object");
    QTest::newRow("UTF-16 text") << QByteArray("\xff\xfe{\0\"\0t\0\"\0:\0 \01\0}\0", 18)
                                 << qint64(0) << QStringLiteral("$")
                                 << QStringLiteral("expected a JSON object");
}

void TestLimiterSpec::loadBadFiles() {
    QFETCH(QByteArray, content);
    QFETCH(qint64, size);
    QFETCH(QString, where);
    QFETCH(QString, message);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("spec.json"));
    writeTestFile(path, content, size);
    try {
        loadLimiterSpecFile(path);
        QFAIL("accepted");
    } catch (const InputError& error) {
        QCOMPARE(error.where(), where.isEmpty() ? path : path + QStringLiteral(": ") + where);
        QVERIFY2(error.problem().contains(message), qPrintable(error.problem()));
        QVERIFY(error.message().startsWith(path + QStringLiteral(": ")));
    }
}

QTEST_GUILESS_MAIN(TestLimiterSpec)
#include "tst_limiter_spec.moc"
