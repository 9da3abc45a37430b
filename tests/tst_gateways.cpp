// Several gateways ("traffic.gateways") and how they use a limiter ("gateway"): requests spread
// round robin or sticky by client, each gateway's clock offset, node-local limiters against a
// reference model per gateway, refusals a gateway caches deciding exactly as the shared
// limiter with fewer Redis calls; parsing, round trips and the errors naming the field.
#include <QtTest>

#include <map>

#include "input_error.h"
#include "limiters/fixed_window_limiter.h"
#include "run/scenario_runner.h"
#include "support/reference_models.h"
#include "support/replay_runs.h"
#include "support/run_checks.h"
#include "support/test_redis.h"
#include "traffic/gateway_state.h"
#include "traffic/request_factory.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

constexpr qint64 kStartMs = 1'704'067'200'000;  // 2024-01-01T00:00:00Z

// A replay scenario of `limiters` (their JSON, one per entry) on a random trace, virtual time
// as fast as possible, through `gateways` ({"count": …} or empty: one).
Scenario scenarioOf(const QStringList& limiters, const QByteArray& gateways, quint32 seed) {
    const QByteArray json =
        "{\"name\": \"g\", \"limiters\": [" + limiters.join(QLatin1Char(',')).toUtf8() +
        "], \"traffic\": {\"shape\": {\"type\": \"constant\", \"rate\": 1}, "
        "\"duration_s\": 1" +
        (gateways.isEmpty() ? QByteArray() : ", \"gateways\": " + gateways) + "}}";
    Scenario s = parseScenarioJson(json, QString());
    setRandomReplay(s, seed, 3, 1200, 30, kStartMs);
    return s;
}

// `body` is the limiter's own fields after its type, name and scope.
QString limiterJson(const QString& type, const QString& prefix, const QString& body,
                    const QString& gateway = QString()) {
    return QStringLiteral(R"({"type": "%1", "name": "%2", "scope": "per_client", %3%4})")
        .arg(type, uniqueName(prefix), body,
             gateway.isEmpty() ? QString() : QStringLiteral(", \"gateway\": ") + gateway);
}

QByteArray scenarioWith(const QByteArray& limiterExtra, const QByteArray& trafficExtra,
                        int clients = 3) {
    return R"({"name": "s", "limiters": [{"type": "fixed_window", "name": "a", "rate": 5,
               "interval": 1, "unit": "seconds")" +
           limiterExtra +
           R"(}], "traffic": {"shape": {"type": "constant", "rate": 10}, "duration_s": 1,
               "clients": )" +
           QByteArray::number(clients) + trafficExtra + "}}";
}

// Mode batched from the design's rule: per gateway, per window key, known and pending; Redis's
// counters a map. Returns the grants and the decisions that called Redis.
struct BatchedModelRun {
    qint64 accepted = 0;
    qint64 acceptedPermits = 0;
    qint64 redisCalls = 0;
    std::map<std::string, qint64> redis;  // the counters once the run's end added the rest
};
BatchedModelRun runBatchedModel(const Scenario& s) {
    const LimiterSpec& spec = s.limiters[0];
    const auto limiter = makeLimiter(spec);
    const auto& window = static_cast<const FixedWindowLimiter&>(*limiter);
    const RequestFactory factory(s.traffic);
    struct Count {
        qint64 known = 0;
        qint64 pending = 0;
    };
    std::vector<std::map<std::string, Count>> counts(size_t(s.traffic.gateways.count));
    std::vector<qint64> nextSync(size_t(s.traffic.gateways.count), 0);
    BatchedModelRun out;
    const auto syncAll = [&](std::map<std::string, Count>& mine, const std::string& key) {
        bool synced = false;
        for (auto& [k, c] : mine) {
            if (c.pending > 0) {
                c.known = out.redis[k] += c.pending;
                c.pending = 0;
                synced = synced || k == key;
            }
        }
        return synced;
    };
    for (qint64 k = 0; k < s.traffic.trace.size(); ++k) {
        const TraceRow& row = s.traffic.trace[int(k)];
        const int g = factory.gatewayOf(k, int(factory.clientNames().indexOf(row.client)));
        const qint64 now = row.tMs + factory.gatewaySkewMs(g);
        const qint64 runMs = row.tMs - kStartMs;
        const CalendarWindow w = window.windows().windowAt(now);
        const std::string key = window.counterKey(w.startMs, row.client);
        std::map<std::string, Count>& mine = counts[size_t(g)];
        bool read = mine.find(key) == mine.end();
        Count& c = mine[key];
        bool called = false;
        if (runMs >= nextSync[size_t(g)]) {
            read = !syncAll(mine, key) || read;
            called = true;
            nextSync[size_t(g)] = (runMs / spec.gateway.syncMs + 1) * spec.gateway.syncMs;
        }
        if (read) {
            c.known = out.redis[key];
            called = true;
        }
        out.redisCalls += called;
        if (c.known + c.pending + row.permits <= spec.rate) {
            c.pending += row.permits;
            ++out.accepted;
            out.acceptedPermits += row.permits;
        }
    }
    for (auto& mine : counts) {
        syncAll(mine, std::string());
    }
    return out;
}

}  // namespace

class TestGateways : public QObject {
    Q_OBJECT

private slots:
    // Round robin: request k to gateway k mod G; sticky: client c to FNV-1a-32(c) mod G
    // (FNV-1a-32 of "c0" is 2267668038, of "c1" 2284445657, of "c3" 2250890419).
    void balance_data() {
        QTest::addColumn<QByteArray>("gateways");
        QTest::addColumn<QVector<int>>("forK");      // k = 0..5, client c(k mod 4)
        QTest::addColumn<QVector<qint64>>("skews");  // per gateway
        QTest::newRow("one") << QByteArray() << QVector<int>{0, 0, 0, 0, 0, 0}
                             << QVector<qint64>{0};
        QTest::newRow("round robin of 3")
            << QByteArray(R"({"count": 3, "clock_skew_ms": [0, 250, -40]})")
            << QVector<int>{0, 1, 2, 0, 1, 2} << QVector<qint64>{0, 250, -40};
        QTest::newRow("sticky of 3") << QByteArray(R"({"count": 3, "balance": "sticky"})")
                                     << QVector<int>{0, 2, 2, 1, 0, 2} << QVector<qint64>{0, 0, 0};
    }
    void balance() {
        QFETCH(QByteArray, gateways);
        QFETCH(QVector<int>, forK);
        QFETCH(QVector<qint64>, skews);
        const Scenario s = parseScenarioJson(
            scenarioWith(QByteArray(),
                         gateways.isEmpty() ? QByteArray() : ", \"gateways\": " + gateways, 4),
            QString());
        const RequestFactory factory(s.traffic);
        for (int k = 0; k < forK.size(); ++k) {
            QCOMPARE(factory.gatewayOf(
                         k, factory.clientNames().indexOf(QStringLiteral("c%1").arg(k % 4))),
                     forK[k]);
        }
        for (int g = 0; g < skews.size(); ++g) {
            QCOMPARE(factory.gatewaySkewMs(g), skews[g]);
        }
        const Scenario again = parseScenario(scenarioToJson(s), QString());
        QCOMPARE(again.traffic.gateways.count, s.traffic.gateways.count);
        QCOMPARE(int(again.traffic.gateways.balance), int(s.traffic.gateways.balance));
        QCOMPARE(again.traffic.gateways.clockSkewMs, s.traffic.gateways.clockSkewMs);
    }

    void gatewayUseRoundTrips_data() {
        QTest::addColumn<QByteArray>("extra");
        QTest::addColumn<int>("mode");
        QTest::addColumn<bool>("cache");
        QTest::addColumn<qint64>("syncMs");
        QTest::newRow("default") << QByteArray() << int(GatewayMode::Shared) << false << 0LL;
        QTest::newRow("local") << QByteArray(R"(, "gateway": {"mode": "local"})")
                               << int(GatewayMode::Local) << false << 0LL;
        QTest::newRow("cached refusals")
            << QByteArray(R"(, "gateway": {"mode": "shared", "cache_refusals": true})")
            << int(GatewayMode::Shared) << true << 0LL;
        QTest::newRow("batched") << QByteArray(
                                        R"(, "gateway": {"mode": "batched", "sync_ms": 100})")
                                 << int(GatewayMode::Batched) << false << 100LL;
    }
    void gatewayUseRoundTrips() {
        QFETCH(QByteArray, extra);
        QFETCH(int, mode);
        QFETCH(bool, cache);
        QFETCH(qint64, syncMs);
        const Scenario s = parseScenarioJson(scenarioWith(extra, QByteArray()), QString());
        const GatewayUse& use = s.limiters[0].gateway;
        QCOMPARE(int(use.mode), mode);
        QCOMPARE(use.cacheRefusals, cache);
        QCOMPARE(use.syncMs, syncMs);
        const QJsonObject written = limiterSpecToJson(s.limiters[0]);
        QCOMPARE(written.contains(QLatin1String("gateway")), !extra.isEmpty());
        QCOMPARE(parseLimiterSpec(written), s.limiters[0]);
    }

    void refusesBadValues_data() {
        QTest::addColumn<QByteArray>("limiterExtra");
        QTest::addColumn<QByteArray>("trafficExtra");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown mode")
            << QByteArray(R"(, "gateway": {"mode": "cluster"})") << QByteArray()
            << QStringLiteral("$.limiters[0].gateway.mode: unknown gateway mode \"cluster\"");
        QTest::newRow("cache with local")
            << QByteArray(R"(, "gateway": {"mode": "local", "cache_refusals": true})")
            << QByteArray()
            << QStringLiteral("$.limiters[0].gateway.cache_refusals: only with the mode");
        QTest::newRow("batched without sync")
            << QByteArray(R"(, "gateway": {"mode": "batched"})") << QByteArray()
            << QStringLiteral("$.limiters[0].gateway.sync_ms");
        QTest::newRow("sync without batched")
            << QByteArray(R"(, "gateway": {"mode": "shared", "sync_ms": 5})") << QByteArray()
            << QStringLiteral("$.limiters[0].gateway.sync_ms: only with the mode \"batched\"");
        QTest::newRow("unknown field") << QByteArray(R"(, "gateway": {"nodes": 2})") << QByteArray()
                                       << QStringLiteral("$.limiters[0].gateway.nodes");
        QTest::newRow("no gateways")
            << QByteArray() << QByteArray(R"(, "gateways": {"count": 0})")
            << QStringLiteral("$.traffic.gateways.count: must be an integer from 1 to 16");
        QTest::newRow("a skew short")
            << QByteArray() << QByteArray(R"(, "gateways": {"count": 3, "clock_skew_ms": [1]})")
            << QStringLiteral("$.traffic.gateways.clock_skew_ms: must be an array of 3 integers");
        QTest::newRow("unknown balance")
            << QByteArray() << QByteArray(R"(, "gateways": {"count": 2, "balance": "random"})")
            << QStringLiteral("$.traffic.gateways.balance: unknown balance \"random\"");
    }
    void refusesBadValues() {
        QFETCH(QByteArray, limiterExtra);
        QFETCH(QByteArray, trafficExtra);
        QFETCH(QString, message);
        try {
            parseScenarioJson(scenarioWith(limiterExtra, trafficExtra), QString());
            QFAIL("accepted");
        } catch (const InputError& e) {
            QVERIFY2(e.message().startsWith(message), qPrintable(e.message()));
        }
    }

    // Mode local: each gateway decides with its own limiter; the decisions are those of one
    // reference model per gateway fed the requests routed to it, and every decision calls Redis.
    void localMatchesModelPerGateway_data() {
        QTest::addColumn<QString>("limiter");
        QTest::addColumn<QByteArray>("gateways");
        QTest::newRow("sliding log, 3 round robin")
            << limiterJson(QStringLiteral("sliding_window"), QStringLiteral("gw-log"),
                           QStringLiteral(R"("rules": [{"limit": 4, "window_ms": 500}])"),
                           QStringLiteral(R"({"mode": "local"})"))
            << QByteArray(R"({"count": 3})");
        QTest::newRow("gcra, 2 sticky")
            << limiterJson(QStringLiteral("gcra"), QStringLiteral("gw-gcra"),
                           QStringLiteral(R"("rate": 5, "period_ms": 1000, "burst": 3)"),
                           QStringLiteral(R"({"mode": "local"})"))
            << QByteArray(R"({"count": 2, "balance": "sticky"})");
    }
    void localMatchesModelPerGateway() {
        QFETCH(QString, limiter);
        QFETCH(QByteArray, gateways);
        const Scenario s = scenarioOf({limiter}, gateways, 9);
        const RequestFactory factory(s.traffic);
        std::vector<std::unique_ptr<ReferenceModel>> models;
        for (int g = 0; g < s.traffic.gateways.count; ++g) {
            models.push_back(std::make_unique<ReferenceModel>(s.limiters[0]));
        }
        qint64 accepted = 0;
        for (qint64 k = 0; k < s.traffic.trace.size(); ++k) {
            const TraceRow& row = s.traffic.trace[int(k)];
            const int g = factory.gatewayOf(k, int(factory.clientNames().indexOf(row.client)));
            accepted += models[size_t(g)]->decide({row.tMs, row.client, row.permits}).allowed;
        }
        const RunSnapshot run = runToEnd(s);
        expectExactAccounting(run);
        const LimiterSnapshot& l = run.limiters[0];
        QCOMPARE(l.accepted, accepted);
        QCOMPARE(l.redisCalls, l.fired);
        QCOMPARE(l.gateways.size(), s.traffic.gateways.count);
    }

    // Mode batched (the fixed window): the grants and the Redis calls are the design's rule's,
    // and at the run's end Redis's counters hold every grant (the pending ones added).
    void batchedMatchesModel_data() {
        QTest::addColumn<qint64>("syncMs");
        QTest::addColumn<QByteArray>("gateways");
        QTest::newRow("one gateway, sync 100 ms") << 100LL << QByteArray();
        QTest::newRow("3 gateways, sync 100 ms, skewed")
            << 100LL << QByteArray(R"({"count": 3, "clock_skew_ms": [0, 40, -30]})");
        QTest::newRow("2 sticky gateways, sync 1 s")
            << 1000LL << QByteArray(R"({"count": 2, "balance": "sticky"})");
    }
    void batchedMatchesModel() {
        QFETCH(qint64, syncMs);
        QFETCH(QByteArray, gateways);
        const QString limiter =
            limiterJson(QStringLiteral("fixed_window"), QStringLiteral("gw-batch"),
                        QStringLiteral(R"("rate": 6, "interval": 500, "unit": "milliseconds")"),
                        QStringLiteral(R"({"mode": "batched", "sync_ms": %1})").arg(syncMs));
        const Scenario s = scenarioOf({limiter}, gateways, 23);
        const BatchedModelRun want = runBatchedModel(s);
        // The counters are read after the run: they outlive it (a key's TTL is its window and a
        // second of Redis's real time, which a loaded machine can spend before the reads below;
        // a longer TTL decides the same).
        LimiterOptions keep;
        keep.ttlExtraMs = 3'600'000;
        ScenarioRunner runner(s, fixtureUrl(), {}, keep);
        runner.start();
        runner.wait();
        const RunSnapshot run = runner.snapshot();
        expectExactAccounting(run);
        const LimiterSnapshot& l = run.limiters[0];
        QCOMPARE(l.accepted, want.accepted);
        QCOMPARE(l.redisCalls, want.redisCalls);
        QVERIFY(l.redisCalls < l.fired);
        auto router = routeFixture();  // the counters the gateways left
        qint64 counted = 0;
        for (const auto& [key, value] : want.redis) {
            RedisReply reply = router->command(runner.limiter(0).slot(), {"GET", key});
            QCOMPARE(QByteArray(reply->str, int(reply->len)).toLongLong(), value);
            counted += value;
        }
        QCOMPARE(counted, want.acceptedPermits);
        runner.limiter(0).reset(*router);
    }

    // With one gateway, cache_refusals decides exactly as the shared limiter (no request is
    // decided differently) and calls Redis for fewer of them.
    void cachedRefusalsDecideAsShared_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("body");
        QTest::addColumn<QByteArray>("gateways");
        const QByteArray one;
        const QByteArray three(R"({"count": 3})");
        QTest::newRow("token bucket") << QStringLiteral("token_bucket")
                                      << QStringLiteral(R"("rate": 4, "interval_ms": 500)") << one;
        QTest::newRow("fixed window")
            << QStringLiteral("fixed_window") << QStringLiteral(R"("rate": 4, "interval": 1,
                                                           "unit": "seconds")")
            << one;
        QTest::newRow("sliding log") << QStringLiteral("sliding_window")
                                     << QStringLiteral(R"("rules": [{"limit": 4, "window_ms": 500},
                                           {"limit": 10, "window_ms": 3000}])")
                                     << one;
        QTest::newRow("gcra") << QStringLiteral("gcra")
                              << QStringLiteral(R"("rate": 7, "period_ms": 1000, "burst": 2)")
                              << one;
        QTest::newRow("sliding counter")
            << QStringLiteral("sliding_counter")
            << QStringLiteral(R"("limit": 5, "window_ms": 700)") << one;
        QTest::newRow("leaky bucket")
            << QStringLiteral("leaky_bucket")
            << QStringLiteral(R"("rate": 5, "period_ms": 1000, "burst": 2, "nodelay": true)")
            << one;
        QTest::newRow("sliding log, 3 gateways")
            << QStringLiteral("sliding_window")
            << QStringLiteral(R"("rules": [{"limit": 4, "window_ms": 500}])") << three;
    }
    void cachedRefusalsDecideAsShared() {
        QFETCH(QString, type);
        QFETCH(QString, body);
        QFETCH(QByteArray, gateways);
        const Scenario s = scenarioOf(
            {limiterJson(type, QStringLiteral("gw-shared"), body),
             limiterJson(type, QStringLiteral("gw-cached"), body,
                         QStringLiteral(R"({"mode": "shared", "cache_refusals": true})"))},
            gateways, 17);
        const RunSnapshot run = runToEnd(s);
        expectExactAccounting(run);
        const LimiterSnapshot& shared = run.limiters[0];
        const LimiterSnapshot& cached = run.limiters[1];
        QCOMPARE(cached.accepted, shared.accepted);
        QCOMPARE(run.disagreements.size(), 1);
        QCOMPARE(run.disagreements[0].compared, shared.fired);
        QCOMPARE(run.disagreements[0].disagreed, 0);
        QCOMPARE(shared.redisCalls, shared.fired);
        // Every grant called Redis; some refusals did not.
        QVERIFY2(cached.redisCalls >= cached.accepted && cached.redisCalls < cached.fired,
                 qPrintable(QStringLiteral("%1 calls for %2 decisions, %3 refused")
                                .arg(cached.redisCalls)
                                .arg(cached.fired)
                                .arg(cached.rejected)));
    }
};

QTEST_GUILESS_MAIN(TestGateways)
#include "tst_gateways.moc"
