// `ratelab run` and `ratelab bench` end to end: the binary against the fixture Redis.
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "support/test_redis.h"

using namespace ratelab::test;

class TestRunCli : public QObject {
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

    static Result run(const QStringList& args) {
        QProcess p;
        p.start(qEnvironmentVariable("RATELAB_BIN"), args);
        if (!p.waitForFinished(120000)) {
            p.kill();
            p.waitForFinished();
            return {-1, {}, "timed out"};
        }
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2,
                p.readAllStandardOutput(), p.readAllStandardError()};
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // A virtual-clock scenario: exact counts, and the three output files.
    void runWritesOutputs() {
        const QString tb = uniqueName(QStringLiteral("cli-tb"));
        const QString fw = uniqueName(QStringLiteral("cli-fw"));
        const QString scenario = write(QStringLiteral("scenario.json"), QStringLiteral(R"({
  "name": "cli test",
  "limiters": [
    {"type": "token_bucket", "name": "%1", "rate": 10, "interval_ms": 1000},
    {"type": "fixed_window", "name": "%2", "rate": 10, "interval": 1, "unit": "seconds",
     "timezone": "UTC", "on_error": "closed"}
  ],
  "traffic": {"shape": {"type": "constant", "rate": 50}, "duration_s": 2,
              "clock": {"type": "virtual", "start": "2024-01-01T00:00:00.500Z", "speed": 0}}
})")
                                                                            .arg(tb, fw)
                                                                            .toUtf8());
        const QString out = dir_.filePath(QStringLiteral("out"));
        const Result r = run({QStringLiteral("run"), scenario, QStringLiteral("--out"), out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("fired 100 = accepted 20 + rejected 80 + errors 0"), r.out);
        QVERIFY2(r.out.contains("fired 100 = accepted 30 + rejected 70 + errors 0"), r.out);

        QFile summaryFile(out + QStringLiteral("/summary.json"));
        QVERIFY(summaryFile.open(QIODevice::ReadOnly));
        const QJsonObject summary = QJsonDocument::fromJson(summaryFile.readAll()).object();
        QCOMPARE(summary.value(QStringLiteral("requests")).toInt(), 100);
        QCOMPARE(summary.value(QStringLiteral("target_rate")).toDouble(), 50.0);
        const QJsonArray limiters = summary.value(QStringLiteral("limiters")).toArray();
        QCOMPARE(limiters.size(), 2);
        QCOMPARE(limiters[0].toObject().value(QStringLiteral("accepted")).toInt(), 20);
        QCOMPARE(limiters[1].toObject().value(QStringLiteral("accepted")).toInt(), 30);
        QVERIFY(limiters[0].toObject().value(QStringLiteral("accounting_exact")).toBool());
        // Nothing failed: the policy (default "error") let nothing through and refused nothing.
        QCOMPARE(limiters[0].toObject().value(QStringLiteral("on_error")).toString(),
                 QStringLiteral("error"));
        QCOMPARE(limiters[1].toObject().value(QStringLiteral("on_error")).toString(),
                 QStringLiteral("closed"));
        for (const QJsonValue& limiter : limiters) {
            QCOMPARE(limiter.toObject().value(QStringLiteral("errors_open")).toInt(-1), 0);
            QCOMPARE(limiter.toObject().value(QStringLiteral("errors_closed")).toInt(-1), 0);
        }

        QFile buckets(out + QStringLiteral("/buckets.csv"));
        QVERIFY(buckets.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = buckets.readAll().trimmed().split('\n');
        QCOMPARE(lines.first(),
                 QByteArray("bucket,t_ms,limiter,accepted,rejected,errors,target_rate,"
                            "errors_open,errors_closed"));
        QCOMPARE(lines.size(), 1 + 20 * 2);  // 2 s of 100 ms buckets, two limiters
        qint64 accepted = 0;
        for (const QByteArray& line : lines.mid(1)) {
            accepted += line.split(',').at(3).toLongLong();
        }
        QCOMPARE(accepted, 50);

        const QImage report(out + QStringLiteral("/report.png"));
        QVERIFY(!report.isNull());
        QVERIFY(report.width() >= 800);

        // report.html beside it, from the same summary (tst_html_report checks its content).
        QFile html(out + QStringLiteral("/report.html"));
        QVERIFY(html.open(QIODevice::ReadOnly));
        QVERIFY(html.readAll().contains("data:image/png;base64,"));
    }

    void badScenario_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("zero rate")
            << QByteArray(R"({"limiters": [{"type": "token_bucket", "name": "x", "rate": 1,
                "interval_ms": 1}], "traffic": {"shape": {"type": "constant", "rate": 0},
                "duration_s": 1}})")
            << QStringLiteral("$.traffic.shape.rate");
        QTest::newRow("bad limiter")
            << QByteArray(R"({"limiters": [{"type": "token_bucket", "name": "x", "rate": -1,
                "interval_ms": 1}], "traffic": {"shape": {"type": "constant", "rate": 1},
                "duration_s": 1}})")
            << QStringLiteral("$.limiters[0].rate");
        QTest::newRow("not json") << QByteArray("[1, 2") << QStringLiteral("line 1");
        QTest::newRow("unknown on_error")
            << QByteArray(R"({"limiters": [{"type": "token_bucket", "name": "x", "rate": 1,
                "interval_ms": 1, "on_error": "ignore"}], "traffic": {"shape": {"type":
                "constant", "rate": 1}, "duration_s": 1}})")
            << QStringLiteral(
                   R"($.limiters[0].on_error: unknown failure policy "ignore"; expected error, )"
                   R"(open or closed)");
        QTest::newRow("100000 nested arrays")
            << QByteArray(100000, '[') + QByteArray(100000, ']')
            << QStringLiteral("line 1, column 1025: JSON nested more than 1024 levels deep");
        QTest::newRow("binary garbage") << QByteArray("\x00\x01\x02\xff\xfe\xfd", 6)
                                        << QStringLiteral("$: expected a JSON object");
        QTest::newRow("empty file") << QByteArray() << QStringLiteral("the file is empty");
    }
    void badScenario() {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        const Result r = run({QStringLiteral("run"), write(QStringLiteral("bad.json"), json),
                              QStringLiteral("--out"), dir_.filePath(QStringLiteral("bad"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QVERIFY2(QString::fromUtf8(r.err).contains(QStringLiteral("bad.json")), r.err.constData());
    }

    // The memory budget is checked before anything is allocated (unchecked, 64 threads x 4
    // limiters x 1,000,000 buckets took 10 GB and 45 s before the first request); --max-memory
    // moves the limit either way.
    void maxMemory_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");  // on stderr (exit 2) or stdout (exit 0)
        // Plain literals here: AutoMoc's scanner loses its way in some raw strings.
        QByteArray big = "{\"limiters\": [";
        for (int i = 0; i < 4; ++i) {
            big += QByteArray(i == 0 ? "" : ", ") + "{\"type\": \"token_bucket\", \"name\": \"big" +
                   QByteArray::number(i) + "\", \"rate\": 1, \"interval_ms\": 1000}";
        }
        big +=
            "], \"traffic\": {\"shape\": {\"type\": \"constant\", \"rate\": 1}, "
            "\"duration_s\": 1000, \"threads\": 64}, \"bucket_ms\": 1}";
        const QByteArray small =
            QStringLiteral(
                "{\"limiters\": [{\"type\": \"token_bucket\", \"name\": \"%1\", "
                "\"rate\": 10, \"interval_ms\": 1000}], \"traffic\": {\"shape\": "
                "{\"type\": \"constant\", \"rate\": 1}, \"duration_s\": 100, "
                "\"clock\": {\"type\": \"virtual\", \"start\": "
                "\"2024-01-01T00:00:00Z\", \"speed\": 0}}, \"bucket_ms\": 1}")
                .arg(uniqueName(QStringLiteral("cli-mem")))
                .toUtf8();
        QTest::newRow("10 GiB of counters, default limit")
            << big << QStringList() << 2
            << QStringLiteral(
                   "of memory: 9.5 GiB of counters (64 threads × 4 limiters × "
                   "1,000,000 buckets × 5 counters × 8 bytes)");
        QTest::newRow("10 GiB of counters: the limit named")
            << big << QStringList() << 2
            << QStringLiteral("more than the 1 GiB limit; raise bucket_ms");
        QTest::newRow("a lower limit refuses a small run")
            << small << QStringList{QStringLiteral("--max-memory"), QStringLiteral("8MiB")} << 2
            << QStringLiteral("more than the 8 MiB limit");
        QTest::newRow("a higher limit admits it")
            << small << QStringList{QStringLiteral("--max-memory"), QStringLiteral("1GiB")} << 0
            << QStringLiteral("fired 100 = accepted 100 + rejected 0 + errors 0");
        QTest::newRow("not a size")
            << small << QStringList{QStringLiteral("--max-memory"), QStringLiteral("lots")} << 2
            << QStringLiteral("--max-memory: \"lots\" is not a memory size");
        QTest::newRow("below 1 MiB")
            << small << QStringList{QStringLiteral("--max-memory"), QStringLiteral("512KiB")} << 2
            << QStringLiteral("--max-memory: \"512KiB\" is below 1 MiB");
    }
    void maxMemory() {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, options);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const Result r =
            run(QStringList{QStringLiteral("run"), write(QStringLiteral("memory.json"), json),
                            QStringLiteral("--out"), dir_.filePath(QStringLiteral("memory"))} +
                options);
        QCOMPARE(r.exitCode, exitCode);
        const QString said = QString::fromUtf8(exitCode == 0 ? r.out : r.err);
        QVERIFY2(said.contains(message), qPrintable(said));
    }

    // A 100 MB scenario file (sparse) is refused from its size, unread: exit 2, the file and its
    // size named.
    void hugeScenarioFile() {
        const QString path = write(QStringLiteral("huge.json"), "{");
        QFile file(path);
        QVERIFY(file.resize(100LL * 1024 * 1024));
        const Result r = run({QStringLiteral("run"), path, QStringLiteral("--out"),
                              dir_.filePath(QStringLiteral("huge"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(
                     path + QStringLiteral(": the file is larger than 1 MiB (104857600 bytes)")),
                 r.err.constData());
        QCOMPARE(r.out, QByteArray());
    }

    void benchPrintsThroughput() {
        const QString spec =
            write(QStringLiteral("bench.json"),
                  QStringLiteral(R"({"type": "sliding_window", "name": "%1", "scope": "per_client",
                               "rules": [{"limit": 5, "window_ms": 1000}]})")
                      .arg(uniqueName(QStringLiteral("bench")))
                      .toUtf8());
        const Result r =
            run({QStringLiteral("bench"), QStringLiteral("--limiter"), spec,
                 QStringLiteral("--connections"), QStringLiteral("2"), QStringLiteral("--pipeline"),
                 QStringLiteral("8"), QStringLiteral("--requests"), QStringLiteral("2000")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QVERIFY2(QRegularExpression(QStringLiteral("^decisions_per_s: [1-9][0-9]*$"))
                     .match(QString::fromUtf8(lines.last()))
                     .hasMatch(),
                 r.out.constData());
        const QRegularExpressionMatch counts =
            QRegularExpression(QStringLiteral("accepted: (\\d+)  rejected: (\\d+)  errors: 0"))
                .match(QString::fromUtf8(r.out));
        QVERIFY2(counts.hasMatch(), r.out.constData());
        QCOMPARE(counts.captured(1).toInt() + counts.captured(2).toInt(), 2000);
        QVERIFY(r.out.contains("redis-benchmark"));
        // What the decisions cost Redis itself (other tests' scripts may add calls: at least).
        const QRegularExpressionMatch cost =
            QRegularExpression(QStringLiteral("redis_us_per_decision: [0-9.]+  \\(INFO "
                                              "commandstats, EVALSHA\\+EVAL: (\\d+) calls"))
                .match(QString::fromUtf8(r.out));
        QVERIFY2(cost.hasMatch(), r.out.constData());
        QVERIFY(cost.captured(1).toLongLong() >= 2000);
        QVERIFY2(QRegularExpression(QStringLiteral("decisions_per_redis_core_s: [1-9][0-9]*\\n"))
                     .match(QString::fromUtf8(r.out))
                     .hasMatch(),
                 r.out.constData());
        QVERIFY2(
            QRegularExpression(QStringLiteral("key_memory_bytes: [1-9][0-9]* in [1-9][0-9]* keys"))
                .match(QString::fromUtf8(r.out))
                .hasMatch(),
            r.out.constData());
    }

    void benchBadOption() {
        const Result r = run({QStringLiteral("bench"), QStringLiteral("--limiter"),
                              write(QStringLiteral("b.json"), "{}"), QStringLiteral("--pipeline"),
                              QStringLiteral("0")});
        QCOMPARE(r.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestRunCli)
#include "tst_run_cli.moc"
