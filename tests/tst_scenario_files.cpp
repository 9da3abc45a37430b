// Scenario files on disk: names, traces next to the file, files refused whole, and the examples
// shipped in resources/scenarios.
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

class TestScenarioFiles : public QObject {
    Q_OBJECT

private slots:
    void loadFile();
    void loadFileErrors();
    void loadBadFiles_data();
    void loadBadFiles();
    void examples_data();
    void examples();
    void exampleIntents();

private:
    QString examplesDir() const;
};

QString TestScenarioFiles::examplesDir() const {
    const QString root = qEnvironmentVariable("RATELAB_SOURCE_DIR");
    if (!root.isEmpty()) {
        return QDir(root).filePath(QStringLiteral("resources/scenarios"));
    }
    return QFINDTESTDATA("../resources/scenarios");
}

void TestScenarioFiles::loadFile() {
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

void TestScenarioFiles::loadFileErrors() {
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
void TestScenarioFiles::loadBadFiles_data() {
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

void TestScenarioFiles::loadBadFiles() {
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

void TestScenarioFiles::examples_data() {
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

void TestScenarioFiles::examples() {
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
void TestScenarioFiles::exampleIntents() {
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

QTEST_GUILESS_MAIN(TestScenarioFiles)
#include "tst_scenario_files.moc"
