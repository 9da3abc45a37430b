// Runs of the concurrency limiter with a traffic "hold" and "leak_pct", in virtual time on a
// real Redis: every granted request releases its slots after its hold (releases at an instant
// before the requests at it) unless it leaks; the run's decisions and lease counts are the
// reference model's fed the same schedule. The hold and leak_pct parse and round-trip.
#include <QtTest>
#include <queue>

#include "input_error.h"
#include "run/scenario_runner.h"
#include "support/algorithm_models.h"
#include "support/replay_runs.h"
#include "support/run_checks.h"
#include "support/test_redis.h"
#include "traffic/request_factory.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

constexpr qint64 kStartMs = 1'704'067'200'000;  // 2024-01-01T00:00:00Z

struct ModelRun {
    qint64 accepted = 0;
    qint64 rejected = 0;
    LeaseCounts leases;
    qint64 mostInFlight = 0;
};

// The schedule of a replay scenario fed to the model: request k at its trace time, its hold
// drawn as the run draws it; releases due at or before a request go first, earliest first.
ModelRun runModel(const Scenario& scenario) {
    const LimiterSpec& spec = scenario.limiters.first();
    ConcurrencyModel model(spec);
    const RequestFactory factory(scenario.traffic);
    using Due = std::pair<qint64, qint64>;  // release time, request index
    std::priority_queue<Due, std::vector<Due>, std::greater<Due>> releases;
    QVector<Request> requests;
    ModelRun out;
    for (qint64 k = 0; k < scenario.traffic.trace.size(); ++k) {
        const TraceRow& row = scenario.traffic.trace[int(k)];
        while (!releases.empty() && releases.top().first <= row.tMs) {
            Request grant = requests[int(releases.top().second)];
            grant.nowMs = releases.top().first;
            releases.pop();
            (model.release(grant) ? out.leases.lateReleases : out.leases.released) += 1;
        }
        Request r{row.tMs, row.client, row.permits};
        r.id = k;
        requests.push_back(r);
        const Decision d = model.decide(r);
        out.leases.expired += d.expiredLeases;
        if (!d.allowed) {
            ++out.rejected;
            continue;
        }
        ++out.accepted;
        const qint64 hold = factory.draw(k).holdMs;
        if (hold < 0) {
            ++out.leases.leaked;
        } else {
            releases.push({row.tMs + hold, k});
        }
        out.mostInFlight = std::max(out.mostInFlight, model.inFlight(row.client, row.tMs));
    }
    return out;
}

Scenario scenarioOf(const LimiterSpec& spec, HoldSpec hold, double leakPct, int clients,
                    quint32 seed) {
    Scenario s;
    s.name = QStringLiteral("test");
    s.limiters = {spec};
    setRandomReplay(s, seed, clients, 1500, 40, kStartMs);
    s.traffic.hold = hold;
    s.traffic.leakPct = leakPct;
    s.traffic.seed = seed;
    return s;
}

LimiterSpec concurrency(qint64 limit, qint64 leaseMs, Scope scope) {
    LimiterSpec s;
    s.type = LimiterType::Concurrency;
    s.name = uniqueName(QStringLiteral("run-cc"));
    s.scope = scope;
    s.limit = limit;
    s.leaseMs = leaseMs;
    return s;
}

QByteArray scenarioWithTraffic(const QByteArray& trafficExtra) {
    return R"({"name": "s", "limiters": [{"type": "concurrency", "name": "a", "limit": 5,
               "lease_ms": 1000}],
               "traffic": {"shape": {"type": "constant", "rate": 10}, "duration_s": 1)" +
           trafficExtra + "}}";
}

}  // namespace

Q_DECLARE_METATYPE(ratelab::LimiterSpec)
Q_DECLARE_METATYPE(ratelab::HoldSpec)

class TestConcurrencyRuns : public QObject {
    Q_OBJECT

private slots:
    void runMatchesModel_data() {
        QTest::addColumn<LimiterSpec>("spec");
        QTest::addColumn<HoldSpec>("hold");
        QTest::addColumn<double>("leakPct");
        QTest::addColumn<int>("clients");
        QTest::addColumn<quint32>("seed");
        const HoldSpec constant{HoldSpec::Type::Constant, 120};
        const HoldSpec exponential{HoldSpec::Type::Exponential, 150};
        QTest::newRow("constant hold, nothing leaks")
            << concurrency(6, 1000, Scope::Global) << constant << 0.0 << 3 << 1u;
        QTest::newRow("exponential hold, a tenth leak")
            << concurrency(6, 500, Scope::Global) << exponential << 10.0 << 3 << 2u;
        QTest::newRow("per client, holds past the lease")
            << concurrency(3, 200, Scope::PerClient) << HoldSpec{HoldSpec::Type::Exponential, 180}
            << 5.0 << 4 << 3u;
        QTest::newRow("zero hold: released at the grant's instant")
            << concurrency(2, 1000, Scope::Global) << HoldSpec{HoldSpec::Type::Constant, 0} << 0.0
            << 2 << 4u;
    }
    void runMatchesModel() {
        QFETCH(LimiterSpec, spec);
        QFETCH(HoldSpec, hold);
        QFETCH(double, leakPct);
        QFETCH(int, clients);
        QFETCH(quint32, seed);
        const Scenario scenario = scenarioOf(spec, hold, leakPct, clients, seed);
        const ModelRun want = runModel(scenario);
        const RunSnapshot run = runToEnd(scenario);
        QVERIFY(run.finished);
        expectExactAccounting(run);
        const LimiterSnapshot& got = run.limiters[0];
        QCOMPARE(got.accepted, want.accepted);
        QCOMPARE(got.rejected, want.rejected);
        QCOMPARE(got.leases.released, want.leases.released);
        QCOMPARE(got.leases.lateReleases, want.leases.lateReleases);
        QCOMPARE(got.leases.leaked, want.leases.leaked);
        QCOMPARE(got.leases.expired, want.leases.expired);
        QVERIFY(want.mostInFlight <= spec.limit);
        // A hold of 0 gives the slots back at the grant's instant, before the next request at
        // it: nothing is ever refused. The others hold long enough to fill the slots.
        QVERIFY(hold.ms == 0 ? got.rejected == 0 : got.rejected > 0);
        if (leakPct == 0) {
            QCOMPARE(got.leases.leaked, 0);
            QCOMPARE(got.leases.expired, 0);  // holds shorter than the lease: none runs out
        } else {
            QVERIFY(got.leases.leaked > 0 && got.leases.expired > 0);
        }
    }

    // Other limiters ignore the hold: a token bucket's run counts no leases.
    void otherTypesIgnoreTheHold() {
        LimiterSpec bucket;
        bucket.type = LimiterType::TokenBucket;
        bucket.name = uniqueName(QStringLiteral("run-tb"));
        bucket.rate = 5;
        bucket.intervalMs = 1000;
        const Scenario scenario =
            scenarioOf(bucket, HoldSpec{HoldSpec::Type::Constant, 100}, 50, 2, 5u);
        const RunSnapshot run = runToEnd(scenario);
        QVERIFY(run.limiters[0].accepted > 0);
        QVERIFY(!run.limiters[0].leases.any());
    }

    void holdParsesAndRoundTrips_data() {
        QTest::addColumn<QByteArray>("extra");
        QTest::addColumn<int>("type");
        QTest::addColumn<qint64>("ms");
        QTest::addColumn<double>("leakPct");
        QTest::newRow("none") << QByteArray() << int(HoldSpec::Type::None) << 0LL << 0.0;
        QTest::newRow("constant") << QByteArray(R"(, "hold": {"type": "constant", "ms": 250})")
                                  << int(HoldSpec::Type::Constant) << 250LL << 0.0;
        QTest::newRow("exponential, leaks")
            << QByteArray(R"(, "hold": {"type": "exponential", "mean_ms": 80}, "leak_pct": 2.5)")
            << int(HoldSpec::Type::Exponential) << 80LL << 2.5;
    }
    void holdParsesAndRoundTrips() {
        QFETCH(QByteArray, extra);
        QFETCH(int, type);
        QFETCH(qint64, ms);
        QFETCH(double, leakPct);
        const Scenario scenario = parseScenarioJson(scenarioWithTraffic(extra), QString());
        QCOMPARE(int(scenario.traffic.hold.type), type);
        QCOMPARE(scenario.traffic.hold.ms, ms);
        QCOMPARE(scenario.traffic.leakPct, leakPct);
        const Scenario again = parseScenario(scenarioToJson(scenario), QString());
        QCOMPARE(int(again.traffic.hold.type), type);
        QCOMPARE(again.traffic.hold.ms, ms);
        QCOMPARE(again.traffic.leakPct, leakPct);
    }

    void holdRefusesBadValues_data() {
        QTest::addColumn<QByteArray>("extra");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown type")
            << QByteArray(R"(, "hold": {"type": "uniform", "ms": 5})")
            << QStringLiteral("$.traffic.hold.type: unknown hold \"uniform\"");
        QTest::newRow("constant with a mean")
            << QByteArray(R"(, "hold": {"type": "constant", "mean_ms": 5})")
            << QStringLiteral("$.traffic.hold");
        QTest::newRow("exponential mean 0")
            << QByteArray(R"(, "hold": {"type": "exponential", "mean_ms": 0})")
            << QStringLiteral("$.traffic.hold.mean_ms: must be an integer from 1");
        QTest::newRow("leak without a hold")
            << QByteArray(R"(, "leak_pct": 5)")
            << QStringLiteral("$.traffic.leak_pct: only allowed with a \"hold\"");
        QTest::newRow("leak above 100")
            << QByteArray(R"(, "hold": {"type": "constant", "ms": 5}, "leak_pct": 101)")
            << QStringLiteral("$.traffic.leak_pct: must be from 0 to 100");
    }
    void holdRefusesBadValues() {
        QFETCH(QByteArray, extra);
        QFETCH(QString, message);
        try {
            parseScenarioJson(scenarioWithTraffic(extra), QString());
            QFAIL("accepted");
        } catch (const InputError& e) {
            QVERIFY2(e.message().startsWith(message), qPrintable(e.message()));
        }
    }
};

QTEST_GUILESS_MAIN(TestConcurrencyRuns)
#include "tst_concurrency_runs.moc"
