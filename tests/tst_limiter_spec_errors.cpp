// Limiter specs refused (docs/scenarios.md, "Limiter specs"): each bad field named by its JSON
// path, with what is wrong with it; malformed and deeply nested JSON named by line and column.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>
#include <limits>

#include "input_error.h"
#include "limiters/limiter_spec.h"
#include "support/limiter_spec_documents.h"

using namespace ratelab;
using namespace ratelab::test;

class TestLimiterSpecErrors : public QObject {
    Q_OBJECT

private slots:
    void parseInvalid_data();
    void parseInvalid();
    void parseWithPath();
    void nonFiniteNumbers();
};

void TestLimiterSpecErrors::parseInvalid_data() {
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
           R"(sliding_counter, leaky_bucket, concurrency or script)";
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
    QTest::newRow("name with a lone high surrogate")
        << withName(QStringLiteral("a") + QChar(0xD83D)) << "$.name"
        << "must not contain a lone surrogate, got U+D83D";
    QTest::newRow("name with a lone low surrogate")
        << withName(QString(QChar(0xDE80)) + QStringLiteral("b")) << "$.name"
        << "lone surrogate, got U+DE80";

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

void TestLimiterSpecErrors::parseInvalid() {
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

void TestLimiterSpecErrors::parseWithPath() {
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

void TestLimiterSpecErrors::nonFiniteNumbers() {
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

QTEST_GUILESS_MAIN(TestLimiterSpecErrors)
#include "tst_limiter_spec_errors.moc"
