// The paths that decide a scenario request by request outside a run (the window's Step,
// `ratelab explain`) decide every request as a virtual-time run of the same scenario does: a
// concurrency limiter's grants release their slots after their hold (releases at an instant
// before the requests at it, but not inside one pipeline batch) unless they leak, and each
// gateway keeps its own state (mode local's own limiter, cached refusals, batched counts).
// Run and Step are compared per 1 ms bucket of the run's clock, their lease counts and Redis
// calls; explain is compared with Step request by request on a sample.
#include <QtTest>

#include "explain/decision_explainer.h"
#include "limiters/limiter_state.h"
#include "run/replay.h"
#include "run/scenario_explainer.h"
#include "run/scenario_runner.h"
#include "run/step_session.h"
#include "support/replay_runs.h"
#include "support/run_checks.h"
#include "support/test_files.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

constexpr qint64 kStartMs = 1'704'067'200'000;  // 2024-01-01T00:00:00Z

// What to change in an example so that it is short, exact to the millisecond and its own.
struct Variant {
    double durationS = 2;
    int pipeline = 1;
    bool zeroHold = false;   // a constant hold of 0: released at the grant's instant
    qint64 limit = 0;        // > 0: the concurrency limiter's limit
    int replayRequests = 0;  // > 0: a random trace of this many requests, many at one instant
    int gateways = 0;        // > 0: this many gateways, round robin, no clock skew
};

}  // namespace

Q_DECLARE_METATYPE(Variant)

namespace {

Scenario exampleOf(const QString& file, const Variant& v) {
    Scenario s = loadScenarioFile(exampleScenarioPath(file));
    s.traffic.durationS = v.durationS;
    s.traffic.pipeline = v.pipeline;
    if (v.zeroHold) {
        s.traffic.hold = HoldSpec{HoldSpec::Type::Constant, 0};
    }
    if (v.gateways > 0) {
        s.traffic.gateways = GatewaysSpec{};
        s.traffic.gateways.count = v.gateways;
    }
    if (v.replayRequests > 0) {
        setRandomReplay(s, 11, 3, v.replayRequests, 12, kStartMs);
    }
    for (LimiterSpec& spec : s.limiters) {
        spec.name = uniqueName(spec.name);
        if (v.limit > 0) {
            spec.limit = v.limit;
        }
    }
    s.bucketMs = 1;  // one bucket per millisecond: a request's own decision, but at one instant
    return s;
}

// Every request stepped, its decisions per limiter; the session's snapshot.
struct Stepped {
    std::vector<StepSession::Step> steps;
    RunSnapshot snapshot;
};
Stepped stepAll(const Scenario& s, bool explain = false, int most = -1) {
    StepSession session(s, fixtureUrl(), explain);
    Stepped out;
    for (StepSession::Step step = session.next(); step.index >= 0; step = session.next()) {
        out.steps.push_back(std::move(step));
        if (most >= 0 && int(out.steps.size()) >= most) {
            break;
        }
    }
    out.snapshot = session.snapshot();
    auto router = routeFixture();
    for (const LimiterSpec& scratch : session.scratchLimiters()) {
        makeLimiter(scratch)->reset(*router);
    }
    return out;
}

// The slots a concurrency decision found in flight: its lease zset's members whose lease had
// not run out, read just before it (after the releases due by then).
qint64 inFlightBefore(const Explanation& e) {
    qint64 held = 0;
    for (const KeyState& key : e.stateBefore) {
        for (const auto& member : key.members) {
            held += member.second > double(e.request.nowMs) ? 1 : 0;
        }
    }
    return held;
}

// A replay scenario of one limiter (its JSON) whose run starts at its trace's first row, as
// `ratelab replay` starts: one gateway, virtual time, 1 ms buckets.
Scenario replayOf(const QString& limiter) {
    Scenario s =
        parseScenarioJson("{\"name\": \"r\", \"limiters\": [" + limiter.toUtf8() +
                              "], \"traffic\": {\"shape\": {\"type\": \"constant\", \"rate\": 1}, "
                              "\"duration_s\": 1}}",
                          QString());
    setRandomReplay(s, 5, 3, 800, 12, kStartMs);
    const qint64 first = s.traffic.trace.first().tMs;
    for (qint64& offset : s.traffic.shape.replayOffsetsMs) {
        offset -= first - kStartMs;
    }
    s.traffic.clock.startMs = first;
    s.traffic.durationS = double(s.traffic.trace.last().tMs - first + 1) / 1000.0;
    s.bucketMs = 1;
    return s;
}

}  // namespace

class TestWalkDecisions : public QObject {
    Q_OBJECT

private slots:
    // Step decides every request as the run does, and explain each sampled one as Step.
    void walkDecidesAsTheRun_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<Variant>("variant");
        QTest::addColumn<bool>("refuses");  // some request is refused (the hold matters)
        const QString leaks = QStringLiteral("concurrency-leaks.json");
        QTest::newRow("concurrency, exponential hold, 5 % leak")
            << leaks << Variant{4, 1, false, 0, 0} << true;
        QTest::newRow("concurrency, tight limit") << leaks << Variant{3, 1, false, 6, 0} << true;
        QTest::newRow("concurrency, zero hold, pipeline 4 (same-instant batches)")
            << leaks << Variant{0, 4, true, 2, 500} << true;
        const QString cached = QStringLiteral("gateways-local-and-cached.json");
        QTest::newRow("gateways: shared, local, cache_refusals")
            << cached << Variant{2, 1, false, 0, 0} << true;
        QTest::newRow("gateways: cache_refusals in batches of 2")
            << cached << Variant{0, 6, false, 0, 500} << true;
        // One gateway: a batch's two requests may be one client's, the second not refused by
        // the cache for the first's refusal (learnt once the batch is decided).
        QTest::newRow("one gateway: cache_refusals in batches of 2")
            << cached << Variant{0, 6, false, 0, 800, 1} << true;
        QTest::newRow("gateways: batched, skewed")
            << QStringLiteral("gateways-batched-and-skewed.json") << Variant{2, 1, false, 0, 0}
            << true;
    }
    void walkDecidesAsTheRun() {
        QFETCH(QString, file);
        QFETCH(Variant, variant);
        QFETCH(bool, refuses);
        const Scenario s = exampleOf(file, variant);
        const Stepped stepped = stepAll(s);
        const RunSnapshot run = runToEnd(s);  // resets the keys first, deletes them after
        QVERIFY(run.finished);
        expectExactAccounting(run);
        QCOMPARE(stepped.snapshot.limiters.size(), run.limiters.size());
        for (int l = 0; l < run.limiters.size(); ++l) {
            expectSameDecisions(run.limiters[l], stepped.snapshot.limiters[l]);
            if (QTest::currentTestFailed()) {
                qWarning("limiter %s", qPrintable(s.limiters[l].name));
                return;
            }
            if (refuses && l == 0) {
                QVERIFY(run.limiters[l].rejected > 0);
            }
        }

        // Explain a sample of the requests, each on a fresh replay of the schedule before it.
        auto router = routeFixture();
        const qint64 n = qint64(stepped.steps.size());
        for (qint64 k : {n / 7, n / 3, n / 2, n - 1}) {
            for (int l = 0; l < s.limiters.size(); ++l) {
                ExplainTarget target;
                target.index = k;
                const Explanation e = explainDecision(s, s.limiters[l].name, target, *router);
                const Decision& want = stepped.steps[size_t(k)].decisions[size_t(l)];
                QVERIFY2(e.decision.allowed == want.allowed &&
                             e.decision.remaining == want.remaining &&
                             e.decision.retryAfterMs == want.retryAfterMs &&
                             e.decision.calledRedis == want.calledRedis,
                         qPrintable(QStringLiteral("request %1 of %2: explain %3 (%4 left), step "
                                                   "%5 (%6 left)")
                                        .arg(k)
                                        .arg(s.limiters[l].name)
                                        .arg(e.decision.allowed)
                                        .arg(e.decision.remaining)
                                        .arg(want.allowed)
                                        .arg(want.remaining)));
                if (s.limiters[l].type == LimiterType::Concurrency) {
                    // Whose grants hold the slots in flight: none released before it.
                    qint64 used = 0;
                    for (const ClientUse& use : e.capacityUsedBy) {
                        used += use.permits;
                    }
                    QCOMPARE(used, e.decision.reason.counted);
                }
            }
        }
    }

    // `ratelab replay` decides a trace through one gateway as a run of it does: a batched
    // window's own counts (synced from the first row on), a cache_refusals gateway's refusals
    // without a Redis call, mode local's own limiter.
    void replayDecidesAsTheRun_data() {
        QTest::addColumn<QString>("limiter");
        QTest::newRow("fixed window, batched") << QStringLiteral(
            R"({"type": "fixed_window", "name": "%1", "scope": "per_client", "rate": 8,
                "interval": 500, "unit": "milliseconds",
                "gateway": {"mode": "batched", "sync_ms": 100}})");
        QTest::newRow("sliding log, cache_refusals") << QStringLiteral(
            R"({"type": "sliding_window", "name": "%1", "scope": "per_client",
                "rules": [{"limit": 5, "window_ms": 400}],
                "gateway": {"mode": "shared", "cache_refusals": true}})");
        QTest::newRow("gcra, local") << QStringLiteral(
            R"({"type": "gcra", "name": "%1", "scope": "global", "rate": 20, "period_ms": 1000,
                "burst": 3, "gateway": {"mode": "local"}})");
    }
    void replayDecidesAsTheRun() {
        QFETCH(QString, limiter);
        const Scenario s = replayOf(limiter.arg(uniqueName(QStringLiteral("walk-replay"))));
        const LimiterSpec& spec = s.limiters[0];
        const auto replayed = makeLimiter(spec);
        auto router = routeFixture();
        QVector<qint64> accepted(int(s.traffic.durationS * 1000 + 0.5), 0);
        qint64 calls = 0;
        const qint64 first = s.traffic.trace.first().tMs;
        replayTrace(
            *router, *replayed, s.traffic.trace, [&](const TraceRow& row, const Decision& d) {
                accepted[int(row.tMs - first)] += d.allowed ? 1 : 0;
                calls += d.calledRedis ? 1 : 0;
                if (!d.calledRedis && spec.gateway.cacheRefusals) {
                    const QByteArray line = replayCsvLine(row, d, spec);
                    QVERIFY2(line.contains("refused by gateway 0's cache until"), line.constData());
                }
            });
        // Mode local decided on "<name>@g0": the shared limiter's keys were never written.
        const int keys =
            readLimiterState(router->connectionForSlot(replayed->slot()), *replayed, first)
                .totalKeys;
        QCOMPARE(keys == 0, spec.gateway.mode == GatewayMode::Local);
        const RunSnapshot run = runToEnd(s);
        const LimiterSnapshot& l = run.limiters[0];
        QVERIFY(l.rejected > 0);
        QCOMPARE(accepted, l.bucketAccepted);
        QCOMPARE(calls, l.redisCalls);
        QCOMPARE(calls < l.fired, spec.gateway.mode != GatewayMode::Local);
    }

    // An explaining Step decides as a plain one, and says the slots in flight after the
    // releases due by then: those its lease zset holds unexpired just before the decision.
    void explainedStepsSayTheSlotsInFlight() {
        const Scenario s =
            exampleOf(QStringLiteral("concurrency-leaks.json"), Variant{3, 1, false, 6, 0});
        const Stepped plain = stepAll(s, false, 150);
        const Stepped explained = stepAll(s, true, 150);
        QCOMPARE(explained.steps.size(), plain.steps.size());
        int refused = 0;
        for (size_t k = 0; k < plain.steps.size(); ++k) {
            const Decision& want = plain.steps[k].decisions[0];
            QVERIFY(explained.steps[k].explanations[0].has_value());
            const Explanation& e = *explained.steps[k].explanations[0];
            QCOMPARE(e.decision.allowed, want.allowed);
            QCOMPARE(e.decision.remaining, want.remaining);
            QCOMPARE(e.decision.reason.counted, inFlightBefore(e));
            QVERIFY2(e.reason.startsWith(
                         QStringLiteral("%1 of 6 slots in flight").arg(e.decision.reason.counted)),
                     qPrintable(e.reason));
            refused += want.allowed ? 0 : 1;
        }
        QVERIFY(refused > 0);
    }

    // A gateway's own decisions are explained as such: a cached refusal names its gateway and
    // makes no Redis call; a local limiter's keys are its own ("<name>@g<g>").
    void gatewayDecisionsExplained() {
        const Scenario s =
            exampleOf(QStringLiteral("gateways-local-and-cached.json"), Variant{2, 1, false, 0, 0});
        const Stepped explained = stepAll(s, true, 250);
        int cachedRefusals = 0;
        for (const StepSession::Step& step : explained.steps) {
            const Explanation& local = *step.explanations[1];
            QCOMPARE(local.spec.name, GatewayState::localName(s.limiters[1].name, step.gateway));
            for (const KeyState& key : local.stateAfter) {
                QVERIFY2(key.key.contains(local.spec.name), qPrintable(key.key));
            }
            const Explanation& cached = *step.explanations[2];
            if (cached.decision.calledRedis) {
                continue;
            }
            ++cachedRefusals;
            QVERIFY(!cached.decision.allowed);
            const QString want =
                QStringLiteral("refused by gateway %1's cache until ").arg(step.gateway);
            QVERIFY2(cached.reason.startsWith(want) &&
                         cached.reason.contains(QStringLiteral("no Redis call")),
                     qPrintable(cached.reason));
            QCOMPARE(cached.passesAtMs, cached.request.nowMs + cached.decision.retryAfterMs);
        }
        QVERIFY(cachedRefusals > 0);
    }
};

QTEST_GUILESS_MAIN(TestWalkDecisions)
#include "tst_walk_decisions.moc"
