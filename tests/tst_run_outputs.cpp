// `ratelab run`'s outputs never hide its result: every output path is checked before anything
// reaches Redis (exit 2), a write that fails after the run still prints the summary and verdict
// (exit 4 when the verdict is 0), a failed rerun (exit 2 or 3) leaves no earlier result in place,
// and a run whose decisions failed unchecked (every one, or after Redis was killed mid-run) is
// "incomplete", never "passed".
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "redis/local_redis_server.h"
#include "support/cli_process.h"
#include "support/test_files.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

class TestRunOutputs : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    QString write(const QString& name, const QByteArray& content) {
        const QString path = dir_.filePath(name);
        writeTestFile(path, content);
        return path;
    }

    static QByteArray read(const QString& path) {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    using Result = CliResult;
    static Result run(const QStringList& args,
                      const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
        return runRatelab(args, env);
    }

    // A virtual-clock scenario of one token bucket (20 of 100 accepted), expecting `expect`.
    QString scenario(const QString& expect) {
        return write(uniqueName(QStringLiteral("scenario")) + QStringLiteral(".json"),
                     QStringLiteral(R"({"name": "outputs",
  "limiters": [{"type": "token_bucket", "name": "%1", "rate": 10, "interval_ms": 1000}],
  "traffic": {"shape": {"type": "constant", "rate": 50}, "duration_s": 2,
              "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": 0}},
  "expect": {"*": ["%2"]}})")
                         .arg(uniqueName(QStringLiteral("outputs")), expect)
                         .toUtf8());
    }

    static QStringList unreachableRedis() {
        return {QStringLiteral("--redis"), QStringLiteral("redis://127.0.0.1:1")};
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // Checked before Redis: with an unreachable Redis, a bad path still gives exit 2 and its
    // message (checked after the run, it was exit 3, or the whole run and then exit 2).
    void badOutputPaths_data() {
        QTest::addColumn<QString>("out");
        QTest::addColumn<QString>("junit");
        QTest::addColumn<QString>("message");
        const QString base = dir_.filePath(QStringLiteral("bad"));
        QTest::newRow("junit is a folder")
            << base + QStringLiteral("-1") << dir_.path() << QStringLiteral("--junit: ");
        QTest::newRow("junit's folder is missing")
            << base + QStringLiteral("-2") << dir_.filePath(QStringLiteral("missing/junit.xml"))
            << QStringLiteral("no such folder");
        QTest::newRow("junit is the run's summary.json")
            << base + QStringLiteral("-3") << base + QStringLiteral("-3/summary.json")
            << QStringLiteral("is the run's own summary.json");
        QTest::newRow("junit is the run's report.html, through ..")
            << base + QStringLiteral("-4")
            << base + QStringLiteral("-4/../") + QStringLiteral("bad-4/report.html")
            << QStringLiteral("is the run's own report.html");
        QTest::newRow("out is a file") << write(QStringLiteral("a-file"), "x") << QString()
                                       << QStringLiteral("is a file, not a folder");
        QTest::newRow("out under a file")
            << write(QStringLiteral("b-file"), "x") + QStringLiteral("/sub") << QString()
            << QStringLiteral("cannot create the folder");
    }
    void badOutputPaths() {
        QFETCH(QString, out);
        QFETCH(QString, junit);
        QFETCH(QString, message);
        QStringList args{QStringLiteral("run"), scenario(QStringLiteral("accepted <= 20")),
                         QStringLiteral("--out"), out};
        if (!junit.isEmpty()) {
            args << QStringLiteral("--junit") << junit;
        }
        const Result r = run(args + unreachableRedis());
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.out, QByteArray());
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QVERIFY2(!r.err.contains("127.0.0.1:1"), r.err.constData());
    }

    // /dev/full can be opened, and fails at the write: the summary and verdict are printed, the
    // failed file named, and the exit code is the verdict's, or 4 when that is 0.
    void writeFailsAfterTheRun_data() {
        QTest::addColumn<QString>("expect");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("verdict");
        QTest::newRow("passed") << "accepted <= 20" << 4 << "verdict: passed (1 of 1 held)";
        QTest::newRow("failed") << "accepted <= 10" << 1 << "verdict: failed (0 of 1 held)";
    }
    void writeFailsAfterTheRun() {
        QFETCH(QString, expect);
        QFETCH(int, exitCode);
        QFETCH(QString, verdict);
        if (QFileInfo(QStringLiteral("/dev/full")).isFile()) {
            QSKIP("/dev/full is a regular file here, not the full device");
        }
        const QString out = dir_.filePath(uniqueName(QStringLiteral("full")));
        const Result r = run({QStringLiteral("run"), scenario(expect), QStringLiteral("--out"), out,
                              QStringLiteral("--junit"), QStringLiteral("/dev/full")});
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.out.contains("fired 100 = accepted 20 + rejected 80 + errors 0"), r.out);
        QVERIFY2(r.out.contains(verdict.toUtf8()), r.out);
        QVERIFY2(r.err.contains("/dev/full: cannot write"), r.err.constData());
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/summary.json")));
    }

    // A rerun into the same outputs that fails leaves no earlier result in place: the output
    // folder's files are gone, and the JUnit file reports errors (Redis failed before the run:
    // every expectation an error) or is gone (bad input: nothing was measured), never the old
    // pass. Failed before for exit 2: the earlier files stayed.
    void failedRerunHidesNoOldPass_data() {
        QTest::addColumn<QStringList>("rerun");  // replaces the scenario and adds options
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<bool>("junitErrors");  // the JUnit file written anew; else none
        QTest::newRow("Redis unreachable") << unreachableRedis() << 3 << true;
        QTest::newRow("malformed scenario")
            << QStringList{QStringLiteral("scenario"), QStringLiteral("{\"name\": ")} << 2 << false;
        QTest::newRow("unknown metric")
            << QStringList{QStringLiteral("expect"), QStringLiteral("p98_ms < 5")} << 2 << false;
        QTest::newRow("bad --max-memory")
            << QStringList{QStringLiteral("--max-memory"), QStringLiteral("lots")} << 2 << false;
    }
    void failedRerunHidesNoOldPass() {
        QFETCH(QStringList, rerun);
        QFETCH(int, exitCode);
        QFETCH(bool, junitErrors);
        const QString tag = uniqueName(QStringLiteral("rerun"));
        const QString out = dir_.filePath(tag);
        const QString junit = dir_.filePath(tag + QStringLiteral(".xml"));
        const QString spec = scenario(QStringLiteral("accepted <= 20"));
        const Result first = run({QStringLiteral("run"), spec, QStringLiteral("--out"), out,
                                  QStringLiteral("--junit"), junit});
        QCOMPARE(first.exitCode, 0);
        QVERIFY(read(junit).contains("failures=\"0\""));
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/summary.json")));

        QStringList args{QStringLiteral("run"),     spec, QStringLiteral("--out"), out,
                         QStringLiteral("--junit"), junit};
        if (rerun.first() == QLatin1String("scenario")) {
            writeTestFile(spec, rerun.last().toUtf8());
        } else if (rerun.first() == QLatin1String("expect")) {
            args[1] = scenario(rerun.last());
        } else {
            args += rerun;
        }
        const Result r = run(args);
        QVERIFY2(r.exitCode == exitCode, r.err.constData());
        for (const char* name : {"summary.json", "buckets.csv", "report.png", "report.html"}) {
            QVERIFY2(!QFileInfo::exists(out + QLatin1Char('/') + QLatin1String(name)), name);
        }
        if (junitErrors) {
            const QByteArray xml = read(junit);
            QVERIFY2(xml.contains("errors=\"1\"") && xml.contains("type=\"incomplete\""), xml);
        } else {
            QVERIFY2(!QFileInfo::exists(junit), read(junit).constData());
        }
        // Nothing of the temporary files is left beside them.
        QCOMPARE(QDir(out).entryList(QDir::Files | QDir::Hidden), QStringList());
    }

    // An output that is the scenario file itself is refused before anything is removed: the
    // scenario stays as it was. Failed before: the JUnit file replaced the scenario.
    void outputIsTheScenario() {
        const QString spec = scenario(QStringLiteral("accepted <= 20"));
        const QByteArray before = read(spec);
        const Result r =
            run({QStringLiteral("run"), spec, QStringLiteral("--out"),
                 dir_.filePath(QStringLiteral("self")), QStringLiteral("--junit"), spec});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("is the scenario file the run reads"), r.err.constData());
        QCOMPARE(read(spec), before);
    }

    // Redis is killed 1 s into a 4 s real-clock run and does not come back: most decisions
    // fail. A run with failed decisions no expectation checks is "incomplete" (stdout,
    // summary.json, an <error> per JUnit test case) with exit 3, never "passed"; one whose
    // expectations check the errors is judged by them. Failed before: "verdict: passed (2 of 2
    // held)", summary.json "passed", a green JUnit, exit 3 whatever the expectations said.
    void redisKilledMidRun_data() {
        QTest::addColumn<QString>("expect");  // of both limiters
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("junit");  // the JUnit suite's counts
        QTest::newRow("errors unchecked")
            << QStringLiteral(R"("accepted <= 200")") << 3 << QStringLiteral("incomplete")
            << QStringLiteral(R"(tests="2" failures="0" errors="2")");
        QTest::newRow("errors checked, within")
            << QStringLiteral(R"("accepted <= 200", "errors <= 1000")") << 0
            << QStringLiteral("passed") << QStringLiteral(R"(tests="4" failures="0" errors="0")");
        QTest::newRow("errors checked, above")
            << QStringLiteral(R"("errors == 0")") << 1 << QStringLiteral("failed")
            << QStringLiteral(R"(tests="2" failures="2" errors="0")");
    }
    void redisKilledMidRun() {
        QFETCH(QString, expect);
        QFETCH(int, exitCode);
        QFETCH(QString, verdict);
        QFETCH(QString, junit);
        LocalRedisServer server;  // the test's own: it is killed
        server.start();
        const QString spec = write(uniqueName(QStringLiteral("killed")) + QStringLiteral(".json"),
                                   QStringLiteral(R"({"name": "redis killed",
  "limiters": [{"type": "token_bucket", "name": "api", "rate": 10, "interval_ms": 1000},
               {"type": "sliding_window", "name": "login", "rules": [{"limit": 20, "window_ms": 1000}]}],
  "traffic": {"shape": {"type": "constant", "rate": 50}, "duration_s": 4, "threads": 2},
  "expect": {"*": [%1]}})")
                                       .arg(expect)
                                       .toUtf8());
        const QString out = dir_.filePath(uniqueName(QStringLiteral("killed")));
        const QString junitFile = out + QStringLiteral(".xml");
        auto p = startRatelab({QStringLiteral("run"), spec, QStringLiteral("--redis"),
                               server.url().toDisplayString(), QStringLiteral("--out"), out,
                               QStringLiteral("--junit"), junitFile});
        QByteArray err;
        QVERIFY2(waitForStderr(*p, "/4.0 s", err), err.constData());  // a progress line
        server.crash();
        const CliResult f = finishRatelab(*p, 60000);
        QVERIFY2(f.exitCode == exitCode, (f.out + err + f.err).constData());
        QVERIFY2(f.out.contains("verdict: " + verdict.toUtf8()), f.out.constData());
        QVERIFY2(f.out.contains("errors by cause: "), f.out.constData());
        const QJsonObject summary =
            QJsonDocument::fromJson(read(out + QStringLiteral("/summary.json"))).object();
        QCOMPARE(summary.value(QStringLiteral("verdict")).toString(), verdict);
        const QString reason = summary.value(QStringLiteral("verdict_reason")).toString();
        if (verdict == QLatin1String("incomplete")) {
            QVERIFY2(reason.contains(QStringLiteral("and no expectation checks its errors")),
                     qPrintable(reason));
        } else {
            QCOMPARE(reason, QString());
        }
        const QByteArray xml = read(junitFile);
        QVERIFY2(xml.contains(junit.toUtf8()), xml.constData());
    }

    // An ACL user without EVAL: every decision fails (NOPERM). The verdict is "incomplete" in
    // stdout, summary.json and JUnit (an error per expectation), and the exit code 3.
    void everyDecisionFailedIsIncomplete() {
        const RedisUrl fixture = fixtureUrl();
        if (fixture.isCluster() || fixture.isSentinel() || fixture.tls) {
            QSKIP("a single server's ACL");
        }
        const QString user = uniqueName(QStringLiteral("noeval"));
        auto admin = connectFixture();
        const std::string userName = user.toStdString();
        admin->command({"ACL", "SETUSER", userName, "on", ">secret-pw", "~*", "+@all", "-eval",
                        "-evalsha", "-fcall"});
        const QString url =
            fixture.transport == RedisUrl::Transport::Unix
                ? QStringLiteral("unix://%1:secret-pw@%2").arg(user, fixture.socketPath)
                : QStringLiteral("redis://%1:secret-pw@%2:%3")
                      .arg(user, fixture.host)
                      .arg(fixture.port);
        const QString out = dir_.filePath(QStringLiteral("noperm"));
        const QString junit = dir_.filePath(QStringLiteral("noperm.xml"));
        const Result r = run({QStringLiteral("run"), scenario(QStringLiteral("accepted <= 20")),
                              QStringLiteral("--out"), out, QStringLiteral("--junit"), junit,
                              QStringLiteral("--redis"), url});
        admin->command({"ACL", "DELUSER", userName});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.out.contains("verdict: incomplete ("), r.out);
        QVERIFY2(!r.out.contains("verdict: passed"), r.out);
        const QJsonObject summary =
            QJsonDocument::fromJson(read(out + QStringLiteral("/summary.json"))).object();
        QCOMPARE(summary.value(QStringLiteral("verdict")).toString(), QStringLiteral("incomplete"));
        QVERIFY2(summary.value(QStringLiteral("verdict_reason"))
                     .toString()
                     .contains(QStringLiteral("100 of 100 decisions failed")),
                 qPrintable(summary.value(QStringLiteral("verdict_reason")).toString()));
        const QByteArray xml = read(junit);
        QVERIFY2(xml.contains("errors=\"1\"") && xml.contains("failures=\"0\""), xml);
        QVERIFY2(!r.err.contains("secret-pw") && !r.out.contains("secret-pw"), r.err.constData());
    }

    // Every subcommand's --help: its own usage on stdout, exit 0, before anything starts.
    void subcommandHelp_data() {
        QTest::addColumn<QString>("subcommand");
        for (const char* s : {"run", "replay", "bench", "compare", "explain", "watch"}) {
            QTest::newRow(s) << QString::fromLatin1(s);
        }
    }
    void subcommandHelp() {
        QFETCH(QString, subcommand);
        const Result r = run({subcommand, QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith(QStringLiteral("usage: ratelab %1 ").arg(subcommand).toUtf8()),
                 r.out);
        QVERIFY2(r.out.contains("--help"), r.out);
        QCOMPARE(r.err, QByteArray());
    }

    // Headless, without XDG_RUNTIME_DIR: stderr holds only ratelab's own lines (Qt's
    // "QStandardPaths: XDG_RUNTIME_DIR not set" note is not one).
    void noQtNotesOnStderr() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("XDG_RUNTIME_DIR"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        const Result r = run({QStringLiteral("run"), scenario(QStringLiteral("accepted <= 20")),
                              QStringLiteral("--out"), dir_.filePath(QStringLiteral("quiet"))},
                             env);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(!r.err.contains("QStandardPaths"), r.err.constData());
        QVERIFY2(!r.err.contains("XDG_RUNTIME_DIR"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestRunOutputs)
#include "tst_run_outputs.moc"
