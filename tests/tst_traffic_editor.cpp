// TrafficEditor: filling the form gives the expected traffic for every shape, invalid input is
// reported at its field with the parser's own message, the example scenarios round-trip, and the
// speed control stays within its range.
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "editors/traffic_editor.h"
#include "input_error.h"
#include "scenario/scenario.h"
#include "support/editor_widgets.h"

using namespace ratelab;

Q_DECLARE_METATYPE(ratelab::TrafficSpec)

namespace {

// What the editor holds before any edit.
TrafficSpec defaults() {
    TrafficSpec traffic;
    traffic.shape.type = ShapeSpec::Type::Constant;
    traffic.shape.rate = 10;
    traffic.durationS = 10;
    return traffic;
}

template <typename Edit>
TrafficSpec edited(Edit edit) {
    TrafficSpec traffic = defaults();
    edit(traffic);
    return traffic;
}

qint64 epochMs(const char* iso) {
    return QDateTime::fromString(QLatin1String(iso), Qt::ISODateWithMs).toMSecsSinceEpoch();
}

QString speedLabel(double speed) {
    return QString::number(speed, 'g', QLocale::FloatingPointShortest) + QLatin1Char('x');
}

// Every field of two traffic specs (TrafficSpec has no operator==).
void compareTraffic(const TrafficSpec& actual, const TrafficSpec& expected) {
    const ShapeSpec& a = actual.shape;
    const ShapeSpec& e = expected.shape;
    QCOMPARE(int(a.type), int(e.type));
    QCOMPARE(a.rate, e.rate);
    QCOMPARE(a.from, e.from);
    QCOMPARE(a.to, e.to);
    QCOMPARE(a.mean, e.mean);
    QCOMPARE(a.amplitude, e.amplitude);
    QCOMPARE(a.periodS, e.periodS);
    QCOMPARE(a.burst, e.burst);
    QCOMPARE(a.everyS, e.everyS);
    QCOMPARE(a.stages.size(), e.stages.size());
    for (int i = 0; i < a.stages.size(); ++i) {
        QCOMPARE(a.stages[i].rate, e.stages[i].rate);
        QCOMPARE(a.stages[i].durationS, e.stages[i].durationS);
    }
    QCOMPARE(a.replayOffsetsMs, e.replayOffsetsMs);
    QCOMPARE(actual.tracePath, expected.tracePath);
    QCOMPARE(actual.clockSkewMs, expected.clockSkewMs);
    QCOMPARE(actual.clientSkewMs, expected.clientSkewMs);
    QCOMPARE(actual.roundTripPerLimiter, expected.roundTripPerLimiter);
    // Kept as loaded, though the form has no field for them.
    QCOMPARE(int(actual.hold.type), int(expected.hold.type));
    QCOMPARE(actual.hold.ms, expected.hold.ms);
    QCOMPARE(actual.leakPct, expected.leakPct);
    QCOMPARE(actual.gateways.count, expected.gateways.count);
    QCOMPARE(int(actual.gateways.balance), int(expected.gateways.balance));
    QCOMPARE(actual.gateways.clockSkewMs, expected.gateways.clockSkewMs);
    QCOMPARE(actual.trace.size(), expected.trace.size());
    for (int i = 0; i < actual.trace.size(); ++i) {
        QCOMPARE(actual.trace[i].tMs, expected.trace[i].tMs);
        QCOMPARE(actual.trace[i].client, expected.trace[i].client);
        QCOMPARE(actual.trace[i].permits, expected.trace[i].permits);
        QCOMPARE(actual.trace[i].line, expected.trace[i].line);
    }
    QCOMPARE(actual.durationS, expected.durationS);
    QCOMPARE(actual.clients, expected.clients);
    QCOMPARE(actual.clientWeights, expected.clientWeights);
    QCOMPARE(actual.threads, expected.threads);
    QCOMPARE(actual.pipeline, expected.pipeline);
    QCOMPARE(actual.permitsMin, expected.permitsMin);
    QCOMPARE(actual.permitsMax, expected.permitsMax);
    QCOMPARE(int(actual.mode), int(expected.mode));
    QCOMPARE(actual.timeoutMs, expected.timeoutMs);
    QCOMPARE(actual.clock.isVirtual, expected.clock.isVirtual);
    QCOMPARE(actual.clock.startMs, expected.clock.startMs);
    QCOMPARE(actual.clock.speed, expected.clock.speed);
    QCOMPARE(actual.seed, expected.seed);
    QCOMPARE(actual.groups.size(), expected.groups.size());
    for (int i = 0; i < actual.groups.size(); ++i) {
        QCOMPARE(actual.groups[i].name, expected.groups[i].name);
        QCOMPARE(actual.groups[i].clients, expected.groups[i].clients);
        QCOMPARE(int(actual.groups[i].shape.type), int(expected.groups[i].shape.type));
        QCOMPARE(actual.groups[i].shape.rate, expected.groups[i].shape.rate);
    }
}

QStringList list(std::initializer_list<const char*> items) {
    QStringList out;
    for (const char* item : items) {
        out << QString::fromUtf8(item);
    }
    return out;
}

// Sets the stage table to "rate:duration;rate:duration" through its buttons and cells.
void setStages(TrafficEditor& editor, QTableWidget* table, const QString& value) {
    const QStringList stages = value.split(QLatin1Char(';'));
    auto* add = editor.findChild<QPushButton*>(QStringLiteral("addStage"));
    auto* remove = editor.findChild<QPushButton*>(QStringLiteral("removeStage"));
    QVERIFY(add && remove);
    while (table->rowCount() < stages.size()) {
        add->click();
    }
    while (table->rowCount() > stages.size()) {
        table->setCurrentCell(table->rowCount() - 1, 0);
        remove->click();
    }
    for (int row = 0; row < stages.size(); ++row) {
        const QStringList cells = stages[row].split(QLatin1Char(':'));
        QCOMPARE(cells.size(), 2);
        for (int column = 0; column < 2; ++column) {
            table->item(row, column)->setText(cells[column]);
        }
    }
}

// Applies "objectName=value" edits as a user would make them: line edits are typed into.
void apply(TrafficEditor& editor, const QStringList& edits) {
    for (const QString& edit : edits) {
        const qsizetype equals = edit.indexOf(QLatin1Char('='));
        QVERIFY2(equals > 0, qPrintable(edit));
        const QString name = edit.left(equals);
        const QString value = edit.mid(equals + 1);
        auto* widget = editor.findChild<QWidget*>(name);
        QVERIFY2(widget, qPrintable(QStringLiteral("no field ") + name));
        QVERIFY2(widget->isEnabled(), qPrintable(name + QStringLiteral(" is disabled")));
        if (auto* slider = qobject_cast<QSlider*>(widget)) {
            slider->setValue(value.toInt());
        } else if (auto* table = qobject_cast<QTableWidget*>(widget)) {
            setStages(editor, table, value);
        } else {
            test::typeInto(widget, value);
        }
        if (QTest::currentTestFailed()) {
            return;
        }
    }
}

void apply(TrafficEditor& editor, std::initializer_list<const char*> edits) {
    apply(editor, list(edits));
}

// Validity flips alternate, starting from valid: false, true, false, ...
void checkFlips(const QSignalSpy& spy) {
    for (int i = 0; i < spy.count(); ++i) {
        QCOMPARE(spy.at(i).at(0).toBool(), i % 2 == 1);
    }
}

}  // namespace

class TestTrafficEditor : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void startsValid();
    void shapes_data();
    void shapes();
    void invalid_data();
    void invalid();
    void roundTrip_data();
    void roundTrip();
    void setTrafficLeavesInvalidState();
    void trafficChangedOnEveryEdit();
    void timeoutOnlyForWait();
    void replayTakesClientsFromTrace();
    void stageButtons();
    void speedSlider();
    void asFastAsPossible();
    void speedKeptExactly();
    void clockNotCarriedOver();
    void errorFollowsPalette();

private:
    QString examplesDir() const;
    QString tracePath() const { return dir_.filePath(QStringLiteral("login.csv")); }

    QTemporaryDir dir_;
};

void TestTrafficEditor::initTestCase() {
    QVERIFY(dir_.isValid());
    QFile file(tracePath());
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("t_ms,client,permits\n1000,alice,1\n1250,bob,2\n3000,alice,1\n");
}

QString TestTrafficEditor::examplesDir() const {
    const QString root = qEnvironmentVariable("RATELAB_SOURCE_DIR");
    if (!root.isEmpty()) {
        return QDir(root).filePath(QStringLiteral("resources/scenarios"));
    }
    return QFINDTESTDATA("../resources/scenarios");
}

void TestTrafficEditor::startsValid() {
    TrafficEditor editor;
    QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
    QVERIFY(editor.errorText().isEmpty());
    QVERIFY(editor.findChild<QLabel*>(QStringLiteral("error"))->isHidden());
    QVERIFY(editor.traffic().has_value());
    compareTraffic(*editor.traffic(), defaults());
    QCOMPARE(editor.bucketMs(), qint64(100));
    QCOMPARE(editor.speed(), 1.0);
    for (const char* name :
         {"shape",   "rate",    "from",    "to",       "mean",       "amplitude",
          "period",  "burst",   "every",   "stages",   "trace",      "duration",
          "clients", "weights", "threads", "pipeline", "permitsMin", "permitsMax",
          "mode",    "timeout", "clock",   "start",    "speed",      "asFastAsPossible",
          "seed",    "bucketMs"}) {
        QVERIFY2(editor.findChild<QWidget*>(QLatin1String(name)), name);
    }
}

void TestTrafficEditor::shapes_data() {
    QTest::addColumn<QStringList>("edits");
    QTest::addColumn<TrafficSpec>("expected");
    QTest::addColumn<qint64>("bucketMs");

    QTest::newRow("constant") << list({"shape=constant", "rate=50", "duration=5"})
                              << edited([](TrafficSpec& t) {
                                     t.shape.rate = 50;
                                     t.durationS = 5;
                                 })
                              << qint64(100);
    QTest::newRow("poisson, weighted clients")
        << list({"shape=poisson", "rate=12.5", "clients=4", "weights=1, 1, 2, 4", "seed=42"})
        << edited([](TrafficSpec& t) {
               t.shape.type = ShapeSpec::Type::Poisson;
               t.shape.rate = 12.5;
               t.clients = 4;
               t.clientWeights = {1, 1, 2, 4};
               t.seed = 42;
           })
        << qint64(100);
    QTest::newRow("linear, threads and pipeline")
        << list({"shape=linear", "from=0", "to=100", "duration=20", "threads=4", "pipeline=8"})
        << edited([](TrafficSpec& t) {
               t.shape = ShapeSpec();
               t.shape.type = ShapeSpec::Type::Linear;
               t.shape.from = 0;
               t.shape.to = 100;
               t.durationS = 20;
               t.threads = 4;
               t.pipeline = 8;
           })
        << qint64(100);
    QTest::newRow("sine, permits range")
        << list({"shape=sine", "mean=20", "amplitude=15", "period=6", "permitsRange=on",
                 "permitsMin=1", "permitsMax=3"})
        << edited([](TrafficSpec& t) {
               t.shape = ShapeSpec();
               t.shape.type = ShapeSpec::Type::Sine;
               t.shape.mean = 20;
               t.shape.amplitude = 15;
               t.shape.periodS = 6;
               t.permitsMin = 1;
               t.permitsMax = 3;
           })
        << qint64(100);
    QTest::newRow("burst, wait mode") << list({"shape=burst", "rate=0.5", "burst=10", "every=0.2",
                                               "mode=wait", "timeout=250", "bucketMs=50"})
                                      << edited([](TrafficSpec& t) {
                                             t.shape.type = ShapeSpec::Type::Burst;
                                             t.shape.rate = 0.5;
                                             t.shape.burst = 10;
                                             t.shape.everyS = 0.2;
                                             t.mode = AcquireMode::Wait;
                                             t.timeoutMs = 250;
                                         })
                                      << qint64(50);
    QTest::newRow("step, natural length, virtual clock as fast as possible")
        << list({"shape=step", "stages=5:2;0:1;20:3", "duration=", "clock=virtual",
                 "start=2024-01-31T23:59:50+08:00", "asFastAsPossible=on"})
        << edited([](TrafficSpec& t) {
               t.shape = ShapeSpec();
               t.shape.type = ShapeSpec::Type::Step;
               t.shape.stages = {{5, 2}, {0, 1}, {20, 3}};
               t.durationS = 6;
               t.clock.isVirtual = true;
               t.clock.startMs = epochMs("2024-01-31T15:59:50Z");
               t.clock.speed = 0;
           })
        << qint64(100);
    QTest::newRow("step, explicit length")
        << list({"shape=step", "stages=5:2", "duration=1.5"}) << edited([](TrafficSpec& t) {
               t.shape = ShapeSpec();
               t.shape.type = ShapeSpec::Type::Step;
               t.shape.stages = {{5, 2}};
               t.durationS = 1.5;
           })
        << qint64(100);
    const QString trace = tracePath();
    QTest::newRow("replay") << (list({"shape=replay"})
                                << QStringLiteral("trace=") + trace << QStringLiteral("duration="))
                            << edited([&trace](TrafficSpec& t) {
                                   t.shape = ShapeSpec();
                                   t.shape.type = ShapeSpec::Type::Replay;
                                   t.shape.replayOffsetsMs = {0, 250, 2000};
                                   t.tracePath = trace;
                                   t.trace = {{1000, QStringLiteral("alice"), 1, 2},
                                              {1250, QStringLiteral("bob"), 2, 3},
                                              {3000, QStringLiteral("alice"), 1, 4}};
                                   t.durationS = 2.001;
                               })
                            << qint64(100);
    QTest::newRow("virtual clock with the slider")
        << list({"clock=virtual", "start=2024-03-10T01:59:58.250-05:00", "speed=0"})
        << edited([](TrafficSpec& t) {
               t.clock.isVirtual = true;
               t.clock.startMs = epochMs("2024-03-10T06:59:58.250Z");
               t.clock.speed = 0.05;
           })
        << qint64(100);
}

void TestTrafficEditor::shapes() {
    QFETCH(QStringList, edits);
    QFETCH(TrafficSpec, expected);
    QFETCH(qint64, bucketMs);

    TrafficEditor editor;
    apply(editor, edits);
    if (QTest::currentTestFailed()) {
        return;
    }
    QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
    QVERIFY(editor.errorText().isEmpty());
    const std::optional<TrafficSpec> traffic = editor.traffic();
    QVERIFY(traffic.has_value());
    compareTraffic(*traffic, expected);
    QCOMPARE(editor.bucketMs(), bucketMs);
}

void TestTrafficEditor::invalid_data() {
    QTest::addColumn<QStringList>("setup");  // valid
    QTest::addColumn<QStringList>("edits");  // make it invalid
    QTest::addColumn<QString>("field");      // the marked field, with the error under it
    QTest::addColumn<QString>("where");      // the error's place (a JSON path or the trace)
    QTest::addColumn<QString>("problem");    // part of the parser's message
    QTest::addColumn<QStringList>("fix");

    using Edits = std::initializer_list<const char*>;
    const auto row = [](const char* name, Edits setup, Edits edits, const char* field,
                        const QString& where, const QString& problem, Edits fix) {
        QTest::newRow(name) << list(setup) << list(edits) << QString::fromLatin1(field) << where
                            << problem << list(fix);
    };
    const QString rate = QStringLiteral("$.traffic.shape.rate");
    row("rate 0", {}, {"rate=0"}, "rate", rate,
        QStringLiteral("must be a rate above 0 and at most 1000000 requests/s, got 0"),
        {"rate=10"});
    row("rate -5", {}, {"rate=-5"}, "rate", rate, QStringLiteral("got -5"), {"rate=7"});
    row("rate abc", {}, {"rate=abc"}, "rate", rate,
        QStringLiteral("must be a number, got \"abc\" (a string)"), {"rate=1e3"});
    row("poisson rate empty", {"shape=poisson"}, {"rate="}, "rate", rate, QStringLiteral("missing"),
        {"rate=3"});
    row("duration empty", {}, {"duration="}, "duration", QStringLiteral("$.traffic.duration_s"),
        QStringLiteral("missing"), {"duration=2"});
    row("duration too long", {}, {"duration=86401"}, "duration",
        QStringLiteral("$.traffic.duration_s"), QStringLiteral("at most 86400, got 86401"),
        {"duration=86400"});
    row("weights count mismatch", {"clients=3"}, {"weights=1, 2"}, "weights",
        QStringLiteral("$.traffic.clients.weights"),
        QStringLiteral("has 2 weights for 3 clients; expected one per client"),
        {"weights=1, 2, 4"});
    row("weight not a number", {"clients=3"}, {"weights=1, x, 2"}, "weights",
        QStringLiteral("$.traffic.clients.weights[1]"),
        QStringLiteral("must be a number, got \"x\" (a string)"), {"weights=1, 0, 2"});
    row("clients 0", {}, {"clients=0"}, "clients", QStringLiteral("$.traffic.clients"),
        QStringLiteral("must be an integer from 1 to 10000, got 0"), {"clients=2"});
    row("amplitude above mean", {"shape=sine", "mean=10", "amplitude=5"}, {"amplitude=20"},
        "amplitude", QStringLiteral("$.traffic.shape.amplitude"),
        QStringLiteral("must be from 0 to the mean (10), got 20"), {"amplitude=10"});
    row("period 0", {"shape=sine"}, {"period=0"}, "period",
        QStringLiteral("$.traffic.shape.period_s"), QStringLiteral("above 0"), {"period=3"});
    row("linear sends nothing", {"shape=linear"}, {"from=0", "to=0"}, "to",
        QStringLiteral("$.traffic.shape.to"), QStringLiteral("from and to are both 0"), {"from=1"});
    row("burst 0", {"shape=burst"}, {"burst=0"}, "burst", QStringLiteral("$.traffic.shape.burst"),
        QStringLiteral("must be an integer from 1 to 1000000, got 0"), {"burst=5"});
    row("every empty", {"shape=burst"}, {"every="}, "every",
        QStringLiteral("$.traffic.shape.every_s"), QStringLiteral("missing"), {"every=0.5"});
    row("stage rate empty", {"shape=step"}, {"stages=10:5;:5"}, "stages",
        QStringLiteral("$.traffic.shape.stages[1].rate"), QStringLiteral("missing"),
        {"stages=10:5;20:5"});
    const QString missing = dir_.filePath(QStringLiteral("missing.csv"));
    const QString trace = QStringLiteral("trace=") + tracePath();
    QTest::newRow("trace missing")
        << (list({"shape=replay"}) << trace) << QStringList{QStringLiteral("trace=") + missing}
        << QStringLiteral("trace") << missing << QStringLiteral("cannot read the file")
        << QStringList{trace};
    row("wait mode without timeout", {"mode=wait"}, {"timeout="}, "timeout",
        QStringLiteral("$.traffic.timeout_ms"),
        QStringLiteral("missing: required when mode is \"wait\""), {"timeout=500"});
    row("permits min above max", {"permitsRange=on"}, {"permitsMin=5", "permitsMax=3"},
        "permitsMax", QStringLiteral("$.traffic.permits.max"),
        QStringLiteral("must be at least min (5), got 3"), {"permitsMax=8"});
    row("permits 1.5", {}, {"permitsMin=1.5"}, "permitsMin", QStringLiteral("$.traffic.permits"),
        QStringLiteral("must be an integer from 1 to 1000000000, got 1.5"), {"permitsMin=2"});
    row("threads 0", {}, {"threads=0"}, "threads", QStringLiteral("$.traffic.threads"),
        QStringLiteral("must be an integer from 1 to 64, got 0"), {"threads=8"});
    row("pipeline empty", {}, {"pipeline="}, "pipeline", QStringLiteral("$.traffic.pipeline"),
        QStringLiteral("must be an integer, got \"\" (a string)"), {"pipeline=16"});
    row("seed -1", {}, {"seed=-1"}, "seed", QStringLiteral("$.traffic.seed"),
        QStringLiteral("must be an integer from 0 to 9007199254740992, got -1"), {"seed=0"});
    row("start without offset", {"clock=virtual"}, {"start=2024-01-01T00:00:00"}, "start",
        QStringLiteral("$.traffic.clock.start"),
        QStringLiteral("must be an ISO 8601 date and time with an offset or Z"),
        {"start=2024-01-01T00:00:00Z"});
    row("bucket 0", {}, {"bucketMs=0"}, "bucketMs", QStringLiteral("$.bucket_ms"),
        QStringLiteral("must be an integer from 1 to 86400000, got 0"), {"bucketMs=10"});
    row("too many buckets", {"duration=86400"}, {"bucketMs=1"}, "bucketMs",
        QStringLiteral("$.bucket_ms"), QStringLiteral("make 86400000 buckets"), {"bucketMs=100"});
}

void TestTrafficEditor::invalid() {
    QFETCH(QStringList, setup);
    QFETCH(QStringList, edits);
    QFETCH(QString, field);
    QFETCH(QString, where);
    QFETCH(QString, problem);
    QFETCH(QStringList, fix);

    TrafficEditor editor;
    editor.resize(480, 1600);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    apply(editor, setup);
    if (QTest::currentTestFailed()) {
        return;
    }
    QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
    auto* widget = editor.findChild<QWidget*>(field);
    auto* error = editor.findChild<QLabel*>(QStringLiteral("error"));
    QVERIFY(widget && error);
    QSignalSpy validity(&editor, &TrafficEditor::validityChanged);

    apply(editor, edits);
    if (QTest::currentTestFailed()) {
        return;
    }
    QVERIFY(!editor.isValid());
    QVERIFY(!editor.traffic().has_value());
    const QString text = editor.errorText();
    QVERIFY2(text.startsWith(where + QStringLiteral(": ")), qPrintable(text));
    QVERIFY2(text.contains(problem), qPrintable(text));
    QVERIFY(!validity.isEmpty());
    checkFlips(validity);
    QCOMPARE(validity.last().at(0).toBool(), false);

    // Shown in red under its field, which is marked.
    QCOMPARE(error->text(), text);
    QVERIFY(error->isVisible());
    QVERIFY2(test::isRightUnder(error, widget), qPrintable(field));
    QVERIFY(widget->property("invalid").toBool());
    QTRY_VERIFY(error->mapTo(&editor, QPoint(0, 0)).y() >=
                widget->mapTo(&editor, QPoint(0, widget->height())).y());

    apply(editor, fix);
    if (QTest::currentTestFailed()) {
        return;
    }
    QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
    QVERIFY(editor.traffic().has_value());
    QVERIFY(editor.errorText().isEmpty());
    QVERIFY(error->isHidden());
    QVERIFY(!widget->property("invalid").toBool());
    checkFlips(validity);
    QCOMPARE(validity.last().at(0).toBool(), true);
}

void TestTrafficEditor::roundTrip_data() {
    QTest::addColumn<TrafficSpec>("traffic");
    QTest::addColumn<qint64>("bucketMs");

    const QDir dir(examplesDir());
    const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    QVERIFY2(!files.isEmpty(), qPrintable(dir.path()));
    for (const QString& file : files) {
        try {
            const Scenario scenario = loadScenarioFile(dir.filePath(file));
            QTest::newRow(qPrintable(file)) << scenario.traffic << scenario.bucketMs;
        } catch (const InputError& error) {
            QFAIL(qPrintable(error.message()));
        }
    }

    // What the examples do not cover: steps, replays, ranges, wait mode, speeds, round trips.
    const QString replay = QStringLiteral(
                               R"({"limiters": [{"type": "token_bucket", "name": "x", "rate": 1,
        "interval_ms": 1000}], "traffic": {"shape": {"type": "replay", "trace": "%1"},
        "duration_s": 4.5, "mode": "wait", "timeout_ms": 800, "threads": 3, "pipeline": 4,
        "clock": {"type": "virtual", "start": "2024-03-10T01:59:58.123-05:00", "speed": 500},
        "seed": 9007199254740992}, "bucket_ms": 7})")
                               .arg(tracePath());
    const QString step = QStringLiteral(
        R"({"limiters": [{"type": "token_bucket", "name": "x", "rate": 1, "interval_ms": 1000}],
        "traffic": {"shape": {"type": "step", "stages": [{"rate": 0.1, "duration_s": 0.3},
        {"rate": 0, "duration_s": 1.7}, {"rate": 250, "duration_s": 2}]},
        "clients": {"count": 3, "weights": [0.5, 0, 1e-3]}, "permits": {"min": 2, "max": 5},
        "clock": {"type": "virtual", "start": "1970-01-01T00:00:00Z", "speed": 0.01}}})");
    const QString natural =
        QStringLiteral(
            R"({"limiters": [{"type": "token_bucket", "name": "x", "rate": 1, "interval_ms": 1000}],
        "traffic": {"shape": {"type": "replay", "trace": "%1"}, "round_trips": "per_limiter"}})")
            .arg(tracePath());
    for (const auto& [name, json] : {std::pair{"replay, wait, speed 500", replay},
                                     std::pair{"step, weights, permits range", step},
                                     std::pair{"replay, natural length, per_limiter", natural}}) {
        try {
            const Scenario scenario = parseScenarioJson(json.toUtf8(), QString());
            QTest::newRow(name) << scenario.traffic << scenario.bucketMs;
        } catch (const InputError& error) {
            QFAIL(qPrintable(error.message()));
        }
    }
}

void TestTrafficEditor::roundTrip() {
    QFETCH(TrafficSpec, traffic);
    QFETCH(qint64, bucketMs);

    // Start elsewhere, so that every field has to be filled.
    TrafficEditor editor;
    apply(editor, {"shape=linear", "from=3", "to=4", "mode=wait", "timeout=5", "clock=virtual",
                   "asFastAsPossible=on", "permitsRange=on", "permitsMax=9", "seed=77"});
    QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
    QSignalSpy validity(&editor, &TrafficEditor::validityChanged);
    QSignalSpy changed(&editor, &TrafficEditor::trafficChanged);

    editor.setTraffic(traffic, bucketMs);
    QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
    QCOMPARE(validity.count(), 0);  // never invalid on the way
    QCOMPARE(changed.count(), 1);
    QVERIFY(editor.traffic().has_value());
    compareTraffic(*editor.traffic(), traffic);
    QCOMPARE(editor.bucketMs(), bucketMs);
    if (traffic.clock.isVirtual) {
        QCOMPARE(editor.speed(), traffic.clock.speed);
        QCOMPARE(editor.findChild<QCheckBox*>(QStringLiteral("asFastAsPossible"))->isChecked(),
                 traffic.clock.speed == 0);
    }

    // Again from its own state: nothing changes.
    editor.setTraffic(*editor.traffic(), editor.bucketMs());
    compareTraffic(*editor.traffic(), traffic);
}

void TestTrafficEditor::setTrafficLeavesInvalidState() {
    TrafficEditor editor;
    apply(editor, {"rate=abc"});
    QVERIFY(!editor.isValid());
    QSignalSpy validity(&editor, &TrafficEditor::validityChanged);
    editor.setTraffic(defaults(), 250);
    QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
    QCOMPARE(validity.count(), 1);
    QCOMPARE(validity.at(0).at(0).toBool(), true);
    QVERIFY(editor.findChild<QLabel*>(QStringLiteral("error"))->isHidden());
    QCOMPARE(editor.bucketMs(), qint64(250));
}

void TestTrafficEditor::trafficChangedOnEveryEdit() {
    TrafficEditor editor;
    QSignalSpy changed(&editor, &TrafficEditor::trafficChanged);
    editor.findChild<QLineEdit*>(QStringLiteral("rate"))->setText(QStringLiteral("11"));
    QCOMPARE(changed.count(), 1);
    editor.findChild<QLineEdit*>(QStringLiteral("rate"))->setText(QStringLiteral("x"));
    QCOMPARE(changed.count(), 2);
    editor.findChild<QComboBox*>(QStringLiteral("shape"))->setCurrentIndex(1);
    QCOMPARE(changed.count(), 3);
    editor.findChild<QCheckBox*>(QStringLiteral("permitsRange"))->setChecked(true);
    QCOMPARE(changed.count(), 4);
    editor.findChild<QLineEdit*>(QStringLiteral("bucketMs"))->setText(QStringLiteral("20"));
    QCOMPARE(changed.count(), 5);
}

void TestTrafficEditor::timeoutOnlyForWait() {
    TrafficEditor editor;
    auto* timeout = editor.findChild<QLineEdit*>(QStringLiteral("timeout"));
    QVERIFY(!timeout->isEnabled());
    apply(editor, {"mode=wait"});
    QVERIFY(timeout->isEnabled());
    QCOMPARE(int(editor.traffic()->mode), int(AcquireMode::Wait));
    apply(editor, {"mode=try"});
    QVERIFY(!timeout->isEnabled());
    QCOMPARE(editor.traffic()->timeoutMs, qint64(0));
}

void TestTrafficEditor::replayTakesClientsFromTrace() {
    TrafficEditor editor;
    apply(editor, list({"shape=replay"}) << QStringLiteral("trace=") + tracePath());
    QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
    for (const char* name : {"clients", "weights", "permitsMin", "permitsMax"}) {
        QVERIFY2(!editor.findChild<QWidget*>(QLatin1String(name))->isEnabled(), name);
    }
    QCOMPARE(editor.traffic()->trace.size(), 3);
    apply(editor, {"shape=constant"});
    QVERIFY(editor.findChild<QWidget*>(QStringLiteral("clients"))->isEnabled());
}

void TestTrafficEditor::stageButtons() {
    TrafficEditor editor;
    apply(editor, {"shape=step"});
    QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
    const int before = editor.traffic()->shape.stages.size();
    QSignalSpy changed(&editor, &TrafficEditor::trafficChanged);
    editor.findChild<QPushButton*>(QStringLiteral("addStage"))->click();
    QCOMPARE(changed.count(), 1);
    QCOMPARE(editor.traffic()->shape.stages.size(), before + 1);
    editor.findChild<QPushButton*>(QStringLiteral("removeStage"))->click();
    QCOMPARE(editor.traffic()->shape.stages.size(), before);
    while (editor.findChild<QTableWidget*>(QStringLiteral("stages"))->rowCount() > 0) {
        editor.findChild<QPushButton*>(QStringLiteral("removeStage"))->click();
    }
    QVERIFY(!editor.isValid());
    QVERIFY(editor.errorText().startsWith(QStringLiteral("$.traffic.shape.stages: ")));
}

void TestTrafficEditor::speedSlider() {
    constexpr double kMaxSpeed = ratelab::scenario_limits::kMaxSpeed;
    TrafficEditor editor;
    apply(editor, {"clock=virtual"});
    auto* slider = editor.findChild<QSlider*>(QStringLiteral("speed"));
    auto* label = editor.findChild<QLabel*>(QStringLiteral("speedValue"));
    QVERIFY(slider && label && slider->isEnabled());
    QSignalSpy speeds(&editor, &TrafficEditor::speedChanged);

    // Every position the slider can take, both ends included.
    slider->setValue(slider->minimum());
    speeds.clear();
    double previous = 0;
    for (int position = slider->minimum(); position <= slider->maximum(); ++position) {
        slider->setValue(position);
        if (position == slider->minimum()) {
            continue;  // already there: no change
        }
        QCOMPARE(speeds.count(), position - slider->minimum());
        const double speed = speeds.last().at(0).toDouble();
        QVERIFY2(speed >= 0.05 && speed <= kMaxSpeed, qPrintable(QString::number(speed)));
        QVERIFY(speed >= previous);
        QCOMPARE(editor.speed(), speed);
        previous = speed;
    }
    // The slider reaches the parser's limit (not less: a scenario file may use it).
    QCOMPARE(editor.speed(), kMaxSpeed);
    QCOMPARE(label->text(), speedLabel(kMaxSpeed));
    QCOMPARE(editor.traffic()->clock.speed, kMaxSpeed);
    slider->setValue(slider->minimum());
    QCOMPARE(editor.speed(), 0.05);
    QCOMPARE(label->text(), QStringLiteral("0.05x"));
    QVERIFY(editor.isValid());

    // Two significant digits, shown as the value is.
    slider->setValue((slider->minimum() + slider->maximum()) / 2);
    QCOMPARE(label->text(), speedLabel(editor.speed()));

    // The real clock has no speed or start.
    apply(editor, {"clock=real"});
    QVERIFY(!slider->isEnabled());
    QVERIFY(!editor.findChild<QWidget*>(QStringLiteral("start"))->isEnabled());
    QVERIFY(!editor.traffic()->clock.isVirtual);
}

void TestTrafficEditor::asFastAsPossible() {
    TrafficEditor editor;
    apply(editor, {"clock=virtual"});
    auto* box = editor.findChild<QCheckBox*>(QStringLiteral("asFastAsPossible"));
    auto* slider = editor.findChild<QSlider*>(QStringLiteral("speed"));
    QSignalSpy speeds(&editor, &TrafficEditor::speedChanged);
    box->setChecked(true);
    QCOMPARE(speeds.count(), 1);
    QCOMPARE(speeds.last().at(0).toDouble(), 0.0);
    QCOMPARE(editor.speed(), 0.0);
    QCOMPARE(editor.traffic()->clock.speed, 0.0);
    QVERIFY(!slider->isEnabled());
    box->setChecked(false);
    QCOMPARE(speeds.count(), 2);
    QCOMPARE(speeds.last().at(0).toDouble(), 1.0);
    QVERIFY(slider->isEnabled());
}

// "As fast as possible" carried over from one scenario to the next: loaded under a real clock it
// stayed ticked, and switching to a virtual clock ran the next scenario at full speed. Each
// scenario now brings its own speed, or the defaults.
void TestTrafficEditor::clockNotCarriedOver() {
    TrafficEditor editor;
    TrafficSpec fastest = defaults();
    fastest.clock.isVirtual = true;
    fastest.clock.speed = 0;
    editor.setTraffic(fastest, 100);
    auto* box = editor.findChild<QCheckBox*>(QStringLiteral("asFastAsPossible"));
    QVERIFY(box->isChecked());
    QCOMPARE(editor.speed(), 0.0);

    editor.setTraffic(defaults(), 100);  // a real clock
    QVERIFY(!box->isChecked());
    apply(editor, {"clock=virtual"});
    QCOMPARE(editor.traffic()->clock.speed, 1.0);

    TrafficSpec slow = defaults();
    slow.clock.isVirtual = true;
    slow.clock.speed = 0.5;
    editor.setTraffic(slow, 100);
    editor.setTraffic(fastest, 100);
    editor.setTraffic(defaults(), 100);
    apply(editor, {"clock=virtual"});
    QCOMPARE(editor.traffic()->clock.speed, 1.0);  // not 0.5 from two scenarios before
}

void TestTrafficEditor::speedKeptExactly() {
    TrafficEditor editor;
    TrafficSpec traffic = defaults();
    traffic.clock.isVirtual = true;
    traffic.clock.speed = 0.25;
    QSignalSpy speeds(&editor, &TrafficEditor::speedChanged);
    editor.setTraffic(traffic, 100);
    QCOMPARE(editor.speed(), 0.25);
    QCOMPARE(speeds.count(), 1);
    QCOMPARE(editor.findChild<QLabel*>(QStringLiteral("speedValue"))->text(),
             QStringLiteral("0.25x"));
    QCOMPARE(editor.traffic()->clock.speed, 0.25);
}

void TestTrafficEditor::errorFollowsPalette() {
    TrafficEditor editor;
    apply(editor, {"rate=0"});
    auto* error = editor.findChild<QLabel*>(QStringLiteral("error"));
    auto* rate = editor.findChild<QLineEdit*>(QStringLiteral("rate"));
    const QColor red = error->palette().color(QPalette::WindowText);
    QVERIFY(red.red() > 150 && red.green() < 120 && red.blue() < 120);
    // Only the text is red: the rest comes from the system palette.
    QCOMPARE(error->palette().color(QPalette::Window), editor.palette().color(QPalette::Window));
    QCOMPARE(rate->palette().color(QPalette::Text), red);
    QCOMPARE(rate->palette().color(QPalette::Base), editor.palette().color(QPalette::Base));
    apply(editor, {"rate=1"});
    QCOMPARE(rate->palette().color(QPalette::Text), editor.palette().color(QPalette::Text));
}

QTEST_MAIN(TestTrafficEditor)
#include "tst_traffic_editor.moc"
