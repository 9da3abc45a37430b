// Against the private Sentinel set (CTest fixture `redis_sentinel`: a primary, a replica and two
// sentinels on loopback; REDIS_URL is its redis-sentinel:// URL): the primary is found through
// the sentinels and checked with ROLE, a sentinel naming a replica is not trusted, no sentinel
// or an unknown name fail with their cause, decisions go through the URL, and a run with
// SENTINEL FAILOVER in the middle keeps fired = accepted + rejected + errors and carries on on
// the new primary; the command line does the same.
//
// A failover swaps the roles of the two data nodes, so no test assumes which one is the primary:
// each asks the sentinels, and the failover test first waits for a healthy set.
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>
#include <atomic>
#include <thread>

#include "live/server_probe.h"
#include "output/run_report.h"
#include "output/summary_json.h"
#include "redis/redis_error.h"
#include "redis/sentinel_query.h"
#include "run/scenario_runner.h"
#include "stats/error_cause.h"
#include "support/fake_redis_server.h"
#include "support/run_checks.h"
#include "support/test_redis.h"
#include "traffic/redis_error_cause.h"
#include "url/sentinel_url.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

using Clock = std::chrono::steady_clock;

QString hostPort(const QString& host, int port) {
    return host + QLatin1Char(':') + QString::number(port);
}

// What sentinel `index` of the fixture names as the primary ("host:port"), or "" when none.
QString namedPrimary(int index) {
    const RedisUrl url = fixtureUrl();
    const SentinelAnswer answer = askSentinel(url, index, ConnectOptions{});
    return answer.known ? hostPort(answer.host, answer.port) : QString();
}

RedisUrl nodeUrl(const QString& address) {
    return RedisUrl::parse(QStringLiteral("redis://") + address);
}

std::string roleAt(const QString& address) {
    RedisConnection connection(nodeUrl(address));
    return roleOf(connection);
}

// The data node that is not `primary`: the replica the sentinels list.
QString replicaOf(const QString& primary) {
    RedisConnection sentinel(sentinelNodeUrl(fixtureUrl(), 0));
    RedisReply reply =
        sentinel.command({"SENTINEL", "REPLICAS", fixtureUrl().masterName.toStdString()});
    for (size_t i = 0; reply->type == REDIS_REPLY_ARRAY && i < reply->elements; ++i) {
        const redisReply* fields = reply->element[i];
        QString ip, port, flags, link;
        for (size_t f = 0; f + 1 < fields->elements; f += 2) {
            const std::string key(fields->element[f]->str, fields->element[f]->len);
            const QString value =
                QString::fromUtf8(fields->element[f + 1]->str, int(fields->element[f + 1]->len));
            if (key == "ip")
                ip = value;
            if (key == "port")
                port = value;
            if (key == "flags")
                flags = value;
            if (key == "master-link-status")
                link = value;
        }
        const QString address = ip + QLatin1Char(':') + port;
        if (address != primary && flags == QLatin1String("slave") && link == QLatin1String("ok")) {
            return address;
        }
    }
    return QString();
}

// Waits (up to 60 s) until both sentinels name the same primary, it says master, and a healthy
// replica is linked to it: a failover can start. Returns {primary, replica}.
std::pair<QString, QString> waitForHealthySet() {
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    QString last;
    while (Clock::now() < deadline) {
        try {
            const QString primary = namedPrimary(0);
            if (!primary.isEmpty() && primary == namedPrimary(1) && roleAt(primary) == "master") {
                const QString replica = replicaOf(primary);
                if (!replica.isEmpty() && roleAt(replica) == "replica") {
                    return {primary, replica};
                }
                last = QStringLiteral("no healthy replica of ") + primary;
            } else {
                last = QStringLiteral("the sentinels disagree or the primary is not one");
            }
        } catch (const RedisError& e) {
            last = QString::fromStdString(e.what());
        }
        QThread::msleep(200);
    }
    qWarning("the sentinel set did not become healthy: %s", qPrintable(last));
    return {};
}

// SENTINEL FAILOVER on the first sentinel, repeated while it answers INPROG or NOGOODSLAVE
// (a previous failover settling). Returns the reply's text.
QString failOver() {
    RedisConnection sentinel(sentinelNodeUrl(fixtureUrl(), 0));
    QString text;
    for (int attempt = 0; attempt < 100; ++attempt) {
        RedisReply reply =
            sentinel.command({"SENTINEL", "FAILOVER", fixtureUrl().masterName.toStdString()});
        text = QString::fromUtf8(reply->str, int(reply->len));
        if (reply->type != REDIS_REPLY_ERROR) {
            return text;
        }
        QThread::msleep(200);
    }
    return text;
}

// Waits (up to 30 s) until the first sentinel names a primary other than `old`.
QString waitForNewPrimary(const QString& old) {
    const auto deadline = Clock::now() + std::chrono::seconds(30);
    while (Clock::now() < deadline) {
        const QString now = namedPrimary(0);
        if (!now.isEmpty() && now != old) {
            return now;
        }
        QThread::msleep(50);
    }
    return QString();
}

qint64 commandCalls(const QString& address, const std::string& command) {
    RedisConnection connection(nodeUrl(address));
    const std::string info =
        replyString(connection.command({"INFO", "commandstats"}).get(), "INFO");
    const std::string field = "cmdstat_" + command + ":calls=";
    const size_t at = info.find(field);
    return at == std::string::npos ? 0 : std::stoll(info.substr(at + field.size()));
}

LimiterSpec tokenBucket(const QString& prefix) {
    LimiterSpec s;
    s.type = LimiterType::TokenBucket;
    s.name = uniqueName(prefix);
    s.scope = Scope::Global;
    s.rate = 40;
    s.intervalMs = 200;
    return s;
}

LimiterSpec slidingWindow(const QString& prefix) {
    LimiterSpec s;
    s.type = LimiterType::SlidingWindow;
    s.name = uniqueName(prefix);
    s.scope = Scope::PerClient;
    s.rules = {{30, 200}};
    return s;
}

// Two limiters, 300 requests/s from 2 threads in pipelines of 4 for `seconds`.
Scenario failoverScenario(int seconds) {
    Scenario scenario;
    scenario.name = QStringLiteral("sentinel-failover");
    scenario.limiters = {tokenBucket(QStringLiteral("sentinel-run-tb")),
                         slidingWindow(QStringLiteral("sentinel-run-sw"))};
    scenario.traffic.shape.type = ShapeSpec::Type::Constant;
    scenario.traffic.shape.rate = 300;
    scenario.traffic.durationS = seconds;
    scenario.traffic.threads = 2;
    scenario.traffic.pipeline = 4;
    scenario.traffic.clients = 3;
    return scenario;
}

ConnectOptions shortTimeouts() {
    ConnectOptions options;
    options.connectTimeout = std::chrono::milliseconds(300);
    options.commandTimeout = std::chrono::milliseconds(300);
    return options;
}

// The run ended, every request has one outcome per limiter, every error a named cause (and
// some errors when `expectErrors`), and decisions were accepted after the switch.
// The run marks the move once, from the old primary to the new one, in the snapshot, the
// summary (and summary.json read back), the printed summary, with what each limiter admitted
// around it.
void expectFailoverMarked(const RunSnapshot& run, const QString& from, const QString& to) {
    QCOMPARE(run.failovers.size(), 1);
    QCOMPARE(run.failovers[0].from, from);
    QCOMPARE(run.failovers[0].to, to);
    QVERIFY(run.failovers[0].atUs > 0);
    const RunSummary summary = summaryFromJson(summaryToJson(summaryOf(run)), QString());
    QCOMPARE(summary.failovers.size(), 1);
    QCOMPARE(summary.failovers[0].to, to);
    QCOMPARE(summary.failovers[0].acceptedAround.size(), run.limiters.size());
    const QString text = summaryText(run);
    QVERIFY2(text.contains(QStringLiteral("Sentinel failover at ")) &&
                 text.contains(QStringLiteral("primary %1 -> %2").arg(from, to)),
             qPrintable(text));
}

void expectFailoverRun(const RunSnapshot& run, qint64 requests, qint64 switchedAtUs,
                       bool expectErrors) {
    QVERIFY(run.finished);
    QCOMPARE(run.scheduled, requests);
    expectExactAccounting(run);
    for (const LimiterSnapshot& l : run.limiters) {
        qint64 byCause = 0;
        for (int c = 0; c < kErrorCauses; ++c) {
            byCause += l.errorCauses[c];
        }
        QCOMPARE(byCause, l.errors);
        QCOMPARE(l.errorCauses[int(ErrorCause::Other)], 0);
        if (expectErrors) {
            QVERIFY2(l.errors > 0, qPrintable(l.spec.name));
        }
        const int from = int(switchedAtUs / 1000 / run.bucketMs) + 1;
        qint64 acceptedAfter = 0;
        for (int b = from; b < l.bucketAccepted.size(); ++b) {
            acceptedAfter += l.bucketAccepted[b];
        }
        QVERIFY2(acceptedAfter > 0, qPrintable(l.spec.name));
        qInfo(
            "%s: fired %lld = accepted %lld + rejected %lld + errors %lld (%s); switch at "
            "%.1f s, accepted after it %lld",
            qPrintable(l.spec.name), static_cast<long long>(l.fired),
            static_cast<long long>(l.accepted), static_cast<long long>(l.rejected),
            static_cast<long long>(l.errors),
            qPrintable(errorCausesText(nonZeroCauses(l.errorCauses))), switchedAtUs / 1e6,
            static_cast<long long>(acceptedAfter));
    }
    expectResumed(run, 10);
}

void resetLimiters(const Scenario& scenario) {
    RedisRouter cleanup(fixtureUrl());
    for (const LimiterSpec& spec : scenario.limiters) {
        makeLimiter(spec)->reset(cleanup);
    }
}

RedisUrl withName(const QString& masterName) {
    RedisUrl url = fixtureUrl();
    url.masterName = masterName;
    return url;
}

RedisError connectError(const RedisUrl& url) {
    try {
        RedisConnection connection(url);
    } catch (const RedisError& e) {
        return e;
    }
    return RedisError(RedisError::Kind::Reply, "connected");
}

}  // namespace

class TestSentinel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY2(fixtureUrl().isSentinel(), "REDIS_URL must be the sentinel fixture's URL");
        QCOMPARE(int(fixtureUrl().seeds.size()), 2);
    }

    // The connection reaches the server the sentinels name, which says master, and writes.
    void resolvesThePrimary() {
        const auto [primary, replica] = waitForHealthySet();
        QVERIFY(!primary.isEmpty());
        RedisConnection connection(fixtureUrl());
        QCOMPARE(connection.serverAddress(), primary);
        QCOMPARE(roleOf(connection), std::string("master"));
        const std::string key = uniqueName(QStringLiteral("sentinel-key")).toStdString();
        expectStatusOk(connection.command({"SET", key, "1"}).get(), "SET");
        QCOMPARE(replyInteger(connection.command({"DEL", key}).get(), "DEL"), 1LL);
        // Reconnecting asks again and lands on the same primary.
        QThread::msleep(kSentinelAskInterval.count() + 10);
        connection.reconnect();
        QCOMPARE(connection.serverAddress(), primary);
    }

    // A sentinel that names the replica (a stale answer) is not trusted: ROLE says replica, so
    // the next sentinel is asked. With only that sentinel the connect fails as "failover".
    void staleSentinelIsNotTrusted() {
        const auto [primary, replica] = waitForHealthySet();
        QVERIFY(!replica.isEmpty());
        const QString replicaHost = replica.section(QLatin1Char(':'), 0, 0);
        const std::string replicaPort = replica.section(QLatin1Char(':'), 1).toStdString();
        FakeRedisServer stale([&](const FakeRedisServer::Command& c) -> std::optional<std::string> {
            if (c.size() == 3 && c[0] == "SENTINEL") {
                return "*2\r\n$" + std::to_string(replicaHost.size()) + "\r\n" +
                       replicaHost.toStdString() + "\r\n$" + std::to_string(replicaPort.size()) +
                       "\r\n" + replicaPort + "\r\n";
            }
            return std::string("+OK\r\n");
        });
        RedisUrl url = fixtureUrl();
        url.seeds.prepend(RedisUrl::HostPort{QStringLiteral("127.0.0.1"), stale.port()});
        RedisConnection connection(url);
        QCOMPARE(connection.serverAddress(), primary);
        QVERIFY(stale.accepted() >= 1);

        url.seeds = {RedisUrl::HostPort{QStringLiteral("127.0.0.1"), stale.port()}};
        const RedisError error = connectError(url);
        QCOMPARE(error.kind(), RedisError::Kind::Connect);
        QCOMPARE(errorCauseOf(error), ErrorCause::Failover);
        QVERIFY2(QString::fromStdString(error.what())
                     .contains(replica + QStringLiteral(", named by sentinel")),
                 error.what());
        QVERIFY2(QString::fromStdString(error.what()).contains(QStringLiteral("is a replica")),
                 error.what());
    }

    // No sentinel answers, or none knows the name: Connect errors with their own causes, naming
    // every sentinel asked; a reconnect right after does not ask again.
    void failsWithACause_data() {
        QTest::addColumn<QString>("url");
        QTest::addColumn<int>("cause");
        QTest::addColumn<QString>("messagePart");

        // Port 1 on loopback: nothing listens there, the connect is refused at once.
        QTest::newRow("no sentinel answers")
            << QStringLiteral("redis-sentinel://127.0.0.1:1,127.0.0.1:2/ratelab-test")
            << int(ErrorCause::NoSentinel)
            << QStringLiteral("sentinel 127.0.0.1:2: cannot connect");
        QTest::newRow("unknown master name")
            << withName(QStringLiteral("no-such-primary")).toDisplayString()
            << int(ErrorCause::UnknownMaster)
            << QStringLiteral("knows no primary named \"no-such-primary\"");
    }

    void failsWithACause() {
        QFETCH(QString, url);
        QFETCH(int, cause);
        QFETCH(QString, messagePart);

        const RedisError error = connectError(RedisUrl::parse(url));
        QCOMPARE(error.kind(), RedisError::Kind::Connect);
        QCOMPARE(int(errorCauseOf(error)), cause);
        QVERIFY2(QString::fromStdString(error.what()).contains(messagePart), error.what());
    }

    // READONLY from the primary (demoted while connected): the connection counts as broken once
    // the reply is read, and reconnecting asks the sentinels again.
    void readonlyReplyAsksAgain() {
        const auto [primary, replica] = waitForHealthySet();
        QVERIFY(!primary.isEmpty());
        std::atomic<int> fakePort{0};
        FakeRedisServer demoted(
            [](const FakeRedisServer::Command& c) -> std::optional<std::string> {
                if (c[0] == "ROLE") {
                    return std::string("*3\r\n$6\r\nmaster\r\n:0\r\n*0\r\n");
                }
                if (c[0] == "SET") {
                    return std::string(
                        "-READONLY You can't write against a read only replica.\r\n");
                }
                return std::string("+OK\r\n");
            });
        fakePort = demoted.port();
        // A sentinel that names the fake primary until the failover (`moved`), then the real one.
        std::atomic<bool> moved{false};
        const std::string realHost = primary.section(QLatin1Char(':'), 0, 0).toStdString();
        const std::string realPort = primary.section(QLatin1Char(':'), 1).toStdString();
        FakeRedisServer sentinel(
            [&](const FakeRedisServer::Command& c) -> std::optional<std::string> {
                if (c[0] != "SENTINEL") {
                    return std::string("+OK\r\n");
                }
                const std::string port = moved ? realPort : std::to_string(fakePort.load());
                const std::string host = moved ? realHost : std::string("127.0.0.1");
                return "*2\r\n$" + std::to_string(host.size()) + "\r\n" + host + "\r\n$" +
                       std::to_string(port.size()) + "\r\n" + port + "\r\n";
            });
        RedisUrl url = fixtureUrl();
        url.seeds = {RedisUrl::HostPort{QStringLiteral("127.0.0.1"), sentinel.port()}};
        RedisConnection connection(url);
        QCOMPARE(connection.serverAddress(), hostPort(QStringLiteral("127.0.0.1"), demoted.port()));
        RedisReply reply = connection.command({"SET", "k", "v"});
        QCOMPARE(reply->type, REDIS_REPLY_ERROR);
        QCOMPARE(errorCauseOfReply(std::string_view(reply->str, reply->len)), ErrorCause::Readonly);
        QVERIFY(connection.broken());
        moved = true;
        QThread::msleep(kSentinelAskInterval.count() + 10);
        connection.reconnect();
        QCOMPARE(connection.serverAddress(), primary);
        QVERIFY(!connection.broken());
    }

    // The window's probe says which primary the sentinels gave.
    void probeShowsThePrimary() {
        const auto [primary, replica] = waitForHealthySet();
        QVERIFY(!primary.isEmpty());
        ServerProbe probe;
        QSignalSpy probed(&probe, &ServerProbe::probed);
        probe.connectTo(false, fixtureUrl());
        QVERIFY(probed.wait(30000));
        const ServerStatus status = probed.takeFirst().at(0).value<ServerStatus>();
        QVERIFY2(status.ok, qPrintable(status.error));
        QVERIFY2(status.version.endsWith(QStringLiteral(", primary ") + primary +
                                         QStringLiteral(" via sentinel")),
                 qPrintable(status.version));
    }

    // Decisions through the sentinel URL: a token bucket of 5 per second, 7 requests at once.
    void decisionsThroughSentinel() {
        waitForHealthySet();
        LimiterSpec spec = tokenBucket(QStringLiteral("sentinel-tb"));
        spec.rate = 5;
        spec.intervalMs = 1000;
        ScopedLimiter limiter(spec);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        int allowed = 0;
        for (int i = 0; i < 7; ++i) {
            allowed +=
                test::decide(limiter.router(), *limiter, Request{now, QStringLiteral("c"), 1})
                    .allowed;
        }
        QCOMPARE(allowed, 5);
    }

    // The primary stops answering (DEBUG SLEEP 6) 1.5 s into a 12 s run: the sentinels find it
    // down after 1 s and promote the replica. Decisions meanwhile fail with named causes (never
    // lost, never counted twice), then carry on on the new primary.
    void primaryStallsWhileRunning() {
        const auto [oldPrimary, newPrimary] = waitForHealthySet();
        QVERIFY(!oldPrimary.isEmpty());
        const Scenario scenario = failoverScenario(12);
        {
            RedisConnection replica(nodeUrl(newPrimary));
            expectStatusOk(replica.command({"CONFIG", "RESETSTAT"}).get(), "CONFIG RESETSTAT");
        }
        ScenarioRunner runner(scenario, fixtureUrl(), shortTimeouts());
        runner.start();
        QThread::msleep(1500);
        std::thread stall([address = oldPrimary] {
            try {
                RedisConnection admin(nodeUrl(address),
                                      ConnectOptions{std::chrono::milliseconds(2000),
                                                     std::chrono::milliseconds(15000)});
                admin.command({"DEBUG", "SLEEP", "6"});
            } catch (const RedisError& e) {
                qWarning("DEBUG SLEEP: %s", e.what());
            }
        });
        const QString switched = waitForNewPrimary(oldPrimary);
        const qint64 switchedAtUs = runner.snapshot().elapsedUs;
        runner.wait();
        stall.join();
        const RunSnapshot run = runner.snapshot();
        QCOMPARE(switched, newPrimary);
        expectFailoverRun(run, 3600, switchedAtUs, true);
        expectFailoverMarked(run, oldPrimary, newPrimary);
        QVERIFY(commandCalls(newPrimary, "evalsha") + commandCalls(newPrimary, "eval") > 0);
        resetLimiters(scenario);
    }

    // A run (2 threads, 300 requests/s for 8 s, pipelines of 4) with SENTINEL FAILOVER 1.5 s in:
    // it ends, every request has exactly one outcome per limiter, every error has a named cause,
    // and decisions run on the new primary after the switch.
    void failoverWhileRunning() {
        const auto [oldPrimary, newPrimary] = waitForHealthySet();
        QVERIFY(!oldPrimary.isEmpty());
        const Scenario scenario = failoverScenario(8);
        {
            RedisConnection replica(nodeUrl(newPrimary));
            expectStatusOk(replica.command({"CONFIG", "RESETSTAT"}).get(), "CONFIG RESETSTAT");
        }
        ScenarioRunner runner(scenario, fixtureUrl(), shortTimeouts());
        runner.start();
        QThread::msleep(1500);
        const QString answer = failOver();
        const QString switched = waitForNewPrimary(oldPrimary);
        const qint64 switchedAtUs = runner.snapshot().elapsedUs;
        runner.wait();
        const RunSnapshot run = runner.snapshot();

        QCOMPARE(answer, QStringLiteral("OK"));
        QCOMPARE(switched, newPrimary);
        expectFailoverRun(run, 2400, switchedAtUs, false);
        expectFailoverMarked(run, oldPrimary, newPrimary);
        // The scripts ran on the new primary (its counters were reset before the run, while it
        // was a replica that no client writes to).
        QVERIFY(commandCalls(newPrimary, "evalsha") + commandCalls(newPrimary, "eval") > 0);
        resetLimiters(scenario);
    }

    // `ratelab run --redis redis-sentinel://...`: exit 0, every request decided, summary written.
    void commandLineRun() {
        waitForHealthySet();
        QTemporaryDir dir;
        const QString name = uniqueName(QStringLiteral("sentinel-cli"));
        const QString scenarioPath = dir.filePath(QStringLiteral("scenario.json"));
        QFile file(scenarioPath);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral(R"({"name": "sentinel-cli", "limiters": [
            {"type": "token_bucket", "name": "%1", "scope": "global", "rate": 20,
             "interval_ms": 1000}],
          "traffic": {"shape": {"type": "constant", "rate": 100}, "duration_s": 1,
                      "threads": 2, "clients": {"count": 2}}})")
                       .arg(name)
                       .toUtf8());
        file.close();
        QProcess run;
        run.start(qEnvironmentVariable("RATELAB_BIN"),
                  {QStringLiteral("run"), scenarioPath, QStringLiteral("--redis"),
                   fixtureUrl().toDisplayString(), QStringLiteral("--out"),
                   dir.filePath(QStringLiteral("out"))});
        QVERIFY(run.waitForFinished(120000));
        const QString out = QString::fromUtf8(run.readAllStandardOutput());
        QVERIFY2(run.exitCode() == 0,
                 qPrintable(out + QString::fromUtf8(run.readAllStandardError())));
        QFile summaryFile(dir.filePath(QStringLiteral("out/summary.json")));
        QVERIFY(summaryFile.open(QIODevice::ReadOnly));
        const QJsonObject summary = QJsonDocument::fromJson(summaryFile.readAll()).object();
        QVERIFY2(summary.contains(QStringLiteral("limiters")), summary.keys().join(u',').toUtf8());
        RedisRouter cleanup(fixtureUrl());
        LimiterSpec spec = tokenBucket(QString());
        spec.name = name;
        makeLimiter(spec)->reset(cleanup);
    }

    // No sentinel answers: the command line exits 3 with a message naming the sentinels.
    void commandLineWithoutSentinels() {
        QProcess run;
        run.start(
            qEnvironmentVariable("RATELAB_BIN"),
            {QStringLiteral("run"),
             qEnvironmentVariable("RATELAB_SOURCE_DIR") +
                 QStringLiteral("/resources/scenarios/three-limiters-live.json"),
             QStringLiteral("--redis"),
             QStringLiteral("redis-sentinel://:S3cr3tPw@127.0.0.1:1,127.0.0.1:2/ratelab-test")});
        QVERIFY(run.waitForFinished(60000));
        const QString err = QString::fromUtf8(run.readAllStandardError());
        QCOMPARE(run.exitCode(), 3);
        QVERIFY2(err.contains(QStringLiteral("sentinel 127.0.0.1:1")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("sentinel 127.0.0.1:2")), qPrintable(err));
        QVERIFY2(!err.contains(QStringLiteral("S3cr3tPw")), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestSentinel)
#include "tst_sentinel.moc"
