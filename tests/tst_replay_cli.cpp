// `ratelab replay` end to end: the binary, a spec file, a trace file and the fixture Redis (or
// a managed local redis-server), checking stdout, stderr and exit codes.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "support/test_redis.h"

using namespace ratelab::test;

class TestReplayCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    QString write(const QString& name, const QByteArray& content) {
        const QString path = dir_.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size()) {
            qFatal("cannot write %s", qPrintable(path));
        }
        return path;
    }

    struct Result {
        int exitCode;
        QByteArray out;
        QByteArray err;
    };

    static Result run(const QStringList& args,
                      const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(qEnvironmentVariable("RATELAB_BIN"), args);
        if (!p.waitForFinished(60000)) {
            p.kill();
            p.waitForFinished();
            return {-1, {}, "timed out"};
        }
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2,
                p.readAllStandardOutput(), p.readAllStandardError()};
    }

    QString specFile(const QString& name) {
        return write(name + QStringLiteral(".json"),
                     QStringLiteral(R"({"type": "token_bucket", "name": "%1", "scope": "global",
                               "rate": 2, "interval_ms": 1000})")
                         .arg(name)
                         .toUtf8());
    }

    static QByteArray expectedReplay() {
        return "t_ms,client,permits,allowed,retry_after_ms,remaining,delay_ms\n"
               "0,a,1,1,0,1,0\n"
               "0,a,1,1,0,0,0\n"
               "10,a,1,0,990,0,0\n"
               "1000,a,2,1,0,0,0\n"
               "1000,a,1,0,1000,0,0\n"
               "2500,a,3,0,-1,2,0\n";
    }

    QString traceFile() {
        return write(QStringLiteral("trace.csv"),
                     "t_ms,client,permits\n0,a,1\n0,a,1\n10,a,1\n1000,a,2\n1000,a,1\n2500,a,3\n");
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void replaysExactly() {
        const QString name = uniqueName(QStringLiteral("cli"));
        const Result r = run({QStringLiteral("replay"), QStringLiteral("--limiter"), specFile(name),
                              QStringLiteral("--trace"), traceFile()});
        QCOMPARE(r.err, QByteArray());
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, expectedReplay());
        // Replaying again resets the limiter's keys first: same answer.
        const Result again = run({QStringLiteral("replay"), QStringLiteral("--limiter"),
                                  specFile(name), QStringLiteral("--trace"), traceFile()});
        QCOMPARE(again.out, expectedReplay());
        ScopedLimiter cleanup(ratelab::loadLimiterSpecFile(specFile(name)));
    }

    // The leaky bucket's accepted requests carry the delay nginx would hold them for; with
    // nodelay the same decisions carry none.
    void replaysLeakyBucketDelays_data() {
        QTest::addColumn<bool>("nodelay");
        QTest::addColumn<QByteArray>("expected");
        const QByteArray header = "t_ms,client,permits,allowed,retry_after_ms,remaining,delay_ms\n";
        QTest::newRow("queued") << false
                                << header +
                                       "0,a,1,1,0,3,0\n0,a,1,1,0,2,500\n0,a,1,1,0,1,1000\n"
                                       "0,a,1,1,0,0,1500\n0,a,1,0,500,0,0\n";
        QTest::newRow("nodelay") << true
                                 << header +
                                        "0,a,1,1,0,3,0\n0,a,1,1,0,2,0\n0,a,1,1,0,1,0\n"
                                        "0,a,1,1,0,0,0\n0,a,1,0,500,0,0\n";
    }
    void replaysLeakyBucketDelays() {
        QFETCH(bool, nodelay);
        QFETCH(QByteArray, expected);
        const QString name = uniqueName(QStringLiteral("leaky"));
        const QString spec = write(
            name + QStringLiteral(".json"),
            QStringLiteral(R"({"type": "leaky_bucket", "name": "%1", "rate": 2, "period_ms": 1000,
                               "burst": 3, "nodelay": %2})")
                .arg(name, nodelay ? QStringLiteral("true") : QStringLiteral("false"))
                .toUtf8());
        const QString trace = write(QStringLiteral("leaky.csv"),
                                    "t_ms,client,permits\n0,a,1\n0,a,1\n0,a,1\n0,a,1\n0,a,1\n");
        const Result r = run({QStringLiteral("replay"), QStringLiteral("--limiter"), spec,
                              QStringLiteral("--trace"), trace});
        QCOMPARE(r.err, QByteArray());
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, expected);
        ScopedLimiter cleanup(ratelab::loadLimiterSpecFile(spec));
    }

    // --explain keeps the columns as they are and adds the deciding rule and the reason, quoted
    // per RFC 4180 (it holds commas): a two-rule log refused by its first rule, then by its
    // second, and granted by the one with the least room left.
    void explainsEachDecision() {
        const QString name = uniqueName(QStringLiteral("why"));
        const QString spec =
            write(name + QStringLiteral(".json"),
                  QStringLiteral(R"({"type": "sliding_window", "name": "%1", "rules":
                               [{"limit": 2, "window_ms": 1000}, {"limit": 3, "window_ms": 10000}]})")
                      .arg(name)
                      .toUtf8());
        const QString trace =
            write(QStringLiteral("why.csv"),
                  "t_ms,client,permits\n0,a,1\n100,a,1\n200,a,1\n1500,a,1\n1600,a,1\n");
        const Result r = run({QStringLiteral("replay"), QStringLiteral("--limiter"), spec,
                              QStringLiteral("--trace"), trace, QStringLiteral("--explain")});
        QCOMPARE(r.err, QByteArray());
        QCOMPARE(r.exitCode, 0);
        const QList<QByteArray> lines = r.out.split('\n');
        QCOMPARE(lines.size(), 7);  // header, 5 rows, the empty end
        QCOMPARE(lines[0], QByteArray("t_ms,client,permits,allowed,retry_after_ms,remaining,"
                                      "delay_ms,rule,reason"));
        QCOMPARE(lines[1], QByteArray("0,a,1,1,0,1,0,0,\"rule 1 of 2 (the least room left): 2 per "
                                      "1000 ms held 0 of 2 in (-1000 ms, 0 ms], asked 1 → "
                                      "granted, 1 left\""));
        QCOMPARE(lines[3], QByteArray("200,a,1,0,800,0,0,0,\"rule 1 of 2 (the longest wait): 2 "
                                      "per 1000 ms held 2 of 2 in (-800 ms, 200 ms], asked 1 → "
                                      "refused, retry in 800 ms\""));
        QCOMPARE(lines[4], QByteArray("1500,a,1,1,0,0,0,1,\"rule 2 of 2 (the least room left): 3 "
                                      "per 10000 ms held 2 of 3 in (-8500 ms, 1500 ms], asked 1 "
                                      "→ granted, 0 left\""));
        QCOMPARE(lines[5], QByteArray("1600,a,1,0,8400,0,0,1,\"rule 2 of 2 (the longest wait): 3 "
                                      "per 10000 ms held 3 of 3 in (-8400 ms, 1600 ms], asked 1 "
                                      "→ refused, retry in 8400 ms\""));
        // Without --explain the same rows carry the same first seven columns.
        const Result plain = run({QStringLiteral("replay"), QStringLiteral("--limiter"), spec,
                                  QStringLiteral("--trace"), trace});
        const QList<QByteArray> plainLines = plain.out.split('\n');
        for (int i = 1; i <= 5; ++i) {
            QVERIFY2(lines[i].startsWith(plainLines[i] + ','), lines[i].constData());
        }
        ScopedLimiter cleanup(ratelab::loadLimiterSpecFile(spec));
    }

    // No --redis and no REDIS_URL: ratelab starts (and stops) its own redis-server.
    void managedLocalServer() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("REDIS_URL"));
        const Result r =
            run({QStringLiteral("replay"), QStringLiteral("--limiter"),
                 specFile(QStringLiteral("local")), QStringLiteral("--trace"), traceFile()},
                env);
        QCOMPARE(r.err, QByteArray());
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, expectedReplay());
    }

    void badInput_data() {
        QTest::addColumn<QByteArray>("spec");
        QTest::addColumn<QByteArray>("trace");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const QByteArray okSpec =
            R"({"type":"token_bucket","name":"bad","rate":1,"interval_ms":1})";
        const QByteArray okTrace = "0,a,1\n";
        QTest::newRow("zero rate")
            << QByteArray(R"({"type":"token_bucket","name":"x","rate":0,"interval_ms":5})")
            << okTrace << QStringList() << 2 << QStringLiteral("$.rate");
        QTest::newRow("not json") << QByteArray("{\n  \"type\": ,\n}") << okTrace << QStringList()
                                  << 2 << QStringLiteral("line 2");
        QTest::newRow("unknown field")
            << QByteArray(
                   R"({"type":"sliding_window","name":"x","rules":[{"limit":1,"window_ms":1,"burst":2}]})")
            << okTrace << QStringList() << 2 << QStringLiteral("$.rules[0].burst");
        QTest::newRow("bad permits") << okSpec << QByteArray("t_ms,client,permits\n0,a,1\n5,b,x\n")
                                     << QStringList() << 2 << QStringLiteral("trace.csv:3");
        QTest::newRow("time goes back") << okSpec << QByteArray("5,a,1\n4,a,1\n") << QStringList()
                                        << 2 << QStringLiteral("trace.csv:2");
        QTest::newRow("empty trace")
            << okSpec << QByteArray() << QStringList() << 2 << QStringLiteral("trace.csv");
        // rediss:// is a URL like any other now; a TLS file that is not there is bad input.
        QTest::newRow("missing TLS file")
            << okSpec << okTrace
            << QStringList{QStringLiteral("--redis"), QStringLiteral("rediss://localhost:6380"),
                           QStringLiteral("--tls-ca-cert"), QStringLiteral("/nonexistent/ca.crt")}
            << 2 << QStringLiteral("--tls-ca-cert: ");
        QTest::newRow("unknown option")
            << okSpec << okTrace << QStringList{QStringLiteral("--colour")} << 2
            << QStringLiteral("colour");
        QTest::newRow("unknown on_error")
            << QByteArray(
                   R"({"type":"token_bucket","name":"x","rate":1,"interval_ms":1,"on_error":"skip"})")
            << okTrace << QStringList() << 2
            << QStringLiteral(
                   R"(spec.json: $.on_error: unknown failure policy "skip"; expected error, )"
                   R"(open or closed)");
        QTest::newRow("100000 nested arrays")
            << QByteArray(100000, '[') + QByteArray(100000, ']') << okTrace << QStringList() << 2
            << QStringLiteral(
                   "spec.json: line 1, column 1025: JSON nested more than 1024 levels deep");
        QTest::newRow("binary garbage")
            << QByteArray("\xca\xfe\xba\xbe\x00\x00\x00\x34", 8) << okTrace << QStringList() << 2
            << QStringLiteral("spec.json: $: expected a JSON object");
        QTest::newRow("empty spec") << QByteArray() << okTrace << QStringList() << 2
                                    << QStringLiteral("spec.json: the file is empty");
        // The rows would print the trace's times, while the limiter decided at Redis's clock.
        QTest::newRow("time redis")
            << QByteArray(
                   R"({"type":"token_bucket","name":"x","rate":1,"interval_ms":1,"time":"redis"})")
            << okTrace << QStringList() << 2
            << QStringLiteral(
                   "spec.json: $.time: \"redis\": a replay decides each row at its t_ms");
        QTest::newRow("unreachable, password hidden")
            << okSpec << okTrace
            << QStringList{QStringLiteral("--redis"),
                           QStringLiteral("redis://alice:hunter2@127.0.0.1:1/0")}
            << 3 << QStringLiteral("redis://alice:***@127.0.0.1:1/0");
    }
    void badInput() {
        QFETCH(QByteArray, spec);
        QFETCH(QByteArray, trace);
        QFETCH(QStringList, extra);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const QStringList args =
            QStringList{QStringLiteral("replay"), QStringLiteral("--limiter"),
                        write(QStringLiteral("spec.json"), spec), QStringLiteral("--trace"),
                        write(QStringLiteral("trace.csv"), trace)} +
            extra;
        const Result r = run(args);
        QCOMPARE(r.exitCode, exitCode);
        QCOMPARE(r.out, QByteArray());
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(message), qPrintable(err));
        QVERIFY2(!err.contains(QStringLiteral("hunter2")), qPrintable(err));
    }

    // stdout that cannot be written stops the replay with exit 4: a full device, a reader that
    // went away (`| head -2`: EPIPE). Before, both exited 0, the second after deciding every row.
    void stdoutFails_data() {
        QTest::addColumn<QString>("redirect");
        QTest::newRow("full device") << QStringLiteral("> /dev/full; echo \"exit $?\" >&2");
        QTest::newRow("reader gone")
            << QStringLiteral("| head -2 > /dev/null; echo \"exit ${PIPESTATUS[0]}\" >&2");
    }
    void stdoutFails() {
        QFETCH(QString, redirect);
        if (QFileInfo(QStringLiteral("/dev/full")).isFile()) {
            QSKIP("/dev/full is a regular file here, not the full device");
        }
        QByteArray trace = "t_ms,client,permits\n";
        const int rows = 50000;
        for (int i = 0; i < rows; ++i) {
            trace += QByteArray::number(i) + ",a,1\n";
        }
        const QString traceFile = write(QStringLiteral("long.csv"), trace);
        QProcess p;
        p.start(QStringLiteral("bash"),
                {QStringLiteral("-c"),
                 QStringLiteral("\"$RATELAB_BIN\" replay --limiter '%1' --trace '%2' %3")
                     .arg(specFile(uniqueName(QStringLiteral("stdout"))), traceFile, redirect)});
        QVERIFY(p.waitForFinished(120000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("exit 4")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("stdout: cannot write")), qPrintable(err));
        QVERIFY2(!err.contains(QStringLiteral("deciding %1 of").arg(rows)), qPrintable(err));
    }

    void missingArguments() {
        const Result r = run(
            {QStringLiteral("replay"), QStringLiteral("--limiter"), specFile(QStringLiteral("m"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(QString::fromUtf8(r.err).contains(QStringLiteral("--trace")));
    }
};

QTEST_GUILESS_MAIN(TestReplayCli)
#include "tst_replay_cli.moc"
