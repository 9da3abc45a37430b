// Scenario files: parsing, validation, writing, and the examples in resources/scenarios.

#include <QDateTime>
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
#include "support/test_files.h"

using namespace ratelab;
using ratelab::test::writeTestFile;

Q_DECLARE_METATYPE(ratelab::Scenario)

namespace {

constexpr char kApi[] =
    R"({"type": "token_bucket", "name": "api", "rate": 10, "interval_ms": 1000})";
constexpr char kConstant[] = R"("shape": {"type": "constant", "rate": 100}, "duration_s": 10)";

// {"limiters": [api], "traffic": {<traffic>}<top>}
QByteArray doc(const QByteArray& traffic, const QByteArray& top = QByteArray()) {
    return QByteArray(R"({"limiters": [)") + kApi + R"(], "traffic": {)" + traffic + '}' + top +
           '}';
}
// The constant shape with more traffic members.
QByteArray withTraffic(const QByteArray& more) {
    return doc(QByteArray(kConstant) + ", " + more);
}
// Another shape, 10 s long.
QByteArray withShape(const QByteArray& shape) {
    return doc(R"("shape": )" + shape + R"(, "duration_s": 10)");
}
// More top-level members.
QByteArray withTop(const QByteArray& top) {
    return doc(kConstant, ", " + top);
}
// Other limiters.
QByteArray withLimiters(const QByteArray& limiters) {
    return QByteArray(R"({"limiters": )") + limiters + R"(, "traffic": {)" + kConstant + "}}";
}
// A virtual clock.
QByteArray withClock(const QByteArray& clock) {
    return withTraffic(R"("clock": )" + clock);
}

QByteArray manyLimiters(int count) {
    QByteArray out = "[";
    for (int i = 0; i < count; ++i) {
        out += QStringLiteral(R"(%1{"type": "token_bucket", "name": "l%2", "rate": 1, )"
                              R"("interval_ms": 1000})")
                   .arg(i == 0 ? QString() : QStringLiteral(", "))
                   .arg(i)
                   .toUtf8();
    }
    return out + ']';
}

LimiterSpec api() {
    LimiterSpec spec;
    spec.type = LimiterType::TokenBucket;
    spec.name = QStringLiteral("api");
    spec.rate = 10;
    spec.intervalMs = 1000;
    return spec;
}

// What doc(kConstant) parses to: every default.
Scenario defaults() {
    Scenario scenario;
    scenario.name = QStringLiteral("scenario");
    scenario.limiters = {api()};
    scenario.traffic.shape.type = ShapeSpec::Type::Constant;
    scenario.traffic.shape.rate = 100;
    scenario.traffic.durationS = 10;
    return scenario;
}

Scenario edited(const std::function<void(Scenario&)>& edit) {
    Scenario scenario = defaults();
    edit(scenario);
    return scenario;
}

QStringList describe(const QVector<TraceRow>& rows) {
    QStringList out;
    for (const TraceRow& row : rows) {
        out << QStringLiteral("%1:%2|%3|%4")
                   .arg(row.line)
                   .arg(row.tMs)
                   .arg(row.client)
                   .arg(row.permits);
    }
    return out;
}

QStringList describe(const QVector<ShapeSpec::Stage>& stages) {
    QStringList out;
    for (const ShapeSpec::Stage& stage : stages) {
        out << QStringLiteral("%1/s for %2 s").arg(stage.rate).arg(stage.durationS);
    }
    return out;
}

// Every field; the caller checks QTest::currentTestFailed() if it goes on.
void compareScenarios(const Scenario& actual, const Scenario& expected) {
    QCOMPARE(actual.name, expected.name);
    QCOMPARE(actual.limiters, expected.limiters);
    QCOMPARE(actual.bucketMs, expected.bucketMs);

    const TrafficSpec& a = actual.traffic;
    const TrafficSpec& e = expected.traffic;
    QCOMPARE(int(a.shape.type), int(e.shape.type));
    QCOMPARE(a.shape.rate, e.shape.rate);
    QCOMPARE(a.shape.from, e.shape.from);
    QCOMPARE(a.shape.to, e.shape.to);
    QCOMPARE(a.shape.mean, e.shape.mean);
    QCOMPARE(a.shape.amplitude, e.shape.amplitude);
    QCOMPARE(a.shape.periodS, e.shape.periodS);
    QCOMPARE(a.shape.burst, e.shape.burst);
    QCOMPARE(a.shape.everyS, e.shape.everyS);
    QCOMPARE(describe(a.shape.stages), describe(e.shape.stages));
    QCOMPARE(a.shape.replayOffsetsMs, e.shape.replayOffsetsMs);
    QCOMPARE(a.tracePath, e.tracePath);
    QCOMPARE(describe(a.trace), describe(e.trace));
    QCOMPARE(a.durationS, e.durationS);
    QCOMPARE(a.clients, e.clients);
    QCOMPARE(a.clientWeights, e.clientWeights);
    QCOMPARE(a.threads, e.threads);
    QCOMPARE(a.pipeline, e.pipeline);
    QCOMPARE(a.permitsMin, e.permitsMin);
    QCOMPARE(a.permitsMax, e.permitsMax);
    QCOMPARE(int(a.mode), int(e.mode));
    QCOMPARE(a.timeoutMs, e.timeoutMs);
    QCOMPARE(a.clock.isVirtual, e.clock.isVirtual);
    QCOMPARE(a.clock.startMs, e.clock.startMs);
    QCOMPARE(a.clock.speed, e.clock.speed);
    QCOMPARE(a.seed, e.seed);
}

QVector<TraceRow> loginRows() {
    return {{1000, QStringLiteral("alice"), 1, 2},
            {1250, QStringLiteral("bob"), 2, 3},
            {3000, QStringLiteral("alice"), 1, 4}};
}

void expectError(const std::function<void()>& call, const QString& where, const QString& message) {
    try {
        call();
        QFAIL("accepted");
    } catch (const InputError& error) {
        QCOMPARE(error.where(), where);
        QVERIFY2(
            error.problem().contains(message),
            qPrintable(
                QStringLiteral("\"%1\" does not contain \"%2\"").arg(error.problem(), message)));
        QCOMPARE(error.message(), where + QStringLiteral(": ") + error.problem());
    }
}

}  // namespace

class TestScenario : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void parseValid_data();
    void parseValid();
    void parseInvalid_data();
    void parseInvalid();
    void nonFiniteNumbers_data();
    void nonFiniteNumbers();
    void roundTrip_data();
    void roundTrip();
    void toJsonFormat();
    void loadFile();
    void replayAtTheRateCeiling();
    void loadFileErrors();
    void loadBadFiles_data();
    void loadBadFiles();
    void examples_data();
    void examples();
    void exampleIntents();

private:
    QString examplesDir() const;

    QTemporaryDir dir_;
};

void TestScenario::initTestCase() {
    QVERIFY(dir_.isValid());
    const QByteArray login = "t_ms,client,permits\n1000,alice,1\n1250,bob,2\n3000,alice,1\n";
    writeTestFile(dir_.filePath(QStringLiteral("login.csv")), login);
    writeTestFile(dir_.filePath(QStringLiteral("traces/sub.csv")), "5,x,1\n");
    writeTestFile(dir_.filePath(QStringLiteral("bad.csv")), "0,a,1\n5,b,0\n");
    writeTestFile(dir_.filePath(QStringLiteral("empty.csv")), "t_ms,client,permits\n");
    writeTestFile(dir_.filePath(QStringLiteral("long.csv")), "0,a,1\n86400000,a,1\n");
    // Replay peaks: 1,000,000 requests within one second is the ceiling, one more is above it.
    QByteArray atCeiling;
    atCeiling.reserve(7'000'100);
    for (int i = 0; i < 1'000'000; ++i) {
        atCeiling += "500,a,1\n";
    }
    writeTestFile(dir_.filePath(QStringLiteral("ceiling.csv")), "0,a,1\n" + atCeiling.mid(8));
    writeTestFile(dir_.filePath(QStringLiteral("above-ceiling.csv")),
                  "0,a,1\n" + atCeiling + "2000,a,1\n");
}

QString TestScenario::examplesDir() const {
    const QString root = qEnvironmentVariable("RATELAB_SOURCE_DIR");
    if (!root.isEmpty()) {
        return QDir(root).filePath(QStringLiteral("resources/scenarios"));
    }
    return QFINDTESTDATA("../resources/scenarios");
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

void TestScenario::parseInvalid_data() {
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
    QTest::newRow("counters above the memory budget (issue 16)")
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

    QTest::newRow("burst above the rate ceiling (issue 16)")
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
                                     << R"(unknown clock type "real"; expected virtual)";
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
        << "must be a number from 0 (as fast as possible) to 1000, got -1";
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

void TestScenario::parseInvalid() {
    QFETCH(QByteArray, json);
    QFETCH(QString, where);
    QFETCH(QString, message);
    expectError([&] { parseScenarioJson(json, dir_.path()); }, where, message);
}

// A trace whose busiest second holds exactly the rate ceiling (1,000,000 requests) is accepted;
// one request more is refused (parseInvalid's "trace above the rate ceiling").
void TestScenario::replayAtTheRateCeiling() {
    const Scenario scenario = parseScenarioJson(
        doc(R"("shape": {"type": "replay", "trace": "ceiling.csv"})"), dir_.path());
    QCOMPARE(scenario.traffic.trace.size(), 1'000'000);
    QCOMPARE(scenario.traffic.shape.replayOffsetsMs.last(), 500);
}

void TestScenario::nonFiniteNumbers_data() {
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

void TestScenario::nonFiniteNumbers() {
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

void TestScenario::loadFile() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString folder = dir.filePath(QStringLiteral("scenarios"));
    writeTestFile(folder + QStringLiteral("/traces/t.csv"), "100,a,1\n400,b,3\n");

    // Without a name: the file's base name. The trace is found next to the scenario file.
    const QString unnamed = folder + QStringLiteral("/my.burst.json");
    writeTestFile(unnamed, doc(R"("shape": {"type": "replay", "trace": "traces/t.csv"})"));
    Scenario scenario;
    try {
        scenario = loadScenarioFile(unnamed);
    } catch (const InputError& error) {
        QFAIL(qPrintable(error.message()));
    }
    QCOMPARE(scenario.name, QStringLiteral("my.burst"));
    QCOMPARE(scenario.traffic.tracePath, QStringLiteral("traces/t.csv"));
    QCOMPARE(scenario.traffic.shape.replayOffsetsMs, (QVector<qint64>{0, 300}));
    QCOMPARE(scenario.traffic.durationS, 0.301);

    // A name in the file wins.
    const QString named = folder + QStringLiteral("/named.json");
    writeTestFile(named, withTop(R"("name": "given")"));
    QCOMPARE(loadScenarioFile(named).name, QStringLiteral("given"));

    // A relative path to the file works from the current folder.
    const QString previous = QDir::currentPath();
    QVERIFY(QDir::setCurrent(folder));
    try {
        scenario = loadScenarioFile(QStringLiteral("my.burst.json"));
    } catch (const InputError& error) {
        QDir::setCurrent(previous);
        QFAIL(qPrintable(error.message()));
    }
    QVERIFY(QDir::setCurrent(previous));
    QCOMPARE(scenario.traffic.trace.size(), 2);
}

void TestScenario::loadFileErrors() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto file = [&dir](const char* name, const QByteArray& data) {
        const QString path = dir.filePath(QLatin1String(name));
        writeTestFile(path, data);
        return path;
    };

    const QString missing = dir.filePath(QStringLiteral("missing.json"));
    expectError([&] { loadScenarioFile(missing); }, missing,
                QStringLiteral("cannot read the file"));
    const QString empty = file("empty.json", " \n\t\n");
    expectError([&] { loadScenarioFile(empty); }, empty, QStringLiteral("the file is empty"));
    const QString large = file("large.json", doc(kConstant) + QByteArray(1024 * 1024, ' '));
    expectError([&] { loadScenarioFile(large); }, large, QStringLiteral("larger than 1 MiB"));

    // Places inside the file get its name in front ...
    const QString malformed = file("malformed.json", "{\n  \"limiters\": [,\n}");
    expectError([&] { loadScenarioFile(malformed); },
                malformed + QStringLiteral(": line 2, column 16"),
                QStringLiteral("malformed JSON"));
    const QString field = file("field.json", withShape(R"({"type": "constant", "rate": 0})"));
    expectError([&] { loadScenarioFile(field); }, field + QStringLiteral(": $.traffic.shape.rate"),
                QStringLiteral("above 0"));
    const QString unnamed = file("noname.json", withTop(R"("name": "")"));
    expectError([&] { loadScenarioFile(unnamed); }, unnamed + QStringLiteral(": $.name"),
                QStringLiteral("must not be empty"));

    // ... but a trace's own errors name the trace file and line.
    const QString trace = file("bad.csv", "t_ms,client,permits\n10,a,1\n5,a,1\n");
    const QString replay =
        file("replay.json", doc(R"("shape": {"type": "replay", "trace": "bad.csv"})"));
    expectError([&] { loadScenarioFile(replay); }, trace + QStringLiteral(":3"),
                QStringLiteral("t_ms 5 is earlier than 10 on line 2"));
}

// Files refused whole: 100 MB (sparse: refused from its size, unread), deep nesting, binary.
void TestScenario::loadBadFiles_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<qint64>("size");    // > content size: the file is extended (sparse) to it
    QTest::addColumn<QString>("where");  // after "<path>: ", or empty when it is the path
    QTest::addColumn<QString>("message");

    const qint64 hundredMb = 100LL * 1024 * 1024;
    QTest::newRow("100 MB after a scenario")
        << doc(kConstant) << hundredMb << QString()
        << QStringLiteral(
               "the file is larger than 1 MiB (104857600 bytes); a scenario is a few "
               "dozen lines of JSON");
    QTest::newRow("100 MB of NULs") << QByteArray() << hundredMb << QString()
                                    << QStringLiteral("larger than 1 MiB (104857600 bytes)");
    QTest::newRow("empty") << QByteArray() << qint64(0) << QString()
                           << QStringLiteral("the file is empty");
    QTest::newRow("100000 nested arrays")
        << QByteArray(100000, '[') + QByteArray(100000, ']') << qint64(0)
        << QStringLiteral("line 1, column 1025")
        << QStringLiteral("JSON nested more than 1024 levels deep");
    QTest::newRow("100000 nested arrays as the traffic")
        << QByteArray(R"({"limiters": [)") + kApi + R"(], "traffic": )" + QByteArray(100000, '[') +
               QByteArray(100000, ']') + '}'
        << qint64(0) << QStringLiteral("line 1, column 1124")
        << QStringLiteral("JSON nested more than 1024 levels deep");
    QTest::newRow("binary garbage")
        << QByteArray("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 16) << qint64(0) << QStringLiteral("$")
        << QStringLiteral("expected a JSON object");
}

void TestScenario::loadBadFiles() {
    QFETCH(QByteArray, content);
    QFETCH(qint64, size);
    QFETCH(QString, where);
    QFETCH(QString, message);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("scenario.json"));
    writeTestFile(path, content, size);
    expectError([&] { loadScenarioFile(path); },
                where.isEmpty() ? path : path + QStringLiteral(": ") + where, message);
}

void TestScenario::examples_data() {
    QTest::addColumn<QString>("path");
    const QString folder = examplesDir();
    QVERIFY2(!folder.isEmpty() && QFileInfo(folder).isDir(), "resources/scenarios not found");
    const QStringList names =
        QDir(folder).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const char* expected :
         {"fixed-window-boundary-burst.json", "token-bucket-overall-vs-per-client.json",
          "login-poisson-attack.json", "month-quota-timezone.json"}) {
        QVERIFY2(names.contains(QLatin1String(expected)), expected);
    }
    for (const QString& name : names) {
        QTest::newRow(qPrintable(name)) << QDir(folder).filePath(name);
    }
}

void TestScenario::examples() {
    QFETCH(QString, path);
    Scenario scenario;
    try {
        scenario = loadScenarioFile(path);
    } catch (const InputError& error) {
        QFAIL(qPrintable(error.message()));
    }
    // Each names itself rather than relying on the file name.
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(QJsonDocument::fromJson(file.readAll()).object().contains(QStringLiteral("name")));
    QVERIFY(scenario.name != QFileInfo(path).completeBaseName());
}

// The examples demonstrate what their names promise.
void TestScenario::exampleIntents() {
    const QString folder = examplesDir();
    const auto load = [&folder](const char* name) {
        return loadScenarioFile(QDir(folder).filePath(QLatin1String(name)));
    };

    // A burst lands just before a second boundary and the next just after it.
    const Scenario boundary = load("fixed-window-boundary-burst.json");
    const TrafficSpec& burst = boundary.traffic;
    QCOMPARE(int(burst.shape.type), int(ShapeSpec::Type::Burst));
    QVERIFY(burst.clock.isVirtual);
    QCOMPARE(burst.clock.speed, 1.0);
    const qint64 boundaryMs = (burst.clock.startMs / 1000 + 1) * 1000;
    const qint64 secondBurstMs = burst.clock.startMs + qRound64(burst.shape.everyS * 1000);
    QVERIFY(secondBurstMs >= boundaryMs && secondBurstMs < boundaryMs + 1000);
    QCOMPARE(boundary.limiters.size(), 2);
    QCOMPARE(qint64(burst.shape.burst), boundary.limiters.first().rate);
    QCOMPARE(int(boundary.limiters.first().type), int(LimiterType::FixedWindow));
    QCOMPARE(int(boundary.limiters.last().type), int(LimiterType::SlidingWindow));

    const Scenario buckets = load("token-bucket-overall-vs-per-client.json");
    QCOMPARE(buckets.limiters.size(), 2);
    QCOMPARE(int(buckets.limiters[0].scope), int(Scope::Global));
    QCOMPARE(int(buckets.limiters[1].scope), int(Scope::PerClient));
    QCOMPARE(buckets.traffic.clients, 4);
    QCOMPARE(buckets.traffic.clientWeights.size(), 4);

    const Scenario login = load("login-poisson-attack.json");
    QCOMPARE(int(login.traffic.shape.type), int(ShapeSpec::Type::Poisson));
    QCOMPARE(int(login.limiters.first().scope), int(Scope::PerClient));
    QVERIFY(login.limiters.first().rules.size() >= 2);

    // The run crosses midnight of the 1st in Shanghai.
    const Scenario month = load("month-quota-timezone.json");
    QCOMPARE(month.limiters.first().timezone, QByteArray("Asia/Shanghai"));
    QCOMPARE(int(month.limiters.first().unit), int(CalendarUnit::Months));
    QCOMPARE(month.traffic.clock.speed, 0.0);
    const QTimeZone shanghai("Asia/Shanghai");
    const QDateTime start = QDateTime::fromMSecsSinceEpoch(month.traffic.clock.startMs, shanghai);
    const QDateTime end = start.addMSecs(qRound64(month.traffic.durationS * 1000));
    QVERIFY(start.date().month() != end.date().month());
    QCOMPARE(end.date().day(), 1);
}

QTEST_GUILESS_MAIN(TestScenario)
#include "tst_scenario.moc"
