// A virtual run that does not wait sends, in one pipeline, every request whose sending needs no
// reply not yet read: it decides exactly as one request per round trip does (every shipped
// scenario and the cases that end batches early), in far fewer round trips, and counts errors
// exactly when Redis fails between its pipelines.
#include <QDir>
#include <QtTest>

#include "output/pipeline_summary.h"
#include "redis/local_redis_server.h"
#include "redis/redis_connection.h"
#include "run/scenario_runner.h"
#include "scenario/scenario.h"
#include "support/run_checks.h"
#include "support/test_files.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// `scenario` on a virtual clock as fast as possible, with `pipeline`, its limiters renamed
// "<prefix>-<name>" (expectations and sweep dropped: only decisions are compared).
Scenario pipelined(Scenario scenario, int pipeline, const QString& prefix) {
    scenario.traffic.clock.isVirtual = true;
    scenario.traffic.clock.speed = 0;
    if (scenario.traffic.clock.startMs == 0) {
        scenario.traffic.clock.startMs = 1'704'067'200'000;
    }
    scenario.traffic.pipeline = pipeline;
    scenario.expectations.clear();
    scenario.sweep = SweepSpec();
    // A limiter on Redis's own clock decides by the real time of day: two runs can part.
    scenario.limiters.erase(
        std::remove_if(scenario.limiters.begin(), scenario.limiters.end(),
                       [](const LimiterSpec& spec) { return spec.time == TimeSource::Redis; }),
        scenario.limiters.end());
    for (LimiterSpec& spec : scenario.limiters) {
        spec.name = prefix + QLatin1Char('-') + spec.name;
    }
    return scenario;
}

Scenario fromJson(const char* json) {
    return parseScenarioJson(QByteArray(json), QString());
}

// Same requests, same decisions: per limiter (buckets, calls, leases), client and group, and
// how the limiters disagreed.
void expectSameRun(const RunSnapshot& want, const RunSnapshot& got) {
    QCOMPARE(got.limiters.size(), want.limiters.size());
    QCOMPARE(got.scheduled, want.scheduled);
    for (int l = 0; l < want.limiters.size(); ++l) {
        expectSameDecisions(want.limiters[l], got.limiters[l]);
        if (QTest::currentTestFailed()) {
            return;
        }
        QCOMPARE(got.limiters[l].clients.size(), want.limiters[l].clients.size());
        for (int c = 0; c < want.limiters[l].clients.size(); ++c) {
            QCOMPARE(got.limiters[l].clients[c].accepted, want.limiters[l].clients[c].accepted);
            QCOMPARE(got.limiters[l].clients[c].rejected, want.limiters[l].clients[c].rejected);
        }
        QCOMPARE(got.limiters[l].groups.size(), want.limiters[l].groups.size());
        for (int g = 0; g < want.limiters[l].groups.size(); ++g) {
            QCOMPARE(got.limiters[l].groups[g].accepted, want.limiters[l].groups[g].accepted);
            QCOMPARE(got.limiters[l].groups[g].bucketAccepted,
                     want.limiters[l].groups[g].bucketAccepted);
        }
    }
    QCOMPARE(got.disagreements.size(), want.disagreements.size());
    for (int d = 0; d < want.disagreements.size(); ++d) {
        QCOMPARE(got.disagreements[d].disagreed, want.disagreements[d].disagreed);
    }
}

// Runs `scenario` on `url` to its end; `fault` runs on the worker at run time `faultAtUs`
// (a state sample: between two batches, the clock held).
RunSnapshot runWithFaultAt(const Scenario& scenario, const RedisUrl& url, qint64 faultAtUs,
                           const std::function<void()>& fault) {
    ConnectOptions options;
    options.connectTimeout = std::chrono::milliseconds(300);
    options.commandTimeout = std::chrono::milliseconds(300);
    ScenarioRunner runner(scenario, url, options);
    const qint64 durationUs = qint64(scenario.traffic.durationS * 1e6);
    const int samples = int(durationUs / faultAtUs);
    bool done = false;
    runner.setStateSampler(samples, [&](qint64 runUs) {
        if (!done && runUs >= faultAtUs) {
            done = true;
            fault();
        }
    });
    runner.start();
    runner.wait();
    return runner.snapshot();
}

const char kFourLimiters[] = R"({"name": "four", "limiters": [
    {"type": "gcra", "name": "g", "rate": 10, "period_ms": 1000, "burst": 3},
    {"type": "leaky_bucket", "name": "n", "rate": 10, "period_ms": 1000, "burst": 3},
    {"type": "sliding_counter", "name": "c", "limit": 10, "window_ms": 1000},
    {"type": "sliding_window", "name": "s", "scope": "per_client",
     "rules": [{"limit": 4, "window_ms": 1000}]}],
  "traffic": {"shape": {"type": "poisson", "rate": 40}, "duration_s": 6, "clients": 4,
              "seed": 3, "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z"}}})";

}  // namespace

class TestPipelinedRuns : public QObject {
    Q_OBJECT

private slots:
    void sameDecisionsAnyPipeline_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("json");
        const QDir dir(QFileInfo(exampleScenarioPath(QStringLiteral("x.json"))).path());
        for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files)) {
            QTest::newRow(qPrintable(name)) << dir.filePath(name) << QByteArray();
        }
        // The cases that end a batch early: a wait-mode retry (its time comes with the reply),
        // a grant released at once (before the requests at its instant), a refusal a gateway
        // caches for the next request of its client, the leaky bucket's delay in wait mode.
        QTest::newRow("wait mode") << QString() << QByteArray(R"({"name": "w", "limiters": [
            {"type": "sliding_window", "name": "w", "rules": [{"limit": 5, "window_ms": 500}]},
            {"type": "leaky_bucket", "name": "l", "rate": 8, "period_ms": 1000, "burst": 2}],
          "traffic": {"shape": {"type": "poisson", "rate": 30}, "duration_s": 4, "clients": 3,
                      "mode": "wait", "timeout_ms": 800, "seed": 9}})");
        QTest::newRow("hold 0") << QString() << QByteArray(R"({"name": "h", "limiters": [
            {"type": "concurrency", "name": "k", "limit": 2, "lease_ms": 300}],
          "traffic": {"shape": {"type": "burst", "rate": 2, "burst": 6, "every_s": 0.5},
                      "duration_s": 3, "clients": 2, "seed": 4,
                      "hold": {"type": "constant", "ms": 0}}})");
        QTest::newRow("cached refusals") << QString() << QByteArray(R"({"name": "c", "limiters": [
            {"type": "fixed_window", "name": "f", "scope": "per_client", "rate": 3,
             "interval": 1, "unit": "seconds", "timezone": "UTC",
             "gateway": {"mode": "shared", "cache_refusals": true}}],
          "traffic": {"shape": {"type": "poisson", "rate": 60}, "duration_s": 4, "clients": 3,
                      "seed": 2, "gateways": {"count": 2, "balance": "round_robin"}}})");
    }
    void sameDecisionsAnyPipeline() {
        QFETCH(QString, file);
        QFETCH(QByteArray, json);
        const Scenario scenario =
            file.isEmpty() ? parseScenarioJson(json, QString()) : loadScenarioFile(file);
        const RunSnapshot one =
            runOnFixture(pipelined(scenario, 1, uniqueName(QStringLiteral("pl1"))));
        const RunSnapshot many =
            runOnFixture(pipelined(scenario, 64, uniqueName(QStringLiteral("pl64"))));
        expectSameRun(one, many);
        if (QTest::currentTestFailed()) {
            return;
        }
        expectExactAccounting(many);
        QVERIFY(many.pipeline.roundTrips <= one.pipeline.roundTrips);
    }

    // Four limiters of 40 requests a second over 6 s: a round trip per request with pipeline 1,
    // 64 decisions (16 requests) per round trip with 64.
    void fewerRoundTrips() {
        const Scenario scenario = fromJson(kFourLimiters);
        const RunSnapshot one =
            runOnFixture(pipelined(scenario, 1, uniqueName(QStringLiteral("rt1"))));
        const RunSnapshot many =
            runOnFixture(pipelined(scenario, 64, uniqueName(QStringLiteral("rt64"))));
        QCOMPARE(one.pipeline.roundTrips, one.scheduled);
        QCOMPARE(one.pipeline.decisions, 4 * one.scheduled);
        QCOMPARE(many.pipeline.roundTrips, (one.scheduled + 15) / 16);
        QCOMPARE(many.pipeline.decisions, 4 * one.scheduled);
        expectSameRun(one, many);
    }

    // Every EVALSHA of a pipeline answers NOSCRIPT after SCRIPT FLUSH: each is sent again, in
    // order, and decides as it would have.
    void scriptFlushBetweenPipelines() {
        const Scenario scenario = fromJson(kFourLimiters);
        const RunSnapshot calm =
            runOnFixture(pipelined(scenario, 64, uniqueName(QStringLiteral("calm"))));
        LocalRedisServer server;
        server.start();
        const Scenario flushed = pipelined(scenario, 64, uniqueName(QStringLiteral("flushed")));
        const RunSnapshot run = runWithFaultAt(flushed, server.url(), 2'000'000, [&] {
            RedisConnection admin(server.url());
            expectStatusOk(admin.command({"SCRIPT", "FLUSH"}).get(), "SCRIPT FLUSH");
        });
        expectSameRun(calm, run);
    }

    // Redis gone between two pipelines: every later decision is an error, each counted once.
    void redisKilledBetweenPipelines() {
        LocalRedisServer server;
        server.start();
        const Scenario scenario =
            pipelined(fromJson(kFourLimiters), 64, uniqueName(QStringLiteral("killed")));
        const RunSnapshot run =
            runWithFaultAt(scenario, server.url(), 3'000'000, [&] { server.crash(); });
        expectExactAccounting(run);
        for (const LimiterSnapshot& l : run.limiters) {
            QVERIFY(l.errors > 0);
            QVERIFY(l.accepted + l.rejected > 0);
        }
    }

    // Settings a virtual run cannot use are named in its summary, not silently ignored. (In
    // wait mode a batch holds one instant's requests: here one each, all granted.)
    void settingsWithoutEffectAreSaid_data() {
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("pipeline");
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QStringList>("said");
        const QString wait = QStringLiteral("wait"), tryMode = QStringLiteral("try");
        QTest::newRow("used") << 1 << 64 << tryMode << QStringList();
        QTest::newRow("threads") << 4 << 64 << tryMode
                                 << QStringList{QStringLiteral("threads 4 has no effect")};
        QTest::newRow("one request per batch")
            << 1 << 64 << wait << QStringList{QStringLiteral("pipeline 64 had no effect")};
    }
    void settingsWithoutEffectAreSaid() {
        QFETCH(int, threads);
        QFETCH(int, pipeline);
        QFETCH(QString, mode);
        QFETCH(QStringList, said);
        Scenario scenario = pipelined(fromJson(R"({"name": "one", "limiters": [
                {"type": "gcra", "name": "g", "rate": 100, "period_ms": 1000, "burst": 10}],
              "traffic": {"shape": {"type": "constant", "rate": 20}, "duration_s": 2,
                          "clients": 1}})"),
                                      pipeline, uniqueName(QStringLiteral("fx")));
        scenario.traffic.threads = threads;
        scenario.traffic.mode =
            mode == QLatin1String("wait") ? AcquireMode::Wait : AcquireMode::Try;
        scenario.traffic.timeoutMs = 100;
        const RunSnapshot run = runOnFixture(scenario);
        const QStringList notes =
            settingsWithoutEffect(pipelineSummaryOf(run), run.virtualClock, run.clockSpeed);
        QCOMPARE(notes.size(), said.size());
        for (int i = 0; i < said.size(); ++i) {
            QVERIFY2(notes[i].startsWith(said[i]), qPrintable(notes[i]));
        }
    }
};

QTEST_GUILESS_MAIN(TestPipelinedRuns)
#include "tst_pipelined_runs.moc"
