// `ratelab hunt --distributed` and `ratelab worker` end to end: the binary's processes against
// the fixture Redis. A distributed hunt prints and writes what a local hunt with the same seed
// and --traces does (the speed line aside) with 0, 1 and 2 workers, with a worker killed -9, and
// when the first failing trace is found by a worker after the coordinator found later ones; it
// ends cleanly on SIGINT; its options are checked before Redis is touched; the job's keys are
// gone at its end.
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <thread>

#include "distributed/job_queue.h"
#include "redis/redis_connection.h"
#include "redis/redis_reply.h"
#include "support/cli_process.h"
#include "support/queue_workers.h"
#include "support/test_files.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// stdout without the speed line (which differs from run to run), the output folder named X.
QByteArray comparable(const QByteArray& out, const QString& dir) {
    QList<QByteArray> kept;
    for (const QByteArray& line : out.split('\n')) {
        if (!line.contains(" traces/s,")) {
            kept << QByteArray(line).replace(dir.toUtf8(), "X");
        }
    }
    return kept.join('\n');
}

const char* const kFiles[] = {"counterexample.csv", "counterexample.json", "regression.json"};

}  // namespace

class TestDistributedHunt : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString fixed_;  // a fixed window that the sliding log (reference_) refutes
    QString reference_;
    QString good_;  // a sliding log that keeps retry and remaining

    QString write(const QString& name, const QByteArray& content) {
        return writeTestFileIn(dir_.path(), name, content);
    }

    // The hunt's arguments: the fixed window against the log, or the good log alone.
    QStringList hunt(bool failing, const QString& seed, const QString& traces,
                     const QString& out) const {
        QStringList args{QStringLiteral("hunt"), failing ? fixed_ : good_};
        if (failing) {
            args << QStringLiteral("--reference") << reference_;
        }
        return args << QStringLiteral("--seed") << seed << QStringLiteral("--traces") << traces
                    << QStringLiteral("--out") << out << QStringLiteral("--redis") << fixtureText();
    }

    static QStringList distributed(QStringList args, const QString& queue, const QString& batch,
                                   const QString& claimMs = QStringLiteral("500")) {
        return args << QStringLiteral("--distributed") << QStringLiteral("--queue") << queue
                    << QStringLiteral("--batch") << batch << QStringLiteral("--claim-ms")
                    << claimMs;
    }

    // The local hunt of the same arguments: its stdout, for `check`.
    CliResult local(const QStringList& args, const QString& out) {
        const CliResult r =
            runRatelab(QStringList(args).replaceInStrings(out, out + QLatin1String("-local")));
        if (r.exitCode != 0 && r.exitCode != 1) {
            qWarning("local hunt: exit %d\n%s", r.exitCode, r.err.constData());
        }
        return r;
    }

    // The distributed hunt (`mine`, in `out`) printed and wrote what the local one did.
    static void check(const CliResult& mine, const CliResult& reference, const QString& out,
                      const QByteArray& log) {
        QVERIFY2(mine.exitCode == reference.exitCode,
                 (QByteArray::number(mine.exitCode) + " " + mine.err + log).constData());
        QCOMPARE(comparable(mine.out, out),
                 comparable(reference.out, out + QLatin1String("-local")));
        for (const char* file : kFiles) {
            const QByteArray theirs =
                readTestFile(out + QLatin1String("-local/") + QLatin1String(file));
            QCOMPARE(readTestFile(out + QLatin1Char('/') + QLatin1String(file)), theirs);
        }
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        fixed_ = write(QStringLiteral("fixed.json"),
                       R"({"type": "fixed_window", "name": "fw", "rate": 3, "interval": 1,
                           "unit": "seconds", "timezone": "UTC"})");
        reference_ = write(QStringLiteral("log.json"), R"({"type": "sliding_window",
                           "rules": [{"limit": 3, "window_ms": 1000}]})");
        good_ = write(QStringLiteral("good.json"),
                      R"({"type": "sliding_window", "name": "good",
                          "rules": [{"limit": 3, "window_ms": 1000}]})");
    }

    // 0, 1 and 2 workers beside the coordinator, a trace that fails and none that does: what a
    // local hunt prints and writes; the job's keys are gone.
    void sameAsLocal_data() {
        QTest::addColumn<int>("workers");
        QTest::addColumn<bool>("failing");
        QTest::addColumn<QString>("seed");
        QTest::addColumn<QString>("traces");
        QTest::addColumn<QString>("batch");
        QTest::newRow("0 workers, a counterexample") << 0 << true << "7"
                                                     << "60"
                                                     << "1";
        QTest::newRow("1 worker, a counterexample") << 1 << true << "7"
                                                    << "60"
                                                    << "1";
        QTest::newRow("2 workers, a counterexample") << 2 << true << "5"
                                                     << "60"
                                                     << "2";
        QTest::newRow("2 workers, none") << 2 << false << "1"
                                         << "150"
                                         << "7";
    }
    void sameAsLocal() {
        QFETCH(int, workers);
        QFETCH(bool, failing);
        QFETCH(QString, seed);
        QFETCH(QString, traces);
        QFETCH(QString, batch);
        const QString queue = uniqueName(QStringLiteral("hq"));
        const QString out = dir_.filePath(uniqueName(QStringLiteral("same")));
        const QStringList args = hunt(failing, seed, traces, out);
        const CliResult reference = local(args, out);
        QCOMPARE(reference.exitCode, failing ? 1 : 0);
        Processes started;
        QVector<QByteArray> logs(workers);
        for (int i = 0; i < workers; ++i) {
            started.push_back(startWorker(queue, logs[i]));
        }
        const CliResult r = runRatelab(distributed(args, queue, batch));
        const QByteArray log = stopWorkers(started, logs);
        QVERIFY2(r.err.contains("hunt: published"), r.err.constData());
        check(r, reference, out, log);
        if (workers > 0) {
            QVERIFY2(log.contains("took batch") && log.contains("(traces "), log.constData());
        }
        checkQueueCleared(queue);
    }

    // A worker killed -9 while it holds a batch: the batch is claimed after the claim time by
    // the coordinator or the other worker, and the answer is the local hunt's.
    void workerKilledHoldingABatch() {
        const QString queue = uniqueName(QStringLiteral("hq"));
        const QString out = dir_.filePath(QStringLiteral("killed"));
        const QStringList args = hunt(false, QStringLiteral("2"), QStringLiteral("600"), out);
        const CliResult reference = local(args, out);
        QVector<QByteArray> logs(2);
        Processes started;
        started.push_back(startWorker(queue, logs[0]));
        auto victim = startWorker(queue, logs[1]);
        auto coordinator = startRatelab(distributed(args, queue, QStringLiteral("50")));
        QVERIFY2(waitForStderr(*victim, "took batch", logs[1]), logs[1].constData());
        ::kill(pid_t(victim->processId()), SIGKILL);
        const QString victimName =
            QStringLiteral("%1:%2").arg(QSysInfo::machineHostName()).arg(victim->processId());
        const CliResult killed = finishRatelab(*victim);
        const CliResult r = endOf(*coordinator);
        const QByteArray log = stopWorkers(started, logs);
        check(r, reference, out, r.err + log);
        checkQueueCleared(queue);
        // The victim's scratch keys stay until their TTLs end: deleted here, so that
        // tst_hunt's check that no hunt key is left holds (no other hunt runs beside this test:
        // RESOURCE_LOCK hunt_scratch_keys).
        const auto admin = connectFixture();
        RedisReply left = admin->command({"KEYS", "*hunt-*"});
        for (size_t i = 0; i < left->elements; ++i) {
            admin->command({"DEL", std::string(left->element[i]->str, left->element[i]->len)});
        }
        // The batch it held when killed: the others took it only by claiming it (unless the
        // victim posted its result in the instant before the signal, when no one took it).
        const QByteArray victimLog = logs[1] + killed.err;
        QString last;  // the last batch it took or claimed
        auto all = QRegularExpression(QStringLiteral(R"((took|claimed) batch (\d+) of job)"))
                       .globalMatch(QString::fromUtf8(victimLog));
        while (all.hasNext()) {
            last = all.next().captured(2);
        }
        QVERIFY2(!last.isEmpty(), victimLog.constData());
        const QByteArray others = r.err + log;
        const bool redone = !victimLog.contains("finished batch " + last.toUtf8() + " of") &&
                            others.contains("finished batch " + last.toUtf8() + " of");
        if (!redone) {
            return;  // it posted its last result before the signal: nothing was claimed from it
        }
        QVERIFY2(others.contains("claimed batch " + last.toUtf8() + " of"), others.constData());
        // Claimed from it, so pending longer than the claim time: it holds nothing and has been
        // idle that long; the job's end took it out of the group, and the coordinator left it.
        JobQueue jobs(QueueKeys(queue, QStringLiteral("test")), fixtureUrl());
        QStringList consumers;
        for (const auto& consumer : jobs.consumers()) {
            consumers << consumer.name;
        }
        QVERIFY2(!consumers.contains(victimName), qPrintable(consumers.join(QLatin1Char(' '))));
        QVERIFY2(!consumers.join(QLatin1Char(' ')).contains(QLatin1String(":coordinator")),
                 qPrintable(consumers.join(QLatin1Char(' '))));
    }

    // The first failing trace is in batch 0, which a consumer of the test's own takes first and
    // never answers; the coordinator (which claims nothing within the test) finds later traces
    // failing and waits; a worker started then claims batch 0 and finds trace 0: the coordinator
    // takes that one, checks it again, shrinks it, and the answer is the local hunt's.
    void counterexampleFoundByAWorker() {
        const QString queue = uniqueName(QStringLiteral("hq"));
        const QueueKeys keys(queue, QStringLiteral("test"));
        const QString out = dir_.filePath(QStringLiteral("by-worker"));
        const QStringList args = hunt(true, QStringLiteral("3"), QStringLiteral("40"), out);
        const CliResult reference = local(args, out);
        QVERIFY2(reference.out.contains("(trace 0 of seed 3"), reference.out.constData());

        const auto admin = connectFixture();
        RedisReply created =
            admin->command({"XGROUP", "CREATE", keys.jobs(), "workers", "0", "MKSTREAM"});
        QVERIFY(created->type == REDIS_REPLY_STATUS);
        const auto holder = connectFixture();
        const long long holderId = replyInteger(holder->command({"CLIENT", "ID"}).get(), "ID");
        RedisReply held;
        std::thread take([&] {
            held = holder->command({"XREADGROUP", "GROUP", "workers", "test:holder", "COUNT", "1",
                                    "BLOCK", "120000", "STREAMS", keys.jobs(), ">"});
        });
        const auto blocked = [&] {
            RedisReply r = admin->command({"CLIENT", "LIST", "ID", std::to_string(holderId)});
            return QByteArray(r->str, qsizetype(r->len)).contains("flags=b");
        };
        QTRY_VERIFY_WITH_TIMEOUT(blocked(), 20000);

        auto coordinator =
            startRatelab(distributed(args, queue, QStringLiteral("2"), QStringLiteral("3600000")));
        QByteArray coordinatorLog;
        const bool laterFails = waitForMatch(
            *coordinator,
            QRegularExpression(QStringLiteral(R"(trace \d+ fails \(batch [1-9]\d*, found by)")),
            coordinatorLog);
        take.join();
        QVERIFY2(laterFails, coordinatorLog.constData());
        QVERIFY(held && held->type == REDIS_REPLY_ARRAY);
        QVERIFY2(!coordinatorLog.contains("trace 0 fails"), coordinatorLog.constData());

        QVector<QByteArray> logs(1);
        Processes started;
        started.push_back(startWorker(queue, logs[0]));
        const qint64 workerPid = started[0]->processId();
        const CliResult r = endOf(*coordinator);
        coordinatorLog += r.err;
        const QByteArray log = stopWorkers(started, logs);
        QVERIFY2(log.contains("claimed batch 0 of job") && log.contains("trace 0 breaks agree"),
                 log.constData());
        QVERIFY2(coordinatorLog.contains(QStringLiteral("trace 0 fails (batch 0, found by %1:%2)")
                                             .arg(QSysInfo::machineHostName())
                                             .arg(workerPid)
                                             .toUtf8()),
                 coordinatorLog.constData());
        check(r, reference, out, coordinatorLog + log);
        checkQueueCleared(queue);
        admin->command({"XGROUP", "DELCONSUMER", keys.jobs(), "workers", "test:holder"});
    }

    // SIGINT: the coordinator stops, says what it tried, exits 130 and leaves no job behind.
    void interruptedCleanly() {
        const QString queue = uniqueName(QStringLiteral("hq"));
        const QString out = dir_.filePath(QStringLiteral("interrupted"));
        auto p = startRatelab(
            distributed(hunt(false, QStringLiteral("1"), QStringLiteral("100000"), out), queue,
                        QStringLiteral("1000")));
        QByteArray err;
        QVERIFY2(waitForStderr(*p, "finished batch", err), err.constData());
        ::kill(pid_t(p->processId()), SIGINT);
        const CliResult r = finishRatelab(*p, 60000);
        QCOMPARE(r.exitCode, 130);
        QVERIFY2(QRegularExpression(
                     QStringLiteral("interrupted by SIGINT after [1-9]\\d* traces \\(\\d+ rows\\)"))
                     .match(QString::fromUtf8(r.out))
                     .hasMatch(),
                 (r.out + err + r.err).constData());
        checkQueueCleared(queue);
    }

    // Options of --distributed: exit 2 with the reason, before any batch is published.
    void badInput_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("message");
        const QString spec = QStringLiteral("%SPEC%");
        QTest::newRow("--budget-s") << QStringList{QStringLiteral("hunt"),
                                                   spec,
                                                   QStringLiteral("--distributed"),
                                                   QStringLiteral("--budget-s"),
                                                   QStringLiteral("5"),
                                                   QStringLiteral("--redis"),
                                                   fixtureText()}
                                    << QByteArray("--budget-s: not with --distributed");
        QTest::newRow("--batch alone")
            << QStringList{QStringLiteral("hunt"), spec, QStringLiteral("--batch"),
                           QStringLiteral("3")}
            << QByteArray("--batch: only with --distributed");
        QTest::newRow("no shared Redis")
            << QStringList{QStringLiteral("hunt"), spec, QStringLiteral("--distributed")}
            << QByteArray("--distributed needs the Redis every worker reaches");
        QTest::newRow("queue with a glob") << QStringList{QStringLiteral("hunt"),
                                                          spec,
                                                          QStringLiteral("--distributed"),
                                                          QStringLiteral("--queue"),
                                                          QStringLiteral("h*"),
                                                          QStringLiteral("--redis"),
                                                          fixtureText()}
                                           << QByteArray("--queue: \"h*\" is not a queue name");
        QTest::newRow("batch of 0") << QStringList{QStringLiteral("hunt"),
                                                   spec,
                                                   QStringLiteral("--distributed"),
                                                   QStringLiteral("--batch"),
                                                   QStringLiteral("0"),
                                                   QStringLiteral("--redis"),
                                                   fixtureText()}
                                    << QByteArray("--batch:");
    }
    void badInput() {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, message);
        args.replaceInStrings(QStringLiteral("%SPEC%"), good_);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("REDIS_URL"));
        const CliResult r = runRatelab(args, env, 60000);
        QVERIFY2(r.exitCode == 2, (r.out + r.err).constData());
        QVERIFY2(r.err.contains(message), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestDistributedHunt)
#include "tst_distributed_hunt.moc"
