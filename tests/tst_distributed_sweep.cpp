// `ratelab sweep --distributed` and `ratelab worker` end to end: the binary's processes against
// the fixture Redis (and a redis-server of the test's own where Redis goes away). A distributed
// sweep's sweep.csv and sweep.json equal a local sweep's byte for byte with 1, 2 and 3 workers,
// a worker joining late, a worker killed -9 holding a batch, Redis restarted empty mid-sweep;
// a worker of another version, a result that does not parse and a result posted twice are
// handled without counting anything twice or losing it; bad queue names and a password in the
// scenario are refused; the job's keys are gone at its end.
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <memory>
#include <vector>

#include "distributed/job_queue.h"
#include "redis/local_redis_server.h"
#include "redis/redis_reply.h"
#include "support/cli_process.h"
#include "support/queue_workers.h"
#include "support/test_files.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QString fixture() {
    return fixtureText();
}

}  // namespace

class TestDistributedSweep : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString scenario_;
    QString local_;  // the local sweep's folder, the reference

    // 12 combinations of a calendar fixed window (rate x interval) beside a token bucket no
    // axis varies, 2,000 requests each.
    QString writeScenario(const QString& file, const QString& name) {
        const QString path = dir_.filePath(file);
        writeTestFile(path, QStringLiteral(R"({"name": "%1",
  "limiters": [{"type": "fixed_window", "name": "%2", "rate": 10, "interval": 1,
                "unit": "seconds", "timezone": "UTC"},
               {"type": "token_bucket", "name": "%3", "rate": 30, "interval_ms": 1000}],
  "traffic": {"shape": {"type": "poisson", "rate": 200}, "duration_s": 10, "clients": 3,
              "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": 0}},
  "sweep": {"vary": {"%2.rate": [5, 10, 20], "%2.interval": {"from": 1, "to": 4}},
            "minimize": "accepted", "constraints": ["accepted >= 300"]}})")
                                .arg(name, uniqueName(QStringLiteral("dist-fw")),
                                     uniqueName(QStringLiteral("dist-tb")))
                                .toUtf8());
        return path;
    }

    static QStringList distributed(const QString& scenario, const QString& out,
                                   const QString& queue, const QString& url = fixture()) {
        return {QStringLiteral("sweep"),
                scenario,
                QStringLiteral("--out"),
                out,
                QStringLiteral("--distributed"),
                QStringLiteral("--queue"),
                queue,
                QStringLiteral("--batch"),
                QStringLiteral("1"),
                QStringLiteral("--claim-ms"),
                QStringLiteral("500"),
                QStringLiteral("--redis"),
                url};
    }

    // The distributed sweep's files equal the local sweep's.
    void checkSame(const QString& out) {
        for (const char* file : {"sweep.csv", "sweep.json"}) {
            const QByteArray mine = readAll(out + QLatin1Char('/') + QLatin1String(file));
            const QByteArray reference = readAll(local_ + QLatin1Char('/') + QLatin1String(file));
            QVERIFY2(!reference.isEmpty(), file);
            QByteArray differing;  // the lines that differ, mine then the reference's
            const QList<QByteArray> a = mine.split('\n'), b = reference.split('\n');
            for (qsizetype i = 0; i < std::max(a.size(), b.size()) && differing.size() < 3000;
                 ++i) {
                if (a.value(i) != b.value(i)) {
                    differing += a.value(i) + "\n  vs " + b.value(i) + "\n";
                }
            }
            QVERIFY2(mine == reference,
                     qPrintable(QStringLiteral("%1 differs:\n%2")
                                    .arg(QLatin1String(file), QString::fromUtf8(differing))));
        }
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        scenario_ = writeScenario(QStringLiteral("sweep.json"), QStringLiteral("distributed"));
        local_ = dir_.filePath(QStringLiteral("local"));
        const CliResult r = runRatelab({QStringLiteral("sweep"), scenario_, QStringLiteral("--out"),
                                        local_, QStringLiteral("--redis"), fixture()});
        QVERIFY2(r.exitCode == 0 || r.exitCode == 1, r.err.constData());
    }

    // 1, 2 and 3 workers beside the coordinator: the same files as the local sweep, each batch
    // counted once; the workers log what they took and finished and end on SIGTERM with 0.
    void sameAsLocal_data() {
        QTest::addColumn<int>("workers");
        QTest::newRow("1 worker") << 1;
        QTest::newRow("2 workers") << 2;
        QTest::newRow("3 workers") << 3;
    }
    void sameAsLocal() {
        QFETCH(int, workers);
        const QString queue = uniqueName(QStringLiteral("q"));
        Processes started;
        QVector<QByteArray> logs(workers);
        for (int i = 0; i < workers; ++i) {
            started.push_back(startWorker(queue, logs[i]));
        }
        const QString out = dir_.filePath(QStringLiteral("workers-%1").arg(workers));
        const CliResult r = runRatelab(distributed(scenario_, out, queue));
        const QByteArray log = stopWorkers(started, logs);
        QVERIFY2(r.exitCode == 0 || r.exitCode == 1, (r.err + log).constData());
        QVERIFY2(r.err.contains("published 12 batches"), r.err.constData());
        checkSame(out);
        // The workers took part: they were waiting when the batches came.
        QVERIFY2(log.contains("took batch") && log.contains("finished batch"), log.constData());
        checkQueueCleared(queue);
    }

    // A worker that joins once the sweep is under way takes batches too; same files.
    void workerJoiningLate() {
        const QString queue = uniqueName(QStringLiteral("q"));
        const QString out = dir_.filePath(QStringLiteral("late"));
        auto sweep = startRatelab(distributed(scenario_, out, queue));
        QByteArray sweepLog;
        QVERIFY2(waitForStderr(*sweep, "published 12 batches", sweepLog), sweepLog.constData());
        Processes started;
        QVector<QByteArray> logs(1);
        started.push_back(startWorker(queue, logs[0]));
        const CliResult r = endOf(*sweep);
        stopWorkers(started, logs);
        QVERIFY2(r.exitCode == 0 || r.exitCode == 1, (sweepLog + r.err).constData());
        checkSame(out);
    }

    // A worker killed -9 while it holds a batch: the batch is claimed after the claim time by
    // the coordinator or the other worker, and the files are the local sweep's.
    void workerKilledHoldingABatch() {
        const QString queue = uniqueName(QStringLiteral("q"));
        QVector<QByteArray> logs(2);
        Processes started;
        started.push_back(startWorker(queue, logs[0]));
        auto victim = startWorker(queue, logs[1]);
        const QString out = dir_.filePath(QStringLiteral("killed"));
        auto sweep = startRatelab(distributed(scenario_, out, queue));
        QVERIFY2(waitForStderr(*victim, "took batch", logs[1]), logs[1].constData());
        ::kill(pid_t(victim->processId()), SIGKILL);
        const CliResult killed = finishRatelab(*victim);
        const CliResult r = endOf(*sweep);
        const QByteArray log = stopWorkers(started, logs);
        QVERIFY2(r.exitCode == 0 || r.exitCode == 1, r.err.constData());
        checkSame(out);
        // Unless it finished its batch before the signal came, another claimed it.
        const QByteArray victimLog = logs[1] + killed.err;
        const int took = int(victimLog.count("took batch")) + int(victimLog.count("claimed batch"));
        const int finished = int(victimLog.count("finished batch"));
        if (took > finished) {
            QVERIFY2((r.err + log).contains("claimed batch"), (r.err + log).constData());
        }
    }

    // Redis killed while batches are under way and started again, empty, a second later: the
    // workers reconnect, the coordinator publishes what is missing again, and the files are the
    // local sweep's.
    void redisRestartedEmpty() {
        LocalRedisServer server;  // the test's own: it is killed
        server.start();
        const QString url = server.url().toDisplayString();
        const QString queue = uniqueName(QStringLiteral("q"));
        QVector<QByteArray> logs(2);
        Processes started;
        started.push_back(startWorker(queue, logs[0], url));
        started.push_back(startWorker(queue, logs[1], url));
        const QString out = dir_.filePath(QStringLiteral("restarted"));
        auto sweep = startRatelab(distributed(scenario_, out, queue, url));
        QVERIFY2(waitForMatch(*started[0], QRegularExpression(QStringLiteral("finished batch")),
                              logs[0]),
                 logs[0].constData());
        server.crash();
        QThread::sleep(1);
        server.start();
        const CliResult r = endOf(*sweep);
        const QByteArray log = stopWorkers(started, logs);
        QVERIFY2(r.exitCode == 0 || r.exitCode == 1, (r.err + log).constData());
        checkSame(out);
    }

    // A batch published by another ratelab version: the worker refuses it, naming both
    // versions, in its log and in the job's results, and leaves it pending.
    void workerRefusesAnotherVersion() {
        const QString queue = uniqueName(QStringLiteral("q"));
        JobQueue jobs(QueueKeys(queue, QStringLiteral("test")), fixtureUrl());
        const QString job = QStringLiteral("fakejob");
        jobs.startJob(job);
        BatchMessage batch;
        batch.job = job;
        batch.version = QStringLiteral("0.0.0-other");
        batch.first = 0;
        batch.count = 1;
        batch.body = readAll(scenario_);
        jobs.publish(batch);
        QVector<QByteArray> logs(1);
        Processes started;
        started.push_back(startWorker(queue, logs[0]));
        QVERIFY2(waitForStderr(*started[0], "refused batch 0 of job fakejob", logs[0]),
                 logs[0].constData());
        QVERIFY2(waitForMatch(*started[0],
                              QRegularExpression(QStringLiteral(
                                  R"(this worker is ratelab \d+\.\d+\.\d+ and the batch was )"
                                  R"(published by ratelab 0\.0\.0-other)")),
                              logs[0]),
                 logs[0].constData());
        QVector<StreamEntry> results;
        QTRY_VERIFY_WITH_TIMEOUT((results = jobs.results(job, "0-0", 0)).size() == 2, 20000);
        const std::optional<ResultMessage> refused = readResult(results[1]);
        QVERIFY(refused.has_value());
        QCOMPARE(int(refused->status), int(ResultMessage::Status::Refused));
        QVERIFY2(refused->reason.contains(QLatin1String("0.0.0-other")),
                 qPrintable(refused->reason));
        stopWorkers(started, logs);
        jobs.endJob(job, {}, 500);
    }

    // A worker of the test's own answers the batches it takes with a result that does not
    // parse (or posts each good result again, changed): the coordinator says so, works those
    // batches itself, counts nothing twice, and the files are the local sweep's.
    void badAndDuplicateResults_data() {
        QTest::addColumn<QByteArray>("answer");  // empty: repost the workers' results, changed
        QTest::newRow("not JSON") << QByteArray("{not json");
        QTest::newRow("too few combinations") << QByteArray(R"({"combinations": []})");
        QTest::newRow("a count as text")
            << QByteArray(R"({"combinations": [{"index": 0, "values": [1, 5], "objective": "1",)"
                          R"( "parts": [], "checks": [], "rows": [{"limiter": "x", "group": "*",)"
                          R"( "fired": "9", "accepted": 1, "rejected": 1, "errors": 0,)"
                          R"( "bursts": []}]}]})");
        QTest::newRow("posted twice") << QByteArray();
    }
    void badAndDuplicateResults() {
        QFETCH(QByteArray, answer);
        const QString queue = uniqueName(QStringLiteral("q"));
        const QString out =
            dir_.filePath(QStringLiteral("bad-%1").arg(QString::fromUtf8(QTest::currentDataTag())));
        JobQueue jobs(QueueKeys(queue, QStringLiteral("test")), fixtureUrl());
        QVector<QByteArray> logs(1);
        Processes started;
        if (answer.isEmpty()) {
            started.push_back(startWorker(queue, logs[0]));
        }
        auto sweep = startRatelab(distributed(scenario_, out, queue));
        const QString fake = QStringLiteral("fake:1");
        int answered = 0;
        QSet<QByteArray> reposted;
        QByteArray sweepLog;
        const auto connection = connectFixture();
        while (sweep->state() == QProcess::Running) {
            sweep->waitForReadyRead(10);
            sweepLog += sweep->readAllStandardError();
            if (!answer.isEmpty() && answered < 2) {
                bool claimed = false;
                const std::optional<StreamEntry> e = jobs.take(fake, 3600000, 100, &claimed);
                if (e) {
                    ResultMessage r;
                    r.job = QString::fromUtf8(e->field("job"));
                    r.batch = e->field("batch").toLongLong();
                    r.entry = e->id;
                    r.worker = fake;
                    r.version = QString::fromUtf8(e->field("version"));
                    r.data = answer;
                    jobs.postResult(r);
                    jobs.ack(e->id);
                    ++answered;
                }
                continue;
            }
            if (answer.isEmpty()) {
                // Every result a worker posted, again, with other figures.
                RedisReply keys = connection->command(
                    {"KEYS", "ratelab:{q:" + queue.toStdString() + "}:results:*"});
                for (size_t k = 0; k < keys->elements; ++k) {
                    const QString job =
                        QString::fromUtf8(keys->element[k]->str).section(QLatin1Char(':'), -1);
                    for (const StreamEntry& e : jobs.results(job, "0-0", 0)) {
                        std::optional<ResultMessage> r = readResult(e);
                        if (!r || r->status != ResultMessage::Status::Done || r->worker == fake ||
                            reposted.contains(e.id)) {
                            continue;
                        }
                        reposted.insert(e.id);
                        r->worker = fake;
                        r->data.replace("\"accepted\":", "\"accepted\":1");
                        jobs.postResult(*r);
                        ++answered;
                    }
                }
            }
        }
        const CliResult r = endOf(*sweep);
        sweepLog += r.err;
        stopWorkers(started, logs);
        QVERIFY2(r.exitCode == 0 || r.exitCode == 1,
                 (QByteArray::number(r.exitCode) + " " + sweepLog).constData());
        QVERIFY2(answered > 0, sweepLog.constData());
        if (answer.isEmpty()) {
            QVERIFY2(sweepLog.contains("done twice (again by fake:1): counted once"),
                     sweepLog.constData());
        } else {
            QVERIFY2(sweepLog.contains("from fake:1 does not parse"), sweepLog.constData());
            QVERIFY2(sweepLog.contains("nothing of it counted"), sweepLog.constData());
        }
        checkSame(out);
    }

    // Bad queue names and a password in the scenario: exit 2 with the reason, before any
    // batch is published.
    void badInput_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("message");
        const QString scenario = QStringLiteral("%SCENARIO%");
        QTest::newRow("queue with a space")
            << QStringList{QStringLiteral("worker"), QStringLiteral("--queue"),
                           QStringLiteral("a b"), QStringLiteral("--redis"), fixture()}
            << QByteArray("--queue: \"a b\" is not a queue name");
        QTest::newRow("queue with a glob") << QStringList{QStringLiteral("sweep"),
                                                          scenario,
                                                          QStringLiteral("--distributed"),
                                                          QStringLiteral("--queue"),
                                                          QStringLiteral("jobs*"),
                                                          QStringLiteral("--redis"),
                                                          fixture()}
                                           << QByteArray("--queue: \"jobs*\" is not a queue name");
        QTest::newRow("queue with a brace")
            << QStringList{QStringLiteral("worker"), QStringLiteral("--queue"),
                           QStringLiteral("a{b}"), QStringLiteral("--redis"), fixture()}
            << QByteArray("is not a queue name");
        QTest::newRow("--queue without --distributed")
            << QStringList{QStringLiteral("sweep"),   scenario,
                           QStringLiteral("--queue"), QStringLiteral("x"),
                           QStringLiteral("--redis"), fixture()}
            << QByteArray("--queue: only with --distributed");
        QTest::newRow("worker without a URL")
            << QStringList{QStringLiteral("worker")} << QByteArray("a worker needs the Redis");
        QTest::newRow("password in the scenario")
            << QStringList{QStringLiteral("sweep"), QStringLiteral("%SECRET%"),
                           QStringLiteral("--distributed"), QStringLiteral("--redis"), fixture()}
            << QByteArray("$.name: holds a Redis URL with a password");
    }
    void badInput() {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, message);
        args.replaceInStrings(QStringLiteral("%SCENARIO%"), scenario_);
        args.replaceInStrings(QStringLiteral("%SECRET%"),
                              writeScenario(QStringLiteral("secret.json"),
                                            QStringLiteral("redis://app:s3cret@cache:6379")));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("REDIS_URL"));
        const CliResult r = runRatelab(args, env, 60000);
        QVERIFY2(r.exitCode == 2, (r.out + r.err).constData());
        QVERIFY2(r.err.contains(message), r.err.constData());
        QVERIFY2(!r.err.contains("s3cret"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestDistributedSweep)
#include "tst_distributed_sweep.moc"
