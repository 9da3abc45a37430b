// `ratelab sweep` end to end: the binary against the fixture Redis (and a redis-server of its
// own where Redis is killed). Its files, its exit codes, its best combination run again by
// `ratelab run` giving the same figures; the JUnit file of a sweep stopped by SIGINT or by
// Redis says so with errors; a rerun that fails leaves none of the earlier sweep's files.
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>

#include "redis/local_redis_server.h"
#include "support/cli_process.h"
#include "support/test_files.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Reads the sweep's stderr until a progress line counts a finished combination.
bool waitForCombinations(QProcess& p, QByteArray& seen) {
    const QRegularExpression someDone(QStringLiteral(R"(sweep: [1-9]\d*/)"));
    QElapsedTimer timer;
    timer.start();
    while (!someDone.match(QString::fromUtf8(seen)).hasMatch() && timer.elapsed() < 60000 &&
           p.state() == QProcess::Running) {
        p.waitForReadyRead(100);
        seen += p.readAllStandardError();
    }
    return someDone.match(QString::fromUtf8(seen)).hasMatch();
}

const QString kSweepFiles[] = {QStringLiteral("sweep.csv"), QStringLiteral("sweep.json"),
                               QStringLiteral("sweep.png"), QStringLiteral("sweep.html")};

}  // namespace

class TestSweepCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    // A calendar fixed window of `rates` per second against a constant 20/s for 2 s, both
    // parameters of the window varied, and `constraint`.
    QString scenario(const QString& file, const QString& constraint) {
        const QString path = dir_.filePath(file);
        QFile f(path);
        const QByteArray json = QStringLiteral(R"({"name": "cli sweep",
  "limiters": [{"type": "fixed_window", "name": "%1", "rate": 10, "interval": 1,
                "unit": "seconds", "timezone": "UTC"}],
  "traffic": {"shape": {"type": "constant", "rate": 20}, "duration_s": 2,
              "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": 0}},
  "sweep": {"vary": {"%1.rate": [5, 10, 20], "%1.interval": {"from": 1, "to": 2}},
            "minimize": "accepted", "constraints": ["%2"]}})")
                                    .arg(uniqueName(QStringLiteral("sweep-cli")), constraint)
                                    .toUtf8();
        if (!f.open(QIODevice::WriteOnly) || f.write(json) != json.size()) {
            qFatal("cannot write %s", qPrintable(path));
        }
        return path;
    }

    // 10,000 combinations, as many as a sweep may have (the window's rate 1 to 500, its
    // interval 1 to 20 s), of 200 decisions each: half a minute or more of work, stopped long
    // before its end.
    QString longSweep(const QString& file) {
        const QString path = dir_.filePath(file);
        writeTestFile(path, QStringLiteral(R"({"name": "long sweep",
  "limiters": [{"type": "fixed_window", "name": "%1", "rate": 10, "interval": 1,
                "unit": "seconds", "timezone": "UTC"}],
  "traffic": {"shape": {"type": "constant", "rate": 20}, "duration_s": 10,
              "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": 0}},
  "sweep": {"vary": {"%1.rate": {"from": 1, "to": 500}, "%1.interval": {"from": 1, "to": 20}},
            "minimize": "accepted", "constraints": ["accepted >= 15"]}})")
                                .arg(uniqueName(QStringLiteral("sweep-long")))
                                .toUtf8());
        return path;
    }

    // The checks of a stopped sweep's files: sweep.json says incomplete, and the JUnit file
    // reports both test cases ("a feasible combination exists", the constraint) as errors with
    // why, none as a pass.
    static void checkStopped(const QString& out, const QString& junit, const QByteArray& why) {
        const QJsonObject json =
            QJsonDocument::fromJson(readAll(out + QStringLiteral("/sweep.json"))).object();
        QCOMPARE(json.value(QStringLiteral("complete")).toBool(true), false);
        const QByteArray xml = readAll(junit);
        QVERIFY2(xml.contains(R"(tests="2" failures="0" errors="2")"), xml.constData());
        QVERIFY2(xml.contains("message=\"incomplete: the sweep stopped after "), xml.constData());
        QVERIFY2(xml.contains(" of 10000 combinations (" + why), xml.constData());
    }

    QStringList redis() const {
        return {QStringLiteral("--redis"), qEnvironmentVariable("REDIS_URL")};
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // Six combinations (the keys in sorted order: interval, then rate); at least 15 accepted
    // of 40, as few as can be: 10 per 1 s and 20 per 2 s both admit 20; the first wins.
    void writesFilesAndTheBestRunsAlike() {
        const QString out = dir_.filePath(QStringLiteral("out"));
        const QString junit = dir_.filePath(QStringLiteral("junit.xml"));
        const CliResult r = runRatelab(
            QStringList{QStringLiteral("sweep"),
                        scenario(QStringLiteral("a.json"), QStringLiteral("accepted >= 15")),
                        QStringLiteral("--out"), out, QStringLiteral("--junit"), junit} +
            redis());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("6 of 6 combinations, minimize accepted"), r.out.constData());
        QVERIFY2(r.out.contains("best: ") && r.out.contains(".interval = 1, ") &&
                     r.out.contains(".rate = 10 (accepted 20"),
                 r.out.constData());
        QVERIFY2(r.out.contains("Pareto front"), r.out.constData());

        const QList<QByteArray> csv = readAll(out + QStringLiteral("/sweep.csv")).split('\n');
        QVERIFY2(csv[0].endsWith(",limiter,group,fired,accepted,rejected,errors,rejected_pct,"
                                 "max_accepted_in_any_1000ms,max_accepted_in_any_2000ms,"
                                 "max_accepted_in_any_10000ms,"
                                 "max_accepted_in_any_60000ms,feasible,best"),
                 csv[0].constData());
        // 5 per 1 s: 10 of 40; 10 per 1 s: 20 of 40 (best); 5 per 2 s: 5, infeasible.
        QVERIFY2(csv[1].startsWith("1,5,") && csv[1].contains(",*,40,10,30,0,75,"),
                 csv[1].constData());
        QVERIFY2(csv[2].startsWith("1,10,") && csv[2].endsWith(",1,1"), csv[2].constData());
        QVERIFY2(csv[4].startsWith("2,5,") && csv[4].endsWith(",0,0"), csv[4].constData());
        QVERIFY(QImage(out + QStringLiteral("/sweep.png")).width() > 100);
        QVERIFY(readAll(out + QStringLiteral("/sweep.html")).contains("<img"));
        QVERIFY(readAll(junit).contains("failures=\"0\""));

        // The best combination as sweep.json gives it, run alone: the same figures.
        const QJsonObject json =
            QJsonDocument::fromJson(readAll(out + QStringLiteral("/sweep.json"))).object();
        const QJsonObject best = json.value(QStringLiteral("best"))
                                     .toObject()
                                     .value(QStringLiteral("scenario"))
                                     .toObject();
        const QString bestFile = dir_.filePath(QStringLiteral("best.json"));
        QFile f(bestFile);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(best).toJson());
        f.close();
        const QString runOut = dir_.filePath(QStringLiteral("run"));
        const CliResult alone = runRatelab(
            QStringList{QStringLiteral("run"), bestFile, QStringLiteral("--out"), runOut} +
            redis());
        QVERIFY2(alone.exitCode == 0, alone.err.constData());
        QVERIFY2(alone.out.contains("fired 40 = accepted 20 + rejected 20 + errors 0"),
                 alone.out.constData());
    }

    // Traffic shorter than twice a limiter's longest window tunes on the window's warm-up:
    // the sweep says so in its table and sweep.json, and `run` says so too; traffic twice as
    // long as every window gets no warning. The sweep's longest window is its largest value.
    void shortTrafficIsWarned_data() {
        QTest::addColumn<int>("seconds");
        QTest::addColumn<bool>("warned");
        QTest::newRow("15 s against 60 s") << 15 << true;
        QTest::newRow("119 s against 60 s") << 119 << true;
        QTest::newRow("120 s against 60 s") << 120 << false;
    }
    void shortTrafficIsWarned() {
        QFETCH(int, seconds);
        QFETCH(bool, warned);
        const QString name = uniqueName(QStringLiteral("sweep-short"));
        const QString path = dir_.filePath(QStringLiteral("short-%1.json").arg(seconds));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral(R"({"name": "short",
  "limiters": [{"type": "sliding_window", "name": "%1", "scope": "per_client",
                "rules": [{"limit": 5, "window_ms": 1000}, {"limit": 20, "window_ms": 30000}]}],
  "traffic": {"shape": {"type": "constant", "rate": 2}, "duration_s": %2,
              "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": 0}},
  "sweep": {"vary": {"%1.rules[1].window_ms": [30000, 60000]}, "minimize": "accepted"}})")
                    .arg(name)
                    .arg(seconds)
                    .toUtf8());
        f.close();
        const QString out = dir_.filePath(QStringLiteral("short-out-%1").arg(seconds));
        const CliResult r = runRatelab(
            QStringList{QStringLiteral("sweep"), path, QStringLiteral("--out"), out} + redis());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        // The warning's start, for a longest window of `windowS`.
        const auto warning = [&](int windowS) {
            return QStringLiteral(
                       "warning: the traffic lasts %1 s, less than twice limiter \"%2\"'s "
                       "longest window (%3 s)")
                .arg(seconds)
                .arg(name)
                .arg(windowS)
                .toUtf8();
        };
        const QByteArray said = warning(60);
        QVERIFY2(r.out.contains(said) == warned, r.out.constData());
        const QJsonArray warnings =
            QJsonDocument::fromJson(readAll(out + QStringLiteral("/sweep.json")))
                .object()
                .value(QStringLiteral("warnings"))
                .toArray();
        QCOMPARE(warnings.size(), warned ? 1 : 0);
        if (warned) {
            // The same sentence, without "warning: ".
            QVERIFY2(warnings.at(0).toString().toUtf8().startsWith(said.mid(9)),
                     qPrintable(warnings.at(0).toString()));
        }

        const CliResult alone =
            runRatelab(QStringList{QStringLiteral("run"), path, QStringLiteral("--out"),
                                   out + QStringLiteral("-run")} +
                       redis());
        QVERIFY2(alone.exitCode == 0, alone.err.constData());
        // The run's own window is 30 s: judged on 60 s of traffic.
        QVERIFY2(alone.out.contains(warning(30)) == (seconds < 60), alone.out.constData());
    }

    void exitCodes_data() {
        QTest::addColumn<QString>("constraint");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QByteArray>("says");
        QTest::newRow("none feasible") << QStringLiteral("accepted >= 41") << 1
                                       << QByteArray("no combination holds every constraint");
        QTest::newRow("bad constraint")
            << QStringLiteral("speed >= 1") << 2 << QByteArray("$.sweep.constraints[0]");
    }
    void exitCodes() {
        QFETCH(QString, constraint);
        QFETCH(int, exitCode);
        QFETCH(QByteArray, says);
        const CliResult r = runRatelab(
            QStringList{QStringLiteral("sweep"), scenario(QStringLiteral("b.json"), constraint),
                        QStringLiteral("--out"), dir_.filePath(QStringLiteral("out-b"))} +
            redis());
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2((r.out + r.err).contains(says), (r.out + r.err).constData());
    }

    // SIGINT once combinations have finished: exit 130, the files of what finished, and a
    // JUnit file that says the sweep is incomplete. Failed before: tests="2" failures="0"
    // errors="0" while sweep.json said "complete": false.
    void interruptedSweepSaysSoInJUnit() {
        const QString out = dir_.filePath(QStringLiteral("interrupted"));
        const QString junit = dir_.filePath(QStringLiteral("interrupted.xml"));
        auto p = startRatelab(
            QStringList{QStringLiteral("sweep"), longSweep(QStringLiteral("interrupted.json")),
                        QStringLiteral("--out"), out, QStringLiteral("--junit"), junit} +
            redis());
        QByteArray err;
        QVERIFY2(waitForCombinations(*p, err), err.constData());
        ::kill(pid_t(p->processId()), SIGINT);
        const CliResult f = finishRatelab(*p, 60000);
        QVERIFY2(f.exitCode == 130, (f.out + err + f.err).constData());
        QVERIFY2(f.out.contains("interrupted by SIGINT"), f.out.constData());
        checkStopped(out, junit, "interrupted by SIGINT)");
    }

    // Its redis-server killed once combinations have finished, and not back: exit 3, the files
    // of what finished, and a JUnit file that says the sweep stopped, and why. Failed before: a
    // green JUnit file.
    void redisKilledSweepSaysSoInJUnit() {
        LocalRedisServer server;  // the test's own: it is killed
        server.start();
        const QString out = dir_.filePath(QStringLiteral("killed"));
        const QString junit = dir_.filePath(QStringLiteral("killed.xml"));
        auto p = startRatelab({QStringLiteral("sweep"), longSweep(QStringLiteral("killed.json")),
                               QStringLiteral("--out"), out, QStringLiteral("--junit"), junit,
                               QStringLiteral("--redis"), server.url().toDisplayString()});
        QByteArray err;
        QVERIFY2(waitForCombinations(*p, err), err.constData());
        server.crash();
        const CliResult f = finishRatelab(*p, 60000);
        QVERIFY2(f.exitCode == 3, (f.out + err + f.err).constData());
        QVERIFY2(f.err.contains("the sweep stopped after"), f.err.constData());
        checkStopped(out, junit, "redis: ");
    }

    // A rerun into the same outputs that fails leaves none of the earlier sweep's files: Redis
    // unreachable (exit 3) writes the JUnit file anew as an error, bad input (exit 2) writes
    // none. Failed before: the earlier sweep.csv, sweep.json, sweep.png, sweep.html and its
    // green JUnit file stayed.
    void failedRerunLeavesNoEarlierSweep_data() {
        QTest::addColumn<QStringList>("rerun");  // options added to the first sweep's
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<bool>("junitErrors");  // the JUnit file written anew; else none
        QTest::newRow("Redis unreachable")
            << QStringList{QStringLiteral("--redis"), QStringLiteral("redis://127.0.0.1:1")} << 3
            << true;
        QTest::newRow("bad --max-memory")
            << QStringList{QStringLiteral("--max-memory"), QStringLiteral("lots")} << 2 << false;
    }
    void failedRerunLeavesNoEarlierSweep() {
        QFETCH(QStringList, rerun);
        QFETCH(int, exitCode);
        QFETCH(bool, junitErrors);
        const QString out = dir_.filePath(uniqueName(QStringLiteral("rerun")));
        const QString junit = out + QStringLiteral(".xml");
        const QStringList args{
            QStringLiteral("sweep"),
            scenario(QStringLiteral("rerun.json"), QStringLiteral("accepted >= 15")),
            QStringLiteral("--out"),
            out,
            QStringLiteral("--junit"),
            junit};
        const CliResult first = runRatelab(args + redis());
        QVERIFY2(first.exitCode == 0, first.err.constData());
        QVERIFY(readAll(junit).contains(R"(failures="0" errors="0")"));

        const CliResult r = runRatelab(args + rerun);
        QVERIFY2(r.exitCode == exitCode, r.err.constData());
        for (const QString& name : kSweepFiles) {
            QVERIFY2(!QFileInfo::exists(out + QLatin1Char('/') + name), qPrintable(name));
        }
        if (junitErrors) {
            const QByteArray xml = readAll(junit);
            QVERIFY2(xml.contains(R"(failures="0" errors="1")") &&
                         xml.contains("the sweep stopped after 0 of 6 combinations (redis: "),
                     xml.constData());
        } else {
            QVERIFY2(!QFileInfo::exists(junit), readAll(junit).constData());
        }
    }
};

QTEST_MAIN(TestSweepCli)
#include "tst_sweep_cli.moc"
