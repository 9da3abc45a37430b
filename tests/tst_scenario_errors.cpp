// Scenario files refused: each bad field named by its JSON path, with what is wrong with it.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTimeZone>
#include <QtTest>
#include <functional>
#include <limits>

#include "input_error.h"
#include "scenario/scenario.h"
#include "support/scenario_documents.h"
#include "support/test_files.h"

using namespace ratelab;
using namespace ratelab::test;

class TestScenarioErrors : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void parseInvalid_data();
    void parseInvalid();
    void nonFiniteNumbers_data();
    void nonFiniteNumbers();

private:
    QTemporaryDir dir_;
};

void TestScenarioErrors::initTestCase() {
    QVERIFY(dir_.isValid());
    writeScenarioTraces(dir_.path());
}

void TestScenarioErrors::parseInvalid_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("message");

    QTest::newRow("virtual start after year 9999 (fuzz finding)")
        << QByteArray(R"({"limiters": [{"type": "token_bucket", "name": "a", "rate": 1,
            "interval_ms": 1}], "traffic": {"shape": {"type": "constant", "rate": 1},
            "duration_s": 1, "clock": {"type": "virtual",
            "start": "9999-12-31T23:59:59.999-00:01"}}})")
        << "$.traffic.clock.start"
        << "must not be after 9999-12-31T23:59:59.999Z";
    // Not an object, not JSON.
    QTest::newRow("array") << QByteArray("[]") << "$"
                           << "expected a JSON object, got an array";
    QTest::newRow("number") << QByteArray("5") << "$"
                            << "expected a JSON object";
    QTest::newRow("empty") << QByteArray(" \n") << "$"
                           << "expected a JSON object, got an empty text";
    QTest::newRow("trailing comma") << QByteArray("{\n  \"limiters\": [],\n}") << "line 3, column 1"
                                    << "malformed JSON";
    QTest::newRow("truncated") << doc(kConstant).chopped(1) << "line 1, column 162"
                               << "malformed JSON";
    // Deep nesting stops at Qt's nesting limit: a parse error with its place, no crash.
    QTest::newRow("100000 nested arrays")
        << QByteArray(100000, '[') + QByteArray(100000, ']') << "line 1, column 1025"
        << "JSON nested more than 1024 levels deep";
    QTest::newRow("100000 nested arrays as the limiters")
        << withLimiters(QByteArray(100000, '[') + QByteArray(100000, ']')) << "line 1, column 1037"
        << "JSON nested more than 1024 levels deep";
    QTest::newRow("binary garbage")
        << QByteArray("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10) << "$"
        << "expected a JSON object";

    // Top level.
    QTest::newRow("unknown field") << withTop(R"("colour": "red")") << "$.colour"
                                   << "unknown field";
    QTest::newRow("unknown field before missing ones")
        << QByteArray(R"({"limits": []})") << "$.limits"
        << "unknown field";
    QTest::newRow("name not a string") << withTop(R"("name": 5)") << "$.name"
                                       << "must be a string, got 5";
    QTest::newRow("name empty") << withTop(R"("name": "")") << "$.name"
                                << "must not be empty";
    QTest::newRow("name with ESC") << withTop(R"("name": "a\u001b[31mb")") << "$.name"
                                   << "must not contain control characters, got U+001B";
    QTest::newRow("name with NUL") << withTop(R"("name": "a\u0000b")") << "$.name"
                                   << "must not contain control characters, got U+0000";
    QTest::newRow("name with a newline") << withTop(R"("name": "a\nb")") << "$.name"
                                         << "control characters, got U+000A";
    QTest::newRow("name with a lone surrogate") << withTop(R"("name": "a\ud800b")") << "$.name"
                                                << "must not contain a lone surrogate, got U+D800";
    QTest::newRow("name too long")
        << withTop("\"name\": \"" + QByteArray(201, 'n') + '"') << "$.name"
        << "must be at most 200 characters long, got 201";
    QTest::newRow("bucket_ms zero") << withTop(R"("bucket_ms": 0)") << "$.bucket_ms"
                                    << "must be an integer from 1 to 86400000, got 0";
    QTest::newRow("bucket_ms fraction") << withTop(R"("bucket_ms": 2.5)") << "$.bucket_ms"
                                        << "must be an integer from 1 to 86400000, got 2.5";
    QTest::newRow("bucket_ms string") << withTop(R"("bucket_ms": "100")") << "$.bucket_ms"
                                      << R"(must be an integer, got "100" (a string))";
    QTest::newRow("too many buckets")
        << doc(R"("shape": {"type": "constant", "rate": 1}, "duration_s": 1000.001)",
               R"(, "bucket_ms": 1)")
        << "$.bucket_ms"
        << "1 ms buckets over a 1000.001 s run make 1000001 buckets; at most 1000000 are "
           "allowed (use bucket_ms >= 2)";

    // The memory budget: 64 threads x 4 limiters x 1,000,000 buckets x 5 counters x 8 bytes.
    QTest::newRow("counters above the memory budget")
        << QByteArray(R"({"limiters": )") + manyLimiters(4) +
               R"(, "traffic": {"shape": {"type": "constant", "rate": 1}, "duration_s": 1000, )"
               R"("threads": 64}, "bucket_ms": 1})"
        << "$.bucket_ms"
        << "of counters (64 threads × 4 limiters × 1,000,000 buckets × 5 counters × 8 bytes)";
    QTest::newRow("counters above the memory budget: the limit named")
        << QByteArray(R"({"limiters": )") + manyLimiters(16) +
               R"(, "traffic": {"shape": {"type": "constant", "rate": 1}, "duration_s": 1000, )"
               R"("threads": 64}, "bucket_ms": 1})"
        << "$.bucket_ms"
        << "more than the 1 GiB limit; raise bucket_ms";

    // Limiters.
    QTest::newRow("limiters missing") << QByteArray(R"({"traffic": {)") + kConstant + "}}"
                                      << "$.limiters"
                                      << "missing";
    QTest::newRow("limiters not an array") << withLimiters(kApi) << "$.limiters"
                                           << "must be an array of limiter specs, got an object";
    QTest::newRow("limiters empty") << withLimiters("[]") << "$.limiters"
                                    << "must hold at least one limiter";
    QTest::newRow("17 limiters") << withLimiters(manyLimiters(17)) << "$.limiters"
                                 << "has 17 limiters; at most 16 are allowed";
    QTest::newRow("limiter not an object")
        << withLimiters(QByteArray("[") + kApi + ", 5]") << "$.limiters[1]"
        << "expected a JSON object, got 5";
    QTest::newRow("limiter error nested")
        << withLimiters(QByteArray("[") + kApi +
                        R"(, {"type": "sliding_window", "name": "login", "rules": )"
                        R"([{"limit": 0, "window_ms": 1000}]}])")
        << "$.limiters[1].rules[0].limit"
        << "must be an integer from 1 to 1000000, got 0";
    QTest::newRow("limiter unknown field")
        << withLimiters(R"([{"type": "token_bucket", "name": "api", "rate": 1, )"
                        R"("interval_ms": 1, "unit": "seconds"}])")
        << "$.limiters[0].unit"
        << "unknown field";
    QTest::newRow("limiter unknown zone")
        << withLimiters(R"([{"type": "fixed_window", "name": "q", "rate": 1, "interval": 1, )"
                        R"("unit": "days", "timezone": "Mars/Olympus"}])")
        << "$.limiters[0].timezone"
        << R"(unknown time zone "Mars/Olympus")";
    QTest::newRow("limiter on_error unknown")
        << withLimiters(QByteArray("[") + kApi +
                        R"(, {"type": "token_bucket", "name": "b", "rate": 1, )"
                        R"("interval_ms": 1, "on_error": "retry"}])")
        << "$.limiters[1].on_error"
        << R"(unknown failure policy "retry"; expected error, open or closed)";
    QTest::newRow("limiter on_error not a string")
        << withLimiters(R"([{"type": "token_bucket", "name": "a", "rate": 1, "interval_ms": 1, )"
                        R"("on_error": false}])")
        << "$.limiters[0].on_error"
        << "must be a string, got false (a boolean)";
    QTest::newRow("duplicate names")
        << withLimiters(QByteArray("[") + kApi +
                        R"(, {"type": "sliding_window", "name": "login", "rules": )"
                        R"([{"limit": 1, "window_ms": 1000}]}, {"type": "fixed_window", )"
                        R"("name": "api", "rate": 1, "interval": 1, "unit": "days"}])")
        << "$.limiters[2].name"
        << R"(duplicate name "api" (also $.limiters[0]))";

    // Traffic.
    QTest::newRow("traffic missing") << QByteArray(R"({"limiters": [)") + kApi + "]}"
                                     << "$.traffic"
                                     << "missing";
    QTest::newRow("traffic not an object")
        << QByteArray(R"({"limiters": [)") + kApi + R"(], "traffic": []})"
        << "$.traffic"
        << "must be a JSON object, got an array";
    QTest::newRow("traffic unknown field") << withTraffic(R"("rate": 5)") << "$.traffic.rate"
                                           << "unknown field";
    QTest::newRow("traffic unknown field before the shape")
        << doc(R"("Shape": {"type": "constant", "rate": 1})") << "$.traffic.Shape"
        << "unknown field";

    // Shape.
    QTest::newRow("shape missing") << doc(R"("duration_s": 10)") << "$.traffic.shape"
                                   << "missing";
    QTest::newRow("shape not an object") << withShape(R"("constant")") << "$.traffic.shape"
                                         << R"(must be a JSON object, got "constant" (a string))";
    QTest::newRow("shape type missing") << withShape(R"({"rate": 5})") << "$.traffic.shape.type"
                                        << "missing";
    QTest::newRow("shape type unknown")
        << withShape(R"({"type": "square", "rate": 5})") << "$.traffic.shape.type"
        << R"(unknown shape type "square"; expected constant, poisson, linear, sine, burst, )"
           R"(step or replay)";
    QTest::newRow("shape type not a string")
        << withShape(R"({"type": 1})") << "$.traffic.shape.type"
        << "must be a string, got 1";
    QTest::newRow("rate on a linear shape")
        << withShape(R"({"type": "linear", "from": 1, "to": 2, "rate": 5})")
        << "$.traffic.shape.rate"
        << "unknown field";
    QTest::newRow("amplitude on a constant shape")
        << withShape(R"({"type": "constant", "rate": 5, "amplitude": 1})")
        << "$.traffic.shape.amplitude"
        << "unknown field";
    QTest::newRow("stages on a burst shape")
        << withShape(R"({"type": "burst", "rate": 5, "burst": 2, "every_s": 1, "stages": []})")
        << "$.traffic.shape.stages"
        << "unknown field";
    QTest::newRow("trace on a poisson shape")
        << withShape(R"({"type": "poisson", "rate": 5, "trace": "login.csv"})")
        << "$.traffic.shape.trace"
        << "unknown field";
    QTest::newRow("rate on a replay shape")
        << doc(R"("shape": {"type": "replay", "trace": "login.csv", "rate": 1})")
        << "$.traffic.shape.rate"
        << "unknown field";

    // Rates.
    QTest::newRow("rate missing") << withShape(R"({"type": "constant"})") << "$.traffic.shape.rate"
                                  << "missing";
    QTest::newRow("rate zero") << withShape(R"({"type": "constant", "rate": 0})")
                               << "$.traffic.shape.rate"
                               << "must be a rate above 0 and at most 1000000 requests/s, got 0";
    QTest::newRow("rate negative")
        << withShape(R"({"type": "poisson", "rate": -5})") << "$.traffic.shape.rate"
        << "must be a rate above 0 and at most 1000000 requests/s, "
           "got -5";
    QTest::newRow("rate above the limit")
        << withShape(R"({"type": "constant", "rate": 1000000.5})") << "$.traffic.shape.rate"
        << "got 1000000.5";
    QTest::newRow("rate string") << withShape(R"({"type": "constant", "rate": "100"})")
                                 << "$.traffic.shape.rate"
                                 << R"(must be a number, got "100" (a string))";
    QTest::newRow("rate null") << withShape(R"({"type": "constant", "rate": null})")
                               << "$.traffic.shape.rate"
                               << "must be a number, got null";
    QTest::newRow("poisson rate zero")
        << withShape(R"({"type": "poisson", "rate": 0})") << "$.traffic.shape.rate"
        << "above 0";
    QTest::newRow("linear from missing")
        << withShape(R"({"type": "linear", "to": 5})") << "$.traffic.shape.from"
        << "missing";
    QTest::newRow("linear from negative")
        << withShape(R"({"type": "linear", "from": -1, "to": 5})") << "$.traffic.shape.from"
        << "must be a rate from 0 to 1000000 requests/s, got -1";
    QTest::newRow("linear to above the limit")
        << withShape(R"({"type": "linear", "from": 0, "to": 2e6})") << "$.traffic.shape.to"
        << "must be a rate from 0 to 1000000 requests/s, got 2000000";
    QTest::newRow("linear from and to both 0")
        << withShape(R"({"type": "linear", "from": 0, "to": 0})") << "$.traffic.shape.to"
        << "from and to are both 0";
    QTest::newRow("sine mean zero")
        << withShape(R"({"type": "sine", "mean": 0, "amplitude": 0, "period_s": 1})")
        << "$.traffic.shape.mean"
        << "must be a rate above 0";
    QTest::newRow("sine amplitude above the mean")
        << withShape(R"({"type": "sine", "mean": 10, "amplitude": 10.5, "period_s": 1})")
        << "$.traffic.shape.amplitude"
        << "must be from 0 to the mean (10), got 10.5";
    QTest::newRow("sine amplitude negative")
        << withShape(R"({"type": "sine", "mean": 10, "amplitude": -1, "period_s": 1})")
        << "$.traffic.shape.amplitude"
        << "must be from 0 to the mean (10), got -1";
    QTest::newRow("sine amplitude missing")
        << withShape(R"({"type": "sine", "mean": 10, "period_s": 1})")
        << "$.traffic.shape.amplitude"
        << "missing";
    QTest::newRow("sine period zero")
        << withShape(R"({"type": "sine", "mean": 10, "amplitude": 1, "period_s": 0})")
        << "$.traffic.shape.period_s"
        << "must be a number of seconds above 0 and at most 86400, got 0";
    QTest::newRow("sine period missing")
        << withShape(R"({"type": "sine", "mean": 10, "amplitude": 1})")
        << "$.traffic.shape.period_s"
        << "missing";
    QTest::newRow("burst rate zero")
        << withShape(R"({"type": "burst", "rate": 0, "burst": 5, "every_s": 1})")
        << "$.traffic.shape.rate"
        << "must be a rate above 0";
    QTest::newRow("burst zero") << withShape(
                                       R"({"type": "burst", "rate": 1, "burst": 0, "every_s": 1})")
                                << "$.traffic.shape.burst"
                                << "must be an integer from 1 to 1000000, got 0";
    QTest::newRow("burst fraction")
        << withShape(R"({"type": "burst", "rate": 1, "burst": 2.5, "every_s": 1})")
        << "$.traffic.shape.burst"
        << "must be an integer from 1 to 1000000, got 2.5";
    QTest::newRow("burst string")
        << withShape(R"({"type": "burst", "rate": 1, "burst": "5", "every_s": 1})")
        << "$.traffic.shape.burst"
        << R"(must be an integer, got "5" (a string))";
    QTest::newRow("burst missing")
        << withShape(R"({"type": "burst", "rate": 1, "every_s": 1})") << "$.traffic.shape.burst"
        << "missing";
    QTest::newRow("burst every_s zero")
        << withShape(R"({"type": "burst", "rate": 1, "burst": 5, "every_s": 0})")
        << "$.traffic.shape.every_s"
        << "above 0";
    QTest::newRow("burst every_s above a day")
        << withShape(R"({"type": "burst", "rate": 1, "burst": 5, "every_s": 86401})")
        << "$.traffic.shape.every_s"
        << "must be a number of seconds above 0 and at most 86400, got 86401";

    QTest::newRow("burst of 1000000 every 1 ms, above the rate ceiling")
        << withShape(R"({"type": "burst", "rate": 1, "burst": 1000000, "every_s": 0.001})")
        << "$.traffic.shape.burst"
        << "peak at 1000000001 requests/s, above the ceiling of 1000000 requests/s";
    QTest::newRow("burst one above the rate ceiling")
        << withShape(R"({"type": "burst", "rate": 1001, "burst": 999000, "every_s": 1})")
        << "$.traffic.shape.burst"
        << "peak at 1000001 requests/s, above the ceiling";
    QTest::newRow("sine peak above the rate ceiling")
        << withShape(R"({"type": "sine", "mean": 1e6, "amplitude": 0.5, "period_s": 10})")
        << "$.traffic.shape.amplitude"
        << "peaks at 1000000.5 requests/s, above the ceiling of 1000000 requests/s";

    // Step stages.
    QTest::newRow("stages missing")
        << doc(R"("shape": {"type": "step"})") << "$.traffic.shape.stages"
        << "missing";
    QTest::newRow("stages not an array")
        << doc(R"("shape": {"type": "step", "stages": {"rate": 1, "duration_s": 1}})")
        << "$.traffic.shape.stages"
        << "must be an array";
    QTest::newRow("stages empty") << doc(R"("shape": {"type": "step", "stages": []})")
                                  << "$.traffic.shape.stages"
                                  << "must hold at least one stage";
    QTest::newRow("stage not an object")
        << doc(R"("shape": {"type": "step", "stages": [{"rate": 1, "duration_s": 1}, 3]})")
        << "$.traffic.shape.stages[1]"
        << "must be a JSON object, got 3";
    QTest::newRow("stage unknown field")
        << doc(R"("shape": {"type": "step", "stages": [{"rate": 1, "duration_s": 1, "to": 3}]})")
        << "$.traffic.shape.stages[0].to"
        << "unknown field";
    QTest::newRow("stage rate negative")
        << doc(R"("shape": {"type": "step", "stages": [{"rate": 1, "duration_s": 1}, )"
               R"({"rate": -2, "duration_s": 1}]})")
        << "$.traffic.shape.stages[1].rate"
        << "must be a rate from 0 to 1000000 requests/s, got -2";
    QTest::newRow("stage duration zero")
        << doc(R"("shape": {"type": "step", "stages": [{"rate": 1, "duration_s": 0}]})")
        << "$.traffic.shape.stages[0].duration_s"
        << "above 0";
    QTest::newRow("stage duration missing")
        << doc(R"("shape": {"type": "step", "stages": [{"rate": 1}]})")
        << "$.traffic.shape.stages[0].duration_s"
        << "missing";
    QTest::newRow("every stage idle")
        << doc(R"("shape": {"type": "step", "stages": [{"rate": 0, "duration_s": 1}, )"
               R"({"rate": 0, "duration_s": 2}]})")
        << "$.traffic.shape.stages"
        << "every stage has rate 0";
    QTest::newRow("stages longer than a run")
        << doc(R"("shape": {"type": "step", "stages": [{"rate": 1, "duration_s": 86400}, )"
               R"({"rate": 2, "duration_s": 0.5}]})")
        << "$.traffic.shape.stages"
        << "the stages last 86400.5 s in total";

    // Replay.
    const QString bad = dir_.filePath(QStringLiteral("bad.csv"));
    const QString missing = dir_.filePath(QStringLiteral("missing.csv"));
    QTest::newRow("trace missing")
        << doc(R"("shape": {"type": "replay"})") << "$.traffic.shape.trace"
        << "missing";
    QTest::newRow("trace not a string")
        << doc(R"("shape": {"type": "replay", "trace": 5})") << "$.traffic.shape.trace"
        << "must be a string, got 5";
    QTest::newRow("trace empty") << doc(R"("shape": {"type": "replay", "trace": ""})")
                                 << "$.traffic.shape.trace"
                                 << "must not be empty";
    QTest::newRow("trace file missing")
        << doc(R"("shape": {"type": "replay", "trace": "missing.csv"})") << missing
        << "cannot read the file";
    QTest::newRow("trace invalid")
        << doc(R"("shape": {"type": "replay", "trace": "bad.csv"})") << bad + QStringLiteral(":2")
        << "permits must be an integer from 1 to 1000000000";
    QTest::newRow("trace without rows")
        << doc(R"("shape": {"type": "replay", "trace": "empty.csv"})")
        << dir_.filePath(QStringLiteral("empty.csv")) << "the trace has no rows";
    QTest::newRow("trace longer than a run")
        << doc(R"("shape": {"type": "replay", "trace": "long.csv"})") << "$.traffic.shape.trace"
        << "the trace spans 86400001 ms";
    QTest::newRow("trace above the rate ceiling")
        << doc(R"("shape": {"type": "replay", "trace": "above-ceiling.csv"})")
        << "$.traffic.shape.trace"
        << "1000001 requests within one second (t_ms 0 to 999), above the ceiling of 1000000 "
           "requests/s";
    QTest::newRow("clients with a replay")
        << doc(R"("shape": {"type": "replay", "trace": "login.csv"}, "clients": 2)")
        << "$.traffic.clients"
        << "not allowed with a replay shape";
    QTest::newRow("permits with a replay")
        << doc(R"("shape": {"type": "replay", "trace": "login.csv"}, "permits": 1)")
        << "$.traffic.permits"
        << "not allowed with a replay shape";
    QTest::newRow("scenario mistakes before the trace's")
        << doc(R"("shape": {"type": "replay", "trace": "bad.csv"}, "threads": 0)")
        << "$.traffic.threads"
        << "must be an integer from 1 to 64, got 0";

    // Duration.
    QTest::newRow("duration missing")
        << doc(R"("shape": {"type": "constant", "rate": 1})") << "$.traffic.duration_s"
        << "missing";
    QTest::newRow("duration zero")
        << doc(R"("shape": {"type": "constant", "rate": 1}, "duration_s": 0)")
        << "$.traffic.duration_s"
        << "must be a number of seconds above 0 and at most 86400, got 0";
    QTest::newRow("duration negative")
        << doc(R"("shape": {"type": "constant", "rate": 1}, "duration_s": -3)")
        << "$.traffic.duration_s"
        << "got -3";
    QTest::newRow("duration above a day")
        << doc(R"("shape": {"type": "constant", "rate": 1}, "duration_s": 86400.001)")
        << "$.traffic.duration_s"
        << "at most 86400, got 86400.001";
    QTest::newRow("duration 1e308")
        << doc(R"("shape": {"type": "constant", "rate": 1}, "duration_s": 1e308)")
        << "$.traffic.duration_s"
        << "at most 86400, got 1e+308";
    QTest::newRow("duration 2^63")
        << doc(R"("shape": {"type": "constant", "rate": 1}, "duration_s": 9223372036854775808)")
        << "$.traffic.duration_s"
        << "at most 86400, got 9223372036854776000";
    QTest::newRow("duration -0")
        << doc(R"("shape": {"type": "constant", "rate": 1}, "duration_s": -0)")
        << "$.traffic.duration_s"
        << "above 0 and at most 86400, got 0";
    QTest::newRow("duration string")
        << doc(R"("shape": {"type": "constant", "rate": 1}, "duration_s": "10s")")
        << "$.traffic.duration_s"
        << R"(must be a number, got "10s" (a string))";
    QTest::newRow("step duration zero")
        << doc(R"("shape": {"type": "step", "stages": [{"rate": 1, "duration_s": 1}]}, )"
               R"("duration_s": 0)")
        << "$.traffic.duration_s"
        << "above 0";
    QTest::newRow("replay duration above a day")
        << doc(R"("shape": {"type": "replay", "trace": "login.csv"}, "duration_s": 1e9)")
        << "$.traffic.duration_s"
        << "at most 86400";

    // Clients.
    QTest::newRow("clients zero") << withTraffic(R"("clients": 0)") << "$.traffic.clients"
                                  << "must be an integer from 1 to 10000, got 0";
    QTest::newRow("clients int64 max")
        << withTraffic(R"("clients": 9223372036854775807)") << "$.traffic.clients"
        << "must be an integer from 1 to 10000, got 9223372036854776000";
    QTest::newRow("clients negative")
        << withTraffic(R"("clients": -9223372036854775808)") << "$.traffic.clients"
        << "must be an integer from 1 to 10000, got -9223372036854776000";
    QTest::newRow("clients above the limit")
        << withTraffic(R"("clients": 10001)") << "$.traffic.clients"
        << "must be an integer from 1 to 10000, got 10001";
    QTest::newRow("clients fraction") << withTraffic(R"("clients": 1.5)") << "$.traffic.clients"
                                      << "got 1.5";
    QTest::newRow("clients string")
        << withTraffic(R"("clients": "4")") << "$.traffic.clients"
        << R"(must be an integer or an object {"count", "weights"}, got "4" (a string))";
    QTest::newRow("clients array") << withTraffic(R"("clients": [1, 2])") << "$.traffic.clients"
                                   << "got an array";
    QTest::newRow("clients count missing")
        << withTraffic(R"("clients": {"weights": [1]})") << "$.traffic.clients.count"
        << "missing";
    QTest::newRow("clients count zero")
        << withTraffic(R"("clients": {"count": 0})") << "$.traffic.clients.count"
        << "must be an integer from 1 to 10000, got 0";
    QTest::newRow("clients unknown field")
        << withTraffic(R"("clients": {"count": 2, "weight": [1, 2]})") << "$.traffic.clients.weight"
        << "unknown field";
    QTest::newRow("weights not an array")
        << withTraffic(R"("clients": {"count": 2, "weights": 1})") << "$.traffic.clients.weights"
        << "must be an array of numbers, one per client, got 1";
    QTest::newRow("too few weights")
        << withTraffic(R"("clients": {"count": 4, "weights": [1, 1, 2]})")
        << "$.traffic.clients.weights"
        << "has 3 weights for 4 clients; expected one per client";
    QTest::newRow("too many weights")
        << withTraffic(R"("clients": {"count": 1, "weights": [1, 1]})")
        << "$.traffic.clients.weights"
        << "has 2 weights for 1 clients";
    QTest::newRow("weight negative")
        << withTraffic(R"("clients": {"count": 4, "weights": [1, 1, -2, 4]})")
        << "$.traffic.clients.weights[2]"
        << "must be a weight from 0 to 1000000000, got -2";
    QTest::newRow("weight too large")
        << withTraffic(R"("clients": {"count": 2, "weights": [1, 1e10]})")
        << "$.traffic.clients.weights[1]"
        << "must be a weight from 0 to 1000000000, got 10000000000";
    QTest::newRow("weight string") << withTraffic(R"("clients": {"count": 2, "weights": [1, "2"]})")
                                   << "$.traffic.clients.weights[1]"
                                   << R"(must be a number, got "2" (a string))";
    QTest::newRow("weights all 0")
        << withTraffic(R"("clients": {"count": 3, "weights": [0, 0, -0.0]})")
        << "$.traffic.clients.weights"
        << "must not all be 0";

    // Threads, pipeline, permits.
    QTest::newRow("threads zero") << withTraffic(R"("threads": 0)") << "$.traffic.threads"
                                  << "must be an integer from 1 to 64, got 0";
    QTest::newRow("threads above the limit")
        << withTraffic(R"("threads": 65)") << "$.traffic.threads"
        << "must be an integer from 1 to 64, got 65";
    QTest::newRow("threads boolean") << withTraffic(R"("threads": true)") << "$.traffic.threads"
                                     << "must be an integer, got true (a boolean)";
    QTest::newRow("pipeline zero") << withTraffic(R"("pipeline": 0)") << "$.traffic.pipeline"
                                   << "must be an integer from 1 to 1024, got 0";
    QTest::newRow("pipeline above the limit")
        << withTraffic(R"("pipeline": 1025)") << "$.traffic.pipeline"
        << "must be an integer from 1 to 1024, got 1025";
    QTest::newRow("permits zero") << withTraffic(R"("permits": 0)") << "$.traffic.permits"
                                  << "must be an integer from 1 to 1000000000, got 0";
    QTest::newRow("permits above the limit")
        << withTraffic(R"("permits": 1000000001)") << "$.traffic.permits"
        << "got 1000000001";
    QTest::newRow("permits fraction") << withTraffic(R"("permits": 1.5)") << "$.traffic.permits"
                                      << "got 1.5";
    QTest::newRow("permits string")
        << withTraffic(R"("permits": "1")") << "$.traffic.permits"
        << R"(must be an integer or an object {"min", "max"}, got "1" (a string))";
    QTest::newRow("permits min above max")
        << withTraffic(R"("permits": {"min": 3, "max": 2})") << "$.traffic.permits.max"
        << "must be at least min (3), got 2";
    QTest::newRow("permits max missing")
        << withTraffic(R"("permits": {"min": 3})") << "$.traffic.permits.max"
        << "missing";
    QTest::newRow("permits min zero")
        << withTraffic(R"("permits": {"min": 0, "max": 2})") << "$.traffic.permits.min"
        << "must be an integer from 1 to 1000000000, got 0";
    QTest::newRow("permits unknown field")
        << withTraffic(R"("permits": {"min": 1, "max": 2, "mean": 1})") << "$.traffic.permits.mean"
        << "unknown field";

    // Mode and timeout.
    QTest::newRow("mode unknown") << withTraffic(R"("mode": "block")") << "$.traffic.mode"
                                  << R"(unknown mode "block"; expected try or wait)";
    QTest::newRow("round trips unknown")
        << withTraffic(R"("round_trips": "each")") << "$.traffic.round_trips"
        << R"(unknown round_trips "each"; expected shared or per_limiter)";
    QTest::newRow("mode not a string") << withTraffic(R"("mode": 1)") << "$.traffic.mode"
                                       << "must be a string, got 1";
    QTest::newRow("wait without a timeout")
        << withTraffic(R"("mode": "wait")") << "$.traffic.timeout_ms"
        << R"(missing: required when mode is "wait")";
    QTest::newRow("timeout with try")
        << withTraffic(R"("mode": "try", "timeout_ms": 100)") << "$.traffic.timeout_ms"
        << R"(only allowed when mode is "wait")";
    QTest::newRow("timeout with the default mode")
        << withTraffic(R"("timeout_ms": 100)") << "$.traffic.timeout_ms"
        << "only allowed when mode";
    QTest::newRow("timeout zero") << withTraffic(R"("mode": "wait", "timeout_ms": 0)")
                                  << "$.traffic.timeout_ms"
                                  << "must be an integer from 1 to 86400000, got 0";
    QTest::newRow("timeout fraction")
        << withTraffic(R"("mode": "wait", "timeout_ms": 0.5)") << "$.traffic.timeout_ms"
        << "got 0.5";

    // Clock.
    QTest::newRow("clock virtual as a string")
        << withClock(R"("virtual")") << "$.traffic.clock"
        << R"(unknown clock "virtual"; expected "real" or {"type": "virtual")";
    QTest::newRow("clock number") << withClock("1") << "$.traffic.clock"
                                  << R"(must be "real" or {"type": "virtual", "start": ..., )"
                                     R"("speed": ...}, got 1)";
    QTest::newRow("clock type missing")
        << withClock(R"({"start": "2024-01-01T00:00:00Z"})") << "$.traffic.clock.type"
        << "missing";
    QTest::newRow("clock type real") << withClock(R"({"type": "real"})") << "$.traffic.clock.type"
                                     << R"(the real clock is a string, not an object: )"
                                        R"(write "clock": "real")";
    QTest::newRow("clock type unknown")
        << withClock(R"({"type": "wall"})") << "$.traffic.clock.type"
        << R"(unknown clock type "wall"; expected virtual (the real clock is the string "real"))";
    QTest::newRow("clock unknown field")
        << withClock(R"({"type": "virtual", "start": "2024-01-01T00:00:00Z", "zone": "UTC"})")
        << "$.traffic.clock.zone"
        << "unknown field";
    QTest::newRow("start missing")
        << withClock(R"({"type": "virtual", "speed": 1})") << "$.traffic.clock.start"
        << "missing";
    QTest::newRow("start not a date")
        << withClock(R"({"type": "virtual", "start": "yesterday"})") << "$.traffic.clock.start"
        << R"(must be an ISO 8601 date and time with an offset )"
           R"(or Z, such as "2024-03-10T01:59:58-05:00", got )"
           R"("yesterday" (a string))";
    QTest::newRow("start without an offset")
        << withClock(R"({"type": "virtual", "start": "2024-03-10T01:59:58"})")
        << "$.traffic.clock.start"
        << "with an offset or Z";
    QTest::newRow("start date only")
        << withClock(R"({"type": "virtual", "start": "2024-03-10"})") << "$.traffic.clock.start"
        << "with an offset or Z";
    QTest::newRow("start on February 30th")
        << withClock(R"({"type": "virtual", "start": "2024-02-30T00:00:00Z"})")
        << "$.traffic.clock.start"
        << "must be an ISO 8601 date and time";
    QTest::newRow("start at hour 25")
        << withClock(R"({"type": "virtual", "start": "2024-03-10T25:00:00Z"})")
        << "$.traffic.clock.start"
        << "must be an ISO 8601 date and time";
    QTest::newRow("start before 1970")
        << withClock(R"({"type": "virtual", "start": "1969-12-31T23:59:59Z"})")
        << "$.traffic.clock.start"
        << "must not be before 1970-01-01T00:00:00Z";
    QTest::newRow("start number") << withClock(R"({"type": "virtual", "start": 1710053998000})")
                                  << "$.traffic.clock.start"
                                  << "must be a string, got 1710053998000";
    QTest::newRow("speed negative")
        << withClock(R"({"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": -1})")
        << "$.traffic.clock.speed"
        << "must be 0 (as fast as possible) or a number from 0.001 to 1000, got -1";
    // 1 / speed stretches every TTL: 1e-300 made them overflow.
    QTest::newRow("speed below 0.001")
        << withClock(R"({"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": 1e-300})")
        << "$.traffic.clock.speed"
        << "from 0.001 to 1000, got 1e-300";
    QTest::newRow("speed 0.0009")
        << withClock(R"({"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": 0.0009})")
        << "$.traffic.clock.speed"
        << "got 9e-04";
    QTest::newRow("speed above 1000")
        << withClock(R"({"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": 1000.5})")
        << "$.traffic.clock.speed"
        << "to 1000, got 1000.5";
    QTest::newRow("speed string")
        << withClock(R"({"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": "1x"})")
        << "$.traffic.clock.speed"
        << R"(must be a number, got "1x" (a string))";

    // Seed.
    QTest::newRow("seed negative") << withTraffic(R"("seed": -1)") << "$.traffic.seed"
                                   << "must be an integer from 0 to 9007199254740992, got -1";
    QTest::newRow("seed fraction") << withTraffic(R"("seed": 0.5)") << "$.traffic.seed"
                                   << "got 0.5";
    QTest::newRow("seed above 2^53")
        << withTraffic(R"("seed": 9007199254740994)") << "$.traffic.seed"
        << "must be an integer from 0 to 9007199254740992";
    QTest::newRow("seed string") << withTraffic(R"("seed": "42")") << "$.traffic.seed"
                                 << R"(must be an integer, got "42" (a string))";
}

void TestScenarioErrors::parseInvalid() {
    QFETCH(QByteArray, json);
    QFETCH(QString, where);
    QFETCH(QString, message);
    expectError([&] { parseScenarioJson(json, dir_.path()); }, where, message);
}

void TestScenarioErrors::nonFiniteNumbers_data() {
    QTest::addColumn<QString>("key");  // a member of "traffic"
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("message");

    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    QTest::newRow("rate NaN") << "shape"
                              << QJsonValue(QJsonObject{
                                     {QStringLiteral("type"), QStringLiteral("constant")},
                                     {QStringLiteral("rate"), nan}})
                              << "$.traffic.shape.rate"
                              << "must be a finite number, got NaN";
    QTest::newRow("duration infinite") << "duration_s" << QJsonValue(inf) << "$.traffic.duration_s"
                                       << "must be a finite number, got infinity";
    QTest::newRow("weight -infinity")
        << "clients"
        << QJsonValue(QJsonObject{{QStringLiteral("count"), 2},
                                  {QStringLiteral("weights"), QJsonArray{1, -inf}}})
        << "$.traffic.clients.weights[1]"
        << "must be a finite number, got -infinity";
    QTest::newRow("clients NaN") << "clients" << QJsonValue(nan) << "$.traffic.clients"
                                 << "must be an integer from 1 to 10000, got NaN";
    QTest::newRow("seed infinite") << "seed" << QJsonValue(inf) << "$.traffic.seed"
                                   << "must be an integer from 0 to 9007199254740992, got "
                                      "infinity";
}

void TestScenarioErrors::nonFiniteNumbers() {
    QFETCH(QString, key);
    QFETCH(QJsonValue, value);
    QFETCH(QString, where);
    QFETCH(QString, message);

    // JSON text cannot hold them, but a QJsonObject built in code can.
    QJsonObject object = QJsonDocument::fromJson(doc(kConstant)).object();
    QJsonObject traffic = object.value(QStringLiteral("traffic")).toObject();
    traffic.insert(key, value);
    object.insert(QStringLiteral("traffic"), traffic);
    expectError([&] { parseScenario(object, QString()); }, where, message);
}

QTEST_GUILESS_MAIN(TestScenarioErrors)
#include "tst_scenario_errors.moc"
