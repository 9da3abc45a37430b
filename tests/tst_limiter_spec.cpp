// Limiter spec parsing (docs/scenarios.md, "Limiter specs"): the valid forms, the round trip
// through JSON, the JSON written, capacity, equality and the names of types, scopes, units and
// policies. Refused specs: tst_limiter_spec_errors; spec files: tst_limiter_spec_files.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "input_error.h"
#include "limiters/limiter_spec.h"
#include "support/limiter_spec_documents.h"

using namespace ratelab;
using namespace ratelab::test;

class TestLimiterSpec : public QObject {
    Q_OBJECT

private slots:
    void parseValid_data();
    void parseValid();
    void roundTrip_data();
    void roundTrip();
    void toJsonFormat();
    void capacity();
    void equality();
    void names();
};

void TestLimiterSpec::parseValid_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<LimiterSpec>("expected");

    // The three examples of docs/scenarios.md's "Limiter specs", verbatim.
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

QTEST_GUILESS_MAIN(TestLimiterSpec)
#include "tst_limiter_spec.moc"
