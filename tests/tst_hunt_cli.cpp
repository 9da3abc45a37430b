// `ratelab hunt` end to end: exit codes, stdout, the counterexample's files, its regression
// check run by `ratelab run`, bad input refused before any Redis command, SIGINT.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>

#include "support/cli_process.h"
#include "support/test_files.h"
#include "support/test_redis.h"

using namespace ratelab::test;

namespace {

// Redis that never answers: a command that reached for it would exit 3, not 2.
const QString kNoRedis = QStringLiteral("redis://127.0.0.1:1");

// stdout without its last line (the speed, which differs from run to run).
QByteArray withoutSpeed(QByteArray out) {
    QList<QByteArray> lines = out.split('\n');
    QList<QByteArray> kept;
    for (const QByteArray& line : lines) {
        if (!line.contains(" traces/s,")) {
            kept << line;
        }
    }
    return kept.join('\n');
}

}  // namespace

class TestHuntCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    QString write(const QString& name, const QByteArray& content) {
        return writeTestFileIn(dir_.path(), name, content);
    }

    // A fixed window of 3 a second and the log it is compared with.
    QString fixedWindow() {
        return write(QStringLiteral("fixed.json"),
                     R"({"type": "fixed_window", "name": "fw", "rate": 3, "interval": 1,
                         "unit": "seconds", "timezone": "UTC"})");
    }
    QString log() {
        return write(QStringLiteral("log.json"),
                     R"({"type": "sliding_window", "rules": [{"limit": 3, "window_ms": 1000}]})");
    }
    QString goodLog() {
        return write(QStringLiteral("good.json"),
                     R"({"type": "sliding_window", "name": "good",
                         "rules": [{"limit": 3, "window_ms": 1000}]})");
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // A counterexample: exit 1, the failing row explained, the three files, and the
    // regression check fails under `ratelab run` while the difference lasts.
    void counterexampleFilesAndRegression() {
        const QString out = dir_.filePath(QStringLiteral("found"));
        const CliResult r =
            runRatelab({QStringLiteral("hunt"), fixedWindow(), QStringLiteral("--reference"), log(),
                        QStringLiteral("--out"), out});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.startsWith("counterexample: agree breaks at row "), r.out.constData());
        QVERIFY2(r.out.contains("1-minimal"), r.out.constData());
        QVERIFY2(r.out.contains(": fw granted") &&
                     r.out.contains("the reference (sliding window) refuses: 3 per 1000 ms held"),
                 r.out.constData());

        const QByteArray csv = readTestFile(out + QStringLiteral("/counterexample.csv"));
        QVERIFY(csv.startsWith("t_ms,client,permits\n"));
        const QList<QByteArray> lines = csv.trimmed().split('\n');
        const QJsonObject json =
            QJsonDocument::fromJson(readTestFile(out + QStringLiteral("/counterexample.json")))
                .object();
        QCOMPARE(json.value(QStringLiteral("property")).toString(), QStringLiteral("agree"));
        const QJsonArray rows = json.value(QStringLiteral("rows")).toArray();
        QCOMPARE(rows.size(), lines.size() - 1);
        const int failing = json.value(QStringLiteral("failing_row")).toInt(-1);
        QCOMPARE(failing, rows.size() - 1);
        const QJsonObject last = rows[failing].toObject();
        QVERIFY(
            last.value(QStringLiteral("limiter")).toObject().value(QStringLiteral("allowed")) !=
            last.value(QStringLiteral("reference")).toObject().value(QStringLiteral("allowed")));
        QCOMPARE(rows[0].toObject().value(QStringLiteral("t_ms")).toDouble() >= 1.7e12, true);

        // The regression replays counterexample.csv; its expectation fails now.
        const QString regression = out + QStringLiteral("/regression.json");
        QVERIFY(readTestFile(regression).contains("counterexample.csv"));
        const CliResult run =
            runRatelab({QStringLiteral("run"), regression, QStringLiteral("--out"),
                        dir_.filePath(QStringLiteral("run"))});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.contains("FAILED"), run.out.constData());
        QVERIFY2(QRegularExpression(QStringLiteral("fw +accepted == \\d+ +\\d+ +FAILED"))
                     .match(QString::fromUtf8(run.out))
                     .hasMatch(),
                 run.out.constData());
    }

    // A retry counterexample: its regression replays the probe too (regression.csv).
    void retryRegressionReplaysTheProbe() {
        const QString spec = write(QStringLiteral("rr.json"),
                                   R"({"type": "gcra", "name": "rr", "rate": 10, "period_ms": 1000,
                                       "burst": 2, "flavor": "redis_rate"})");
        const QString out = dir_.filePath(QStringLiteral("retry"));
        const CliResult r = runRatelab({QStringLiteral("hunt"), spec, QStringLiteral("--property"),
                                        QStringLiteral("retry"), QStringLiteral("--out"), out});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("sent alone again at"), r.out.constData());
        const QJsonObject json =
            QJsonDocument::fromJson(readTestFile(out + QStringLiteral("/counterexample.json")))
                .object();
        QVERIFY(json.value(QStringLiteral("probe")).isObject());
        QVERIFY(readTestFile(out + QStringLiteral("/regression.json")).contains("regression.csv"));
        const CliResult run =
            runRatelab({QStringLiteral("run"), out + QStringLiteral("/regression.json"),
                        QStringLiteral("--out"), dir_.filePath(QStringLiteral("retry-run"))});
        QCOMPARE(run.exitCode, 1);
    }

    // No counterexample: exit 0, what was tried; an earlier hunt's files are gone.
    void noCounterexample() {
        const QString out = dir_.filePath(QStringLiteral("none"));
        QVERIFY(QDir().mkpath(out));
        write(QStringLiteral("none/counterexample.csv"), "t_ms,client,permits\n1,a,1\n");
        const CliResult r =
            runRatelab({QStringLiteral("hunt"), goodLog(), QStringLiteral("--traces"),
                        QStringLiteral("120"), QStringLiteral("--out"), out});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(
            QRegularExpression(QStringLiteral("^no counterexample in 120 traces \\(\\d+ rows\\)\n"))
                .match(QString::fromUtf8(r.out))
                .hasMatch(),
            r.out.constData());
        QVERIFY(!QFile::exists(out + QStringLiteral("/counterexample.csv")));
    }

    // The same seed and --traces: the same answer, word for word.
    void sameSeedSameOutput() {
        const QStringList args{
            QStringLiteral("hunt"),        fixedWindow(),
            QStringLiteral("--reference"), log(),
            QStringLiteral("--seed"),      QStringLiteral("9"),
            QStringLiteral("--out"),       dir_.filePath(QStringLiteral("same"))};
        const CliResult a = runRatelab(args);
        const CliResult b = runRatelab(args);
        QCOMPARE(a.exitCode, 1);
        QCOMPARE(withoutSpeed(b.out), withoutSpeed(a.out));
    }

    // Bad input: exit 2 naming what is wrong, before any Redis command (the URL given would
    // make any command exit 3).
    void badInputBeforeRedis_data() {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("agree without a reference")
            << QStringList{QStringLiteral("--property"), QStringLiteral("agree")}
            << QByteArray("--property agree: needs a reference");
        QTest::newRow("unknown property")
            << QStringList{QStringLiteral("--property"), QStringLiteral("fast")}
            << QByteArray("--property: unknown property \"fast\"");
        QTest::newRow("no traces") << QStringList{QStringLiteral("--traces"), QStringLiteral("0")}
                                   << QByteArray("--traces: must be an integer from 1");
        QTest::newRow("no budget") << QStringList{QStringLiteral("--budget-s"), QStringLiteral("0")}
                                   << QByteArray("--budget-s: must be a number of seconds above 0");
        QTest::newRow("unwritable --out")
            << QStringList{QStringLiteral("--out"), QStringLiteral("/proc/ratelab-hunt")}
            << QByteArray("--out");
    }

    void badInputBeforeRedis() {
        QFETCH(QStringList, extra);
        QFETCH(QByteArray, message);
        const CliResult r = runRatelab(
            QStringList{QStringLiteral("hunt"), goodLog(), QStringLiteral("--redis"), kNoRedis} +
            extra);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), r.err.constData());
    }

    void badSpecsBeforeRedis_data() {
        QTest::addColumn<QByteArray>("reference");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("a reference with a name")
            << QByteArray(R"({"type": "sliding_window", "name": "x",
                             "rules": [{"limit": 3, "window_ms": 1000}]})")
            << QByteArray("$.name: the reference takes the hunted limiter's name");
        QTest::newRow("a reference on Redis's time")
            << QByteArray(R"({"type": "sliding_window", "time": "redis",
                             "rules": [{"limit": 3, "window_ms": 1000}]})")
            << QByteArray("$.time: \"redis\"");
        QTest::newRow("a reference with a bad field")
            << QByteArray(R"({"type": "sliding_window", "rules": [{"limit": 0, "window_ms": 1}]})")
            << QByteArray("$.rules[0].limit");
    }

    void badSpecsBeforeRedis() {
        QFETCH(QByteArray, reference);
        QFETCH(QByteArray, message);
        const CliResult r =
            runRatelab({QStringLiteral("hunt"), goodLog(), QStringLiteral("--reference"),
                        write(QStringLiteral("bad-ref.json"), reference), QStringLiteral("--redis"),
                        kNoRedis});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("bad-ref.json") && r.err.contains(message), r.err.constData());
    }

    void redisUnreachable() {
        const CliResult r =
            runRatelab({QStringLiteral("hunt"), goodLog(), QStringLiteral("--redis"), kNoRedis,
                        QStringLiteral("--out"), dir_.filePath(QStringLiteral("unreachable"))});
        QCOMPARE(r.exitCode, 3);
    }

    // SIGINT: exit 130 with what was tried so far.
    void interruptReportsWhatWasTried() {
        auto p = startRatelab({QStringLiteral("hunt"), goodLog(), QStringLiteral("--traces"),
                               QStringLiteral("1000000000"), QStringLiteral("--out"),
                               dir_.filePath(QStringLiteral("interrupted"))});
        QByteArray err;
        QVERIFY2(waitForStderr(*p, "hunt: ", err), err.constData());  // a progress line
        ::kill(pid_t(p->processId()), SIGINT);
        const CliResult r = finishRatelab(*p);
        QCOMPARE(r.exitCode, 130);
        QVERIFY2(QRegularExpression(
                     QStringLiteral("interrupted by SIGINT after [1-9]\\d* traces \\(\\d+ rows\\)"))
                     .match(QString::fromUtf8(r.out))
                     .hasMatch(),
                 r.out.constData());
        QVERIFY2(r.out.startsWith("no counterexample in "), r.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestHuntCli)
#include "tst_hunt_cli.moc"
