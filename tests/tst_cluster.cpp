// Against the private 3-master Redis Cluster (CTest fixture `redis_cluster`, REDIS_URL is a
// redis-cluster:// URL): slot hashing agrees with the server, the router sends each key to its
// owner, the three limiters match their reference models through the cluster, MOVED and ASK
// are followed while a limiter's slot is moved, and a slot moved while traffic runs keeps the
// accounting identity and the limit.
//
// The slot moves touch only slots of limiters this test created (random names), and every
// moved slot is handed back to its first owner before the test ends.
#include <QDateTime>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>
#include <atomic>
#include <map>

#include "redis/cluster_slot.h"
#include "redis/redis_error.h"
#include "run/scenario_runner.h"
#include "support/cluster_admin.h"
#include "support/reference_models.h"
#include "support/run_checks.h"
#include "support/test_redis.h"
#include "support/trace_generator.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

LimiterSpec tokenBucket(const QString& prefix, qint64 rate, qint64 intervalMs, Scope scope) {
    LimiterSpec s;
    s.type = LimiterType::TokenBucket;
    s.name = uniqueName(prefix);
    s.scope = scope;
    s.rate = rate;
    s.intervalMs = intervalMs;
    return s;
}

LimiterSpec slidingWindow(const QString& prefix, QVector<SlidingRule> rules) {
    LimiterSpec s;
    s.type = LimiterType::SlidingWindow;
    s.name = uniqueName(prefix);
    s.scope = Scope::Global;
    s.rules = std::move(rules);
    return s;
}

LimiterSpec fixedWindow(const QString& prefix, qint64 rate) {
    LimiterSpec s;
    s.type = LimiterType::FixedWindow;
    s.name = uniqueName(prefix);
    s.scope = Scope::PerClient;
    s.rate = rate;
    s.interval = 1;
    s.unit = CalendarUnit::Seconds;
    s.timezone = "UTC";
    return s;
}

// Compares decisions through `router` with the model, request by request.
void expectModel(const Limiter& limiter, RedisRouter& router, ReferenceModel& model,
                 const QVector<Request>& trace, int from, int to) {
    for (int i = from; i < to; ++i) {
        const Decision got = test::decide(router, limiter, trace[i]);
        const Decision want = model.decide(trace[i]);
        QVERIFY2(got.allowed == want.allowed && got.retryAfterMs == want.retryAfterMs &&
                     got.remaining == want.remaining,
                 qPrintable(QStringLiteral("request %1: redis allowed=%2 retry=%3 remaining=%4, "
                                           "model allowed=%5 retry=%6 remaining=%7")
                                .arg(i)
                                .arg(got.allowed)
                                .arg(got.retryAfterMs)
                                .arg(got.remaining)
                                .arg(want.allowed)
                                .arg(want.retryAfterMs)
                                .arg(want.remaining)));
    }
}

qint64 busiestWindow(std::vector<std::pair<qint64, qint64>> grants, qint64 windowMs) {
    std::sort(grants.begin(), grants.end());
    qint64 worst = 0;
    qint64 sum = 0;
    size_t first = 0;
    for (size_t i = 0; i < grants.size(); ++i) {
        sum += grants[i].second;
        while (grants[first].first <= grants[i].first - windowMs) {
            sum -= grants[first].second;
            ++first;
        }
        worst = std::max(worst, sum);
    }
    return worst;
}

}  // namespace

class TestCluster : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY2(fixtureUrl().isCluster(), "REDIS_URL must be the cluster fixture's URL");
        QCOMPARE(int(masters().size()), 3);
    }

    // keyHashSlot against CLUSTER KEYSLOT for random keys, braces and binary bytes included.
    void slotsAgreeWithServer() {
        auto node = connectNode(masters().front());
        QRandomGenerator rng(7);
        const char alphabet[] = "ab{}:x\0\xff\xc3\xa9 *";
        for (int i = 0; i < 2000; ++i) {
            std::string key;
            const int length = rng.bounded(0, 12);
            for (int c = 0; c < length; ++c) {
                key.push_back(alphabet[rng.bounded(0, int(sizeof(alphabet) - 1))]);
            }
            RedisReply reply = node->command({"CLUSTER", "KEYSLOT", key});
            QCOMPARE(keyHashSlot(key), int(replyInteger(reply.get(), "CLUSTER KEYSLOT")));
        }
    }

    // A key written through the router lands on the master CLUSTER SLOTS names for its slot,
    // for keys on every master.
    void routesToOwner() {
        auto router = routeFixture();
        QVERIFY(router->isCluster());
        std::map<int, int> perPort;
        for (int i = 0; i < 30; ++i) {
            const std::string key = "{" + uniqueName(QStringLiteral("route")).toStdString() + "}";
            const int slot = keyHashSlot(key);
            RedisReply set = router->command(slot, {"SET", key, "1", "PX", "60000"});
            expectStatusOk(set.get(), "SET");
            const Master owner = ownerOf(slot);
            QCOMPARE(router->nodeName(router->nodeIndexForSlot(slot)), owner.address());
            RedisReply exists = connectNode(owner)->command({"EXISTS", key});
            QCOMPARE(replyInteger(exists.get(), "EXISTS"), 1LL);
            RedisReply del = router->command(slot, {"DEL", key});
            QCOMPARE(replyInteger(del.get(), "DEL"), 1LL);
            perPort[owner.port]++;
        }
        QCOMPARE(int(perPort.size()), 3);  // 30 random keys reach all three masters
    }

    // Each limiter decides exactly as its reference model through the cluster.
    void matchesModels_data() {
        QTest::addColumn<LimiterSpec>("spec");
        QTest::addColumn<int>("clients");
        QTest::addColumn<qint64>("maxPermits");
        QTest::addColumn<qint64>("edgeMs");
        QTest::newRow("token bucket overall")
            << tokenBucket(QStringLiteral("cl-tb"), 5, 1000, Scope::Global) << 1 << 2LL << 1000LL;
        QTest::newRow("token bucket per client")
            << tokenBucket(QStringLiteral("cl-tbc"), 4, 500, Scope::PerClient) << 4 << 2LL << 500LL;
        QTest::newRow("fixed window per client")
            << fixedWindow(QStringLiteral("cl-fw"), 6) << 3 << 3LL << 1000LL;
        QTest::newRow("sliding window two rules")
            << slidingWindow(QStringLiteral("cl-sw"), {{3, 100}, {10, 1000}}) << 1 << 2LL << 100LL;
    }
    void matchesModels() {
        QFETCH(LimiterSpec, spec);
        QFETCH(int, clients);
        QFETCH(qint64, maxPermits);
        QFETCH(qint64, edgeMs);
        TraceShape shape;
        shape.seed = 11;
        shape.count = 800;
        shape.clients = clients;
        shape.maxPermits = maxPermits;
        shape.edgeMs = edgeMs;
        expectMatchesModel(spec, generateTrace(shape));
    }

    // A limiter's slot moves to another master between two halves of a trace. The router read
    // the slot map before the move, so it is answered MOVED, follows it and learns the new
    // owner; the state moved with the keys, so the decisions still match the model exactly.
    void followsMoved() {
        const LimiterSpec spec = tokenBucket(QStringLiteral("cl-moved"), 5, 1000, Scope::Global);
        ScopedLimiter limiter(spec);
        SlotHome home(limiter->slot());
        auto router = routeFixture();
        ReferenceModel model(spec);
        TraceShape shape;
        shape.seed = 3;
        shape.count = 400;
        shape.maxPermits = 2;
        const QVector<Request> trace = generateTrace(shape);
        expectModel(*limiter, *router, model, trace, 0, 200);
        const Master to = otherThan(home.home());
        moveSlot(limiter->slot(), home.home(), to);
        QCOMPARE(router->redirects().moved, 0LL);
        expectModel(*limiter, *router, model, trace, 200, 400);
        QCOMPARE(router->redirects().moved, 1LL);  // once: then the map knows
        QCOMPARE(router->nodeName(router->nodeIndexForSlot(limiter->slot())), to.address());
    }

    // Half-way through a move (keys already on the target, the slot still MIGRATING on the
    // source) the source answers ASK; the router asks the target with ASKING and the
    // decisions match the model. Then the move completes and decisions go on.
    void followsAsk() {
        const LimiterSpec spec = slidingWindow(QStringLiteral("cl-ask"), {{4, 200}, {9, 1000}});
        ScopedLimiter limiter(spec);
        SlotHome home(limiter->slot());
        auto router = routeFixture();
        ReferenceModel model(spec);
        TraceShape shape;
        shape.seed = 5;
        shape.count = 450;
        shape.maxPermits = 2;
        shape.edgeMs = 200;
        const QVector<Request> trace = generateTrace(shape);
        expectModel(*limiter, *router, model, trace, 0, 150);
        const Master to = otherThan(home.home());
        beginMove(limiter->slot(), home.home(), to);
        QVERIFY(moveKeys(limiter->slot(), home.home(), to) > 0);
        QCOMPARE(router->redirects().ask, 0LL);
        expectModel(*limiter, *router, model, trace, 150, 300);
        QCOMPARE(router->redirects().ask, 150LL);  // ASK holds for one command at a time
        QCOMPARE(router->redirects().moved, 0LL);
        // The router was only asked: the slot map still names the source.
        QCOMPARE(router->nodeName(router->nodeIndexForSlot(limiter->slot())),
                 home.home().address());
        finishMove(limiter->slot(), to);
        expectModel(*limiter, *router, model, trace, 300, 450);
        QCOMPARE(router->redirects().moved, 1LL);
    }

    // Traffic from 4 worker threads (real clock) on three limiters while the slot of the
    // first moves to another master: fired = accepted + rejected + errors for every limiter,
    // client and bucket; decisions go on after the move on the new owner.
    void moveWhileScenarioRuns() {
        Scenario scenario;
        scenario.name = QStringLiteral("cluster move");
        scenario.limiters = {tokenBucket(QStringLiteral("cl-run-tb"), 50, 1000, Scope::PerClient),
                             slidingWindow(QStringLiteral("cl-run-sw"), {{20, 500}}),
                             fixedWindow(QStringLiteral("cl-run-fw"), 30)};
        scenario.traffic.shape.type = ShapeSpec::Type::Constant;
        scenario.traffic.shape.rate = 400;
        scenario.traffic.durationS = 2.5;
        scenario.traffic.clients = 5;
        scenario.traffic.threads = 4;
        scenario.traffic.pipeline = 4;
        const auto moved = makeLimiter(scenario.limiters[0]);
        SlotHome home(moved->slot());
        const Master to = otherThan(home.home());

        ScenarioRunner runner(scenario, fixtureUrl());
        runner.start();
        QThread::msleep(900);
        moveSlot(moved->slot(), home.home(), to);
        runner.wait();
        const RunSnapshot run = runner.snapshot();
        QVERIFY(run.finished);
        QCOMPARE(run.scheduled, qint64(1000));
        expectExactAccounting(run);
        for (const LimiterSnapshot& l : run.limiters) {
            if (l.errors > 0) {
                qWarning("%s: %lld errors while its slot moved", qPrintable(l.spec.name),
                         static_cast<long long>(l.errors));
            }
        }
        // Decisions in the last half second (after the move) reached the new owner.
        expectResumed(run);
        QCOMPARE(ownerOf(moved->slot()).id, to.id);
        RedisRouter cleanup(fixtureUrl());
        for (const LimiterSpec& spec : scenario.limiters) {
            makeLimiter(spec)->reset(cleanup);
        }
    }

    // 6 threads hammer a sliding window while its slot moves away and back: no window of the
    // recorded grants ever holds more than the limit, and every decision has an outcome.
    void limitHoldsWhileSlotMoves() {
        const LimiterSpec spec = slidingWindow(QStringLiteral("cl-hammer"), {{15, 100}});
        ScopedLimiter limiter(spec);
        SlotHome home(limiter->slot());
        const Master away = otherThan(home.home());
        constexpr int kThreads = 6;
        std::atomic<bool> stop{false};
        std::vector<std::vector<std::pair<qint64, qint64>>> grants(kThreads);
        std::atomic<qint64> fired{0}, accepted{0}, rejected{0}, errors{0};
        std::atomic<qint64> moved{0}, asked{0}, retried{0};
        std::vector<std::unique_ptr<QThread>> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back(QThread::create([&, t] {
                auto router = routeFixture();
                for (int n = 0; !stop.load(); ++n) {
                    fired++;
                    try {
                        const Decision d = test::decide(*router, *limiter,
                                                        Request{QDateTime::currentMSecsSinceEpoch(),
                                                                QStringLiteral("c"), 1 + n % 2});
                        if (d.allowed) {
                            accepted++;
                            grants[size_t(t)].push_back({d.atMs, 1 + n % 2});
                        } else {
                            rejected++;
                        }
                    } catch (const RedisError&) {
                        errors++;
                    }
                }
                moved += router->redirects().moved;
                asked += router->redirects().ask;
                retried += router->redirects().tryAgain;
            }));
            threads.back()->start();
        }
        QThread::msleep(300);
        moveSlot(limiter->slot(), home.home(), away);
        QThread::msleep(300);
        moveSlot(limiter->slot(), away, home.home());
        QThread::msleep(300);
        stop = true;
        for (auto& t : threads) {
            t->wait();
        }
        QCOMPARE(fired.load(), accepted.load() + rejected.load() + errors.load());
        std::vector<std::pair<qint64, qint64>> all;
        for (const auto& g : grants) {
            all.insert(all.end(), g.begin(), g.end());
        }
        QVERIFY2(all.size() > 30, "too few grants to prove anything");
        const qint64 worst = busiestWindow(all, 100);
        QVERIFY2(worst <= 15, qPrintable(QStringLiteral("a 100 ms window held %1").arg(worst)));
        // Every thread went on deciding across both moves, so each was told MOVED at least twice.
        QVERIFY2(moved.load() >= 2 * kThreads, qPrintable(QString::number(moved.load())));
        qInfo(
            "fired %lld: accepted %lld, rejected %lld, errors %lld; MOVED %lld, ASK %lld, "
            "TRYAGAIN %lld",
            static_cast<long long>(fired.load()), static_cast<long long>(accepted.load()),
            static_cast<long long>(rejected.load()), static_cast<long long>(errors.load()),
            static_cast<long long>(moved.load()), static_cast<long long>(asked.load()),
            static_cast<long long>(retried.load()));
    }

    // `ratelab watch` finds the master that owns a Redisson limiter's slot: a limiter on a
    // master other than the first seed, written as Redisson writes it, is read back.
    void watchRedissonOnCluster() {
        const RedisUrl url = fixtureUrl();
        QString name;
        do {
            name = uniqueName(QStringLiteral("cl-watch"));
        } while (ownerOf(keyHashSlot(name.toStdString())).port == url.port);
        const std::string n = name.toStdString();
        const int slot = keyHashSlot(n);
        auto router = routeFixture();
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        RedisReply written = router->command(
            slot, {"EVAL",
                   "redis.call('hset', KEYS[1], 'rate', 10, 'interval', 60000, 'type', 0) "
                   "redis.call('set', KEYS[2], 7) "
                   "redis.call('zadd', KEYS[3], ARGV[1], "
                   "struct.pack('Bc0I', 16, '0123456789abcdef', 3)) return 1",
                   "3", n, "{" + n + "}:value", "{" + n + "}:permits", std::to_string(now)});
        QCOMPARE(replyInteger(written.get(), "EVAL"), 1LL);
        QProcess watch;
        watch.start(qEnvironmentVariable("RATELAB_BIN"),
                    {QStringLiteral("watch"), QStringLiteral("--redisson"), name,
                     QStringLiteral("--count"), QStringLiteral("2")});
        QVERIFY(watch.waitForFinished(60000));
        const QByteArray out = watch.readAllStandardOutput();
        QVERIFY2(watch.exitCode() == 0, watch.readAllStandardError().constData());
        QCOMPARE(out.count("available=7/10"), 2);
        QVERIFY2(!out.contains("error"), out.constData());
        RedisReply del =
            router->command(slot, {"DEL", n, "{" + n + "}:value", "{" + n + "}:permits"});
        QCOMPARE(replyInteger(del.get(), "DEL"), 3LL);
    }

    // `ratelab bench --names N` spreads N limiters over the masters and reports each node:
    // three node lines whose decisions add up to the total, and no errors.
    void benchReportsEveryNode() {
        QTemporaryDir dir;
        const QString spec = dir.filePath(QStringLiteral("spec.json"));
        QFile file(spec);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral(R"({"type": "token_bucket", "name": "%1", "scope": "global",
                                      "rate": 100, "interval_ms": 1000})")
                       .arg(uniqueName(QStringLiteral("cl-bench")))
                       .toUtf8());
        file.close();
        QProcess bench;
        bench.start(
            qEnvironmentVariable("RATELAB_BIN"),
            {QStringLiteral("bench"), QStringLiteral("--limiter"), spec, QStringLiteral("--names"),
             QStringLiteral("24"), QStringLiteral("--connections"), QStringLiteral("2"),
             QStringLiteral("--pipeline"), QStringLiteral("8"), QStringLiteral("--requests"),
             QStringLiteral("4800")});
        QVERIFY(bench.waitForFinished(120000));
        const QString out = QString::fromUtf8(bench.readAllStandardOutput());
        QVERIFY2(bench.exitCode() == 0, qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("errors: 0")), qPrintable(out));
        const QRegularExpression node(
            QStringLiteral("^node 127\\.0\\.0\\.1:(\\d+): decisions (\\d+)  decisions_per_s \\d+$"),
            QRegularExpression::MultilineOption);
        qint64 sum = 0;
        QSet<int> ports;
        for (auto it = node.globalMatch(out); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            ports.insert(m.captured(1).toInt());
            sum += m.captured(2).toLongLong();
        }
        QCOMPARE(ports.size(), 3);
        QCOMPARE(sum, 4800LL);
        QVERIFY2(out.trimmed()
                     .split(QLatin1Char('\n'))
                     .last()
                     .startsWith(QStringLiteral("decisions_per_s: ")),
                 qPrintable(out));
    }
};

QTEST_GUILESS_MAIN(TestCluster)
#include "tst_cluster.moc"
