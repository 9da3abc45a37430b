// Scenario files parsed: every valid form and what it means, written back as JSON and read again.
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

class TestScenario : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void parseValid_data();
    void parseValid();
    void replayAtTheRateCeiling();
    void roundTrip_data();
    void roundTrip();
    void toJsonFormat();

private:
    QTemporaryDir dir_;
};

void TestScenario::initTestCase() {
    QVERIFY(dir_.isValid());
    writeScenarioTraces(dir_.path());
}

void TestScenario::parseValid_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<Scenario>("expected");

    QTest::newRow("defaults") << doc(kConstant) << defaults();
    QTest::newRow("name") << withTop(R"("name": "fixed window boundary burst")")
                          << edited([](Scenario& s) {
                                 s.name = QStringLiteral("fixed window boundary burst");
                             });
    QTest::newRow("name outside ASCII") << withTop(
                                               "\"name\": \"\xC3\x9C"
                                               "berlast \xF0\x9F\x9A\x80\"")
                                        << edited([](Scenario& s) {
                                               s.name = QString::fromUtf8(
                                                   "\xC3\x9C"
                                                   "berlast \xF0\x9F\x9A\x80");
                                           });
    QTest::newRow("name first") << QByteArray(R"({"name": "n", "limiters": [)") + kApi +
                                       R"(], "traffic": {)" + kConstant + "}}"
                                << edited([](Scenario& s) { s.name = QStringLiteral("n"); });

    // Shapes.
    QTest::newRow("poisson") << withShape(R"({"type": "poisson", "rate": 0.5})")
                             << edited([](Scenario& s) {
                                    s.traffic.shape.type = ShapeSpec::Type::Poisson;
                                    s.traffic.shape.rate = 0.5;
                                });
    QTest::newRow("largest rate") << withShape(R"({"type": "constant", "rate": 1e6})")
                                  << edited([](Scenario& s) { s.traffic.shape.rate = 1e6; });
    QTest::newRow("linear from 0")
        << withShape(R"({"type": "linear", "from": 0, "to": 500})") << edited([](Scenario& s) {
               s.traffic.shape.type = ShapeSpec::Type::Linear;
               s.traffic.shape.rate = 0;
               s.traffic.shape.to = 500;
           });
    QTest::newRow("linear down to 0")
        << withShape(R"({"to": 0, "type": "linear", "from": 10})") << edited([](Scenario& s) {
               s.traffic.shape.type = ShapeSpec::Type::Linear;
               s.traffic.shape.rate = 0;
               s.traffic.shape.from = 10;
           });
    const auto sine = [](double mean, double amplitude, double periodS) {
        return edited([=](Scenario& s) {
            s.traffic.shape.type = ShapeSpec::Type::Sine;
            s.traffic.shape.rate = 0;
            s.traffic.shape.mean = mean;
            s.traffic.shape.amplitude = amplitude;
            s.traffic.shape.periodS = periodS;
        });
    };
    QTest::newRow("sine")
        << withShape(R"({"type": "sine", "mean": 100, "amplitude": 50, "period_s": 10})")
        << sine(100, 50, 10);
    QTest::newRow("sine without amplitude")
        << withShape(R"({"type": "sine", "mean": 3, "amplitude": 0, "period_s": 0.25})")
        << sine(3, 0, 0.25);
    QTest::newRow("sine amplitude equal to the mean")
        << withShape(R"({"type": "sine", "mean": 7.5, "amplitude": 7.5, "period_s": 86400})")
        << sine(7.5, 7.5, 86400);
    QTest::newRow("burst") << withShape(
                                  R"({"type": "burst", "rate": 5, "burst": 50, "every_s": 2})")
                           << edited([](Scenario& s) {
                                  s.traffic.shape.type = ShapeSpec::Type::Burst;
                                  s.traffic.shape.rate = 5;
                                  s.traffic.shape.burst = 50;
                                  s.traffic.shape.everyS = 2;
                              });
    const auto step = [](QVector<ShapeSpec::Stage> stages, double durationS) {
        return edited([=](Scenario& s) {
            s.traffic.shape.type = ShapeSpec::Type::Step;
            s.traffic.shape.rate = 0;
            s.traffic.shape.stages = stages;
            s.traffic.durationS = durationS;
        });
    };
    QTest::newRow("step lasts its stages")
        << doc(R"("shape": {"type": "step", "stages": [{"rate": 10, "duration_s": 5}, )"
               R"({"rate": 200, "duration_s": 5}]})")
        << step({{10, 5}, {200, 5}}, 10);
    QTest::newRow("step with an idle stage")
        << doc(R"("shape": {"type": "step", "stages": [{"rate": 0, "duration_s": 2}, )"
               R"({"duration_s": 1.5, "rate": 5}]})")
        << step({{0, 2}, {5, 1.5}}, 3.5);
    QTest::newRow("step with a duration")
        << doc(R"("shape": {"type": "step", "stages": [{"rate": 10, "duration_s": 5}, )"
               R"({"rate": 200, "duration_s": 5}]}, "duration_s": 4)")
        << step({{10, 5}, {200, 5}}, 4);

    const auto replay = [](const QString& path, QVector<TraceRow> rows, double durationS) {
        return edited([=](Scenario& s) {
            s.traffic.shape.type = ShapeSpec::Type::Replay;
            s.traffic.shape.rate = 0;
            s.traffic.tracePath = path;
            s.traffic.trace = rows;
            for (const TraceRow& row : rows) {
                s.traffic.shape.replayOffsetsMs.append(row.tMs - rows.first().tMs);
            }
            s.traffic.durationS = durationS;
        });
    };
    QTest::newRow("replay lasts its trace + 1 ms")
        << doc(R"("shape": {"type": "replay", "trace": "login.csv"})")
        << replay(QStringLiteral("login.csv"), loginRows(), 2.001);
    QTest::newRow("replay with a duration")
        << doc(R"("shape": {"type": "replay", "trace": "login.csv"}, "duration_s": 1)")
        << replay(QStringLiteral("login.csv"), loginRows(), 1);
    QTest::newRow("replay of one row in a sub folder")
        << doc(R"("shape": {"type": "replay", "trace": "traces/../traces/sub.csv"})")
        << replay(QStringLiteral("traces/../traces/sub.csv"), {{5, QStringLiteral("x"), 1, 1}},
                  0.001);
    const QString absolute = dir_.filePath(QStringLiteral("login.csv"));
    QTest::newRow("replay by absolute path")
        << doc(R"("shape": {"type": "replay", "trace": ")" + absolute.toUtf8() + "\"}")
        << replay(absolute, loginRows(), 2.001);
    QTest::newRow("replay with every other field")
        << doc(R"("shape": {"type": "replay", "trace": "login.csv"}, "threads": 2, )"
               R"("pipeline": 4, "mode": "wait", "timeout_ms": 50, "seed": 9)")
        << edited([&](Scenario& s) {
               s.traffic = replay(QStringLiteral("login.csv"), loginRows(), 2.001).traffic;
               s.traffic.threads = 2;
               s.traffic.pipeline = 4;
               s.traffic.mode = AcquireMode::Wait;
               s.traffic.timeoutMs = 50;
               s.traffic.seed = 9;
           });

    // Clients and permits.
    QTest::newRow("clients") << withTraffic(R"("clients": 4)")
                             << edited([](Scenario& s) { s.traffic.clients = 4; });
    QTest::newRow("clients as an integral double")
        << withTraffic(R"("clients": 4.0)") << edited([](Scenario& s) { s.traffic.clients = 4; });
    QTest::newRow("most clients") << withTraffic(R"("clients": 10000)")
                                  << edited([](Scenario& s) { s.traffic.clients = 10000; });
    QTest::newRow("clients with weights")
        << withTraffic(R"("clients": {"count": 4, "weights": [1, 1, 2, 4]})")
        << edited([](Scenario& s) {
               s.traffic.clients = 4;
               s.traffic.clientWeights = {1, 1, 2, 4};
           });
    QTest::newRow("weights with zeros")
        << withTraffic(R"("clients": {"weights": [0, 0.5, 0], "count": 3})")
        << edited([](Scenario& s) {
               s.traffic.clients = 3;
               s.traffic.clientWeights = {0, 0.5, 0};
           });
    QTest::newRow("clients object without weights")
        << withTraffic(R"("clients": {"count": 7})")
        << edited([](Scenario& s) { s.traffic.clients = 7; });
    QTest::newRow("permits") << withTraffic(R"("permits": 3)") << edited([](Scenario& s) {
        s.traffic.permitsMin = s.traffic.permitsMax = 3;
    });
    QTest::newRow("permits range") << withTraffic(R"("permits": {"min": 1, "max": 3})")
                                   << edited([](Scenario& s) { s.traffic.permitsMax = 3; });
    QTest::newRow("permits range of one value")
        << withTraffic(R"("permits": {"min": 2, "max": 2})")
        << edited([](Scenario& s) { s.traffic.permitsMin = s.traffic.permitsMax = 2; });
    QTest::newRow("most permits") << withTraffic(R"("permits": {"min": 5, "max": 1e9})")
                                  << edited([](Scenario& s) {
                                         s.traffic.permitsMin = 5;
                                         s.traffic.permitsMax = spec_limits::kMaxRate;
                                     });
    QTest::newRow("threads and pipeline")
        << withTraffic(R"("threads": 64, "pipeline": 1024)") << edited([](Scenario& s) {
               s.traffic.threads = 64;
               s.traffic.pipeline = 1024;
           });

    // Mode.
    QTest::newRow("try mode") << withTraffic(R"("mode": "try")") << defaults();
    QTest::newRow("wait mode") << withTraffic(R"("mode": "wait", "timeout_ms": 1000)")
                               << edited([](Scenario& s) {
                                      s.traffic.mode = AcquireMode::Wait;
                                      s.traffic.timeoutMs = 1000;
                                  });

    // Clock.
    const auto virtualClock = [](qint64 startMs, double speed) {
        return edited([=](Scenario& s) {
            s.traffic.clock.isVirtual = true;
            s.traffic.clock.startMs = startMs;
            s.traffic.clock.speed = speed;
        });
    };
    QTest::newRow("real clock") << withClock(R"("real")") << defaults();
    QTest::newRow("virtual clock with an offset")
        << withClock(R"({"type": "virtual", "start": "2024-03-10T01:59:58-05:00", "speed": 1})")
        << virtualClock(1710053998000, 1);
    QTest::newRow("virtual clock in UTC with ms, default speed")
        << withClock(R"({"type": "virtual", "start": "2024-01-01T00:00:00.900Z"})")
        << virtualClock(1704067200900, 1);
    QTest::newRow("virtual clock with a positive offset")
        << withClock(R"({"type": "virtual", "start": "2024-01-31T23:59:50+08:00", "speed": 0})")
        << virtualClock(1706716790000, 0);
    QTest::newRow("virtual clock in slow motion")
        << withClock(R"({"speed": 0.1, "type": "virtual", "start": "1970-01-01T00:00:00Z"})")
        << virtualClock(0, 0.1);
    QTest::newRow("virtual clock at top speed")
        << withClock(R"({"type": "virtual", "start": "2024-03-10T06:59:58Z", "speed": 1000})")
        << virtualClock(1710053998000, 1000);

    // Seed and buckets.
    QTest::newRow("seed 0") << withTraffic(R"("seed": 0)")
                            << edited([](Scenario& s) { s.traffic.seed = 0; });
    QTest::newRow("seed 2^53") << withTraffic(R"("seed": 9007199254740992)")
                               << edited([](Scenario& s) { s.traffic.seed = 1ULL << 53; });
    QTest::newRow("bucket_ms") << withTop(R"("bucket_ms": 250)")
                               << edited([](Scenario& s) { s.bucketMs = 250; });
    QTest::newRow("a million buckets")
        << doc(R"("shape": {"type": "constant", "rate": 1}, "duration_s": 1000)",
               R"(, "bucket_ms": 1)")
        << edited([](Scenario& s) {
               s.traffic.shape.rate = 1;
               s.traffic.durationS = 1000;
               s.bucketMs = 1;
           });
    // The memory budget (1 GiB by default): 16 threads x 1 limiter x 1,000,000 buckets of
    // counters is about 610 MiB, within it; a virtual clock runs one worker whatever threads say.
    QTest::newRow("a million buckets on 16 threads, within the memory budget")
        << doc(R"("shape": {"type": "constant", "rate": 1}, "duration_s": 1000, "threads": 16)",
               R"(, "bucket_ms": 1)")
        << edited([](Scenario& s) {
               s.traffic.shape.rate = 1;
               s.traffic.durationS = 1000;
               s.traffic.threads = 16;
               s.bucketMs = 1;
           });
    QTest::newRow("64 threads on a virtual clock run one worker: within the budget")
        << QByteArray(R"({"limiters": )") + manyLimiters(4) +
               R"(, "traffic": {"shape": {"type": "constant", "rate": 1}, "duration_s": 1000, )"
               R"("threads": 64, "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z", )"
               R"("speed": 0}}, "bucket_ms": 1})"
        << edited([](Scenario& s) {
               s.limiters.clear();
               for (int i = 0; i < 4; ++i) {
                   LimiterSpec spec = api();
                   spec.name = QStringLiteral("l%1").arg(i);
                   spec.rate = 1;
                   s.limiters.append(spec);
               }
               s.traffic.shape.rate = 1;
               s.traffic.durationS = 1000;
               s.traffic.threads = 64;
               s.traffic.clock.isVirtual = true;
               s.traffic.clock.startMs =
                   QDateTime(QDate(2024, 1, 1), QTime(0, 0), Qt::UTC).toMSecsSinceEpoch();
               s.traffic.clock.speed = 0;
               s.bucketMs = 1;
           });
    QTest::newRow("burst at the rate ceiling")
        << withShape(R"({"type": "burst", "rate": 1000, "burst": 999000, "every_s": 1})")
        << edited([](Scenario& s) {
               s.traffic.shape.type = ShapeSpec::Type::Burst;
               s.traffic.shape.rate = 1000;
               s.traffic.shape.burst = 999000;
               s.traffic.shape.everyS = 1;
           });
    QTest::newRow("longest run") << doc(R"("shape": {"type": "constant", "rate": 100}, )"
                                        R"("duration_s": 86400)")
                                 << edited([](Scenario& s) { s.traffic.durationS = 86400; });

    // Limiters.
    LimiterSpec quota;
    quota.type = LimiterType::FixedWindow;
    quota.name = QStringLiteral("quota");
    quota.scope = Scope::PerClient;
    quota.rate = 5;
    quota.interval = 1;
    quota.unit = CalendarUnit::Months;
    quota.timezone = "Asia/Shanghai";
    LimiterSpec login;
    login.type = LimiterType::SlidingWindow;
    login.name = QStringLiteral("login");
    login.rules = {{5, 1000}, {20, 60000}};
    QTest::newRow("three kinds of limiters")
        << withLimiters(QByteArray("[") + kApi +
                        R"(, {"type": "fixed_window", "name": "quota", "scope": "per_client", )"
                        R"("rate": 5, "interval": 1, "unit": "months", )"
                        R"("timezone": "Asia/Shanghai"}, {"type": "sliding_window", )"
                        R"("name": "login", "rules": [{"limit": 5, "window_ms": 1000}, )"
                        R"({"limit": 20, "window_ms": 60000}]}])")
        << edited([&](Scenario& s) {
               s.limiters = {api(), quota, login};
           });
    // Failure policies per limiter (on_error), kept through the scenario.
    QTest::newRow("limiters with failure policies")
        << withLimiters(R"([{"type": "token_bucket", "name": "e", "rate": 10, "interval_ms": 1000},
                            {"type": "token_bucket", "name": "o", "rate": 10, "interval_ms": 1000,
                             "on_error": "open"},
                            {"type": "token_bucket", "name": "c", "rate": 10, "interval_ms": 1000,
                             "on_error": "closed"}])")
        << edited([](Scenario& s) {
               LimiterSpec e = api();
               e.name = QStringLiteral("e");
               LimiterSpec o = e;
               o.name = QStringLiteral("o");
               o.onError = FailurePolicy::Open;
               LimiterSpec c = e;
               c.name = QStringLiteral("c");
               c.onError = FailurePolicy::Closed;
               s.limiters = {e, o, c};
           });
    QTest::newRow("16 limiters") << withLimiters(manyLimiters(16)) << edited([](Scenario& s) {
        s.limiters.clear();
        for (int i = 0; i < 16; ++i) {
            LimiterSpec spec = api();
            spec.name = QStringLiteral("l%1").arg(i);
            spec.rate = 1;
            s.limiters.append(spec);
        }
    });
    QTest::newRow("names differing in case")
        << withLimiters(QByteArray("[") + kApi +
                        R"(, {"type": "token_bucket", "name": "API", "rate": 10, )"
                        R"("interval_ms": 1000}])")
        << edited([](Scenario& s) {
               LimiterSpec upper = api();
               upper.name = QStringLiteral("API");
               s.limiters.append(upper);
           });

    // The example of the format, with every field.
    QTest::newRow("every field") << QByteArray(R"({
  "name": "fixed window boundary burst",
  "limiters": [)" + QByteArray(kApi) + R"(],
  "traffic": {
    "shape": {"type": "sine", "mean": 100, "amplitude": 50, "period_s": 10},
    "duration_s": 10,
    "clients": {"count": 4, "weights": [1, 1, 2, 4]},
    "threads": 2,
    "pipeline": 3,
    "permits": {"min": 1, "max": 3},
    "mode": "wait",
    "timeout_ms": 1000,
    "clock": {"type": "virtual", "start": "2024-03-10T01:59:58-05:00", "speed": 1},
    "seed": 42
  },
  "bucket_ms": 50
})") << edited([](Scenario& s) {
        s.name = QStringLiteral("fixed window boundary burst");
        s.traffic.shape.type = ShapeSpec::Type::Sine;
        s.traffic.shape.rate = 0;
        s.traffic.shape.mean = 100;
        s.traffic.shape.amplitude = 50;
        s.traffic.shape.periodS = 10;
        s.traffic.clients = 4;
        s.traffic.clientWeights = {1, 1, 2, 4};
        s.traffic.threads = 2;
        s.traffic.pipeline = 3;
        s.traffic.permitsMax = 3;
        s.traffic.mode = AcquireMode::Wait;
        s.traffic.timeoutMs = 1000;
        s.traffic.clock = {true, 1710053998000, 1};
        s.traffic.seed = 42;
        s.bucketMs = 50;
    });
}

void TestScenario::parseValid() {
    QFETCH(QByteArray, json);
    QFETCH(Scenario, expected);

    Scenario scenario;
    try {
        scenario = parseScenarioJson(json, dir_.path());
    } catch (const InputError& error) {
        QFAIL(qPrintable(QStringLiteral("refused: ") + error.message()));
    }
    compareScenarios(scenario, expected);
}

// A trace whose busiest second holds exactly the rate ceiling (1,000,000 requests) is accepted;
// one request more is refused (parseInvalid's "trace above the rate ceiling").
void TestScenario::replayAtTheRateCeiling() {
    const Scenario scenario = parseScenarioJson(
        doc(R"("shape": {"type": "replay", "trace": "ceiling.csv"})"), dir_.path());
    QCOMPARE(scenario.traffic.trace.size(), 1'000'000);
    QCOMPARE(scenario.traffic.shape.replayOffsetsMs.last(), 500);
}

void TestScenario::roundTrip_data() {
    parseValid_data();
}

void TestScenario::roundTrip() {
    QFETCH(QByteArray, json);

    const Scenario scenario = parseScenarioJson(json, dir_.path());
    const QJsonObject object = scenarioToJson(scenario);
    try {
        compareScenarios(parseScenario(object, dir_.path()), scenario);
        if (QTest::currentTestFailed()) {
            return;
        }
        // Through text too: every number survives printing.
        const QByteArray text = QJsonDocument(object).toJson();
        compareScenarios(parseScenarioJson(text, dir_.path()), scenario);
        if (QTest::currentTestFailed()) {
            return;
        }
    } catch (const InputError& error) {
        QFAIL(qPrintable(QStringLiteral("refused its own JSON: ") + error.message()));
    }

    // Defaults are written out.
    const QJsonObject traffic = object.value(QStringLiteral("traffic")).toObject();
    for (const char* key : {"name", "limiters", "traffic", "bucket_ms"}) {
        QVERIFY2(object.contains(QLatin1String(key)), key);
    }
    for (const char* key :
         {"shape", "duration_s", "threads", "pipeline", "mode", "clock", "seed"}) {
        QVERIFY2(traffic.contains(QLatin1String(key)), key);
    }
    const bool replay = scenario.traffic.shape.type == ShapeSpec::Type::Replay;
    QCOMPARE(traffic.contains(QStringLiteral("clients")), !replay);
    QCOMPARE(traffic.contains(QStringLiteral("permits")), !replay);
    QCOMPARE(traffic.contains(QStringLiteral("timeout_ms")),
             scenario.traffic.mode == AcquireMode::Wait);
}

void TestScenario::toJsonFormat() {
    const auto expect = [](const QByteArray& json) {
        return QJsonDocument::fromJson(json).object();
    };
    QCOMPARE(scenarioToJson(defaults()), expect(R"({"name": "scenario",
                        "limiters": [{"type": "token_bucket", "name": "api", "scope": "global",
                                      "rate": 10, "interval_ms": 1000}],
                        "traffic": {"shape": {"type": "constant", "rate": 100}, "duration_s": 10,
                                    "clients": 1, "threads": 1, "pipeline": 1, "permits": 1,
                                    "mode": "try", "clock": "real", "seed": 1},
                        "bucket_ms": 100})"));

    Scenario scenario = defaults();
    scenario.traffic.shape.type = ShapeSpec::Type::Step;
    scenario.traffic.shape.stages = {{0, 1.5}, {20, 2}};
    scenario.traffic.clients = 3;
    scenario.traffic.clientWeights = {0, 1, 2.5};
    scenario.traffic.permitsMin = 2;
    scenario.traffic.permitsMax = 4;
    scenario.traffic.mode = AcquireMode::Wait;
    scenario.traffic.timeoutMs = 250;
    scenario.traffic.clock = {true, 1710053998000, 0.5};
    scenario.traffic.seed = 1ULL << 53;
    QCOMPARE(scenarioToJson(scenario).value(QStringLiteral("traffic")).toObject(),
             expect(R"({"shape": {"type": "step", "stages": [{"rate": 0, "duration_s": 1.5},
                                                           {"rate": 20, "duration_s": 2}]},
                        "duration_s": 10, "clients": {"count": 3, "weights": [0, 1, 2.5]},
                        "threads": 1, "pipeline": 1, "permits": {"min": 2, "max": 4},
                        "mode": "wait", "timeout_ms": 250,
                        "clock": {"type": "virtual", "start": "2024-03-10T06:59:58.000Z",
                                  "speed": 0.5},
                        "seed": 9007199254740992})"));

    // A replay names its trace as it was given, and has neither clients nor permits.
    const Scenario replay = parseScenarioJson(
        doc(R"("shape": {"type": "replay", "trace": "traces/../login.csv"})"), dir_.path());
    QCOMPARE(scenarioToJson(replay).value(QStringLiteral("traffic")).toObject(),
             expect(R"({"shape": {"type": "replay", "trace": "traces/../login.csv"},
                        "duration_s": 2.001, "threads": 1, "pipeline": 1, "mode": "try",
                        "clock": "real", "seed": 1})"));
}

QTEST_GUILESS_MAIN(TestScenario)
#include "tst_scenario.moc"
