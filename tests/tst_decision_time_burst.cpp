// The admitted burst a verdict reads, under many threads on a real clock: a dozen threads with
// pipelines send requests that reach Redis in another order than they were sent, so counting
// grants at their send times crowds more into 100 ms than the limiter ever admitted. The
// limiter's own figure (max_accepted_in_any_<N>ms) counts them at the time the limiter decided
// at, never exceeds a correct limiter's limit, and equals what the limiter's own Redis state
// says (the sliding log's scores); the run's clock has its own figure.
#include <QtTest>
#include <algorithm>

#include "output/run_report.h"
#include "redis/redis_reply.h"
#include "run/scenario_runner.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

constexpr qint64 kLimit = 20;
constexpr qint64 kWindowMs = 100;

// Global limiters of 20 per 100 ms, poisson 3,000 req/s from 12 threads with pipelines of 8
// on the real clock. The sliding logs' second rule (never reached) keeps every grant's score
// in Redis for the whole run, so the busiest interval can be read back from Redis.
QByteArray scenarioJson(const QString& bucket, const QString& log, const QString& redisLog) {
    return QStringLiteral(R"({
        "name": "decision-time burst",
        "limiters": [
            {"type": "token_bucket", "name": "%1", "scope": "global", "rate": 20,
             "interval_ms": 100},
            {"type": "sliding_window", "name": "%2", "scope": "global",
             "rules": [{"limit": 20, "window_ms": 100}, {"limit": 1000000, "window_ms": 60000}]},
            {"type": "sliding_window", "name": "%3", "scope": "global", "time": "redis",
             "rules": [{"limit": 20, "window_ms": 100}, {"limit": 1000000, "window_ms": 60000}]}
        ],
        "traffic": {"shape": {"type": "poisson", "rate": 3000}, "duration_s": 1.5, "clients": 10,
                    "threads": 12, "pipeline": 8, "seed": 7},
        "expect": {"*": ["max_accepted_in_any_100ms <= 20"]}
    })")
        .arg(bucket, log, redisLog)
        .toUtf8();
}

// The most grants any [t, t + window) holds among the scores of a global sliding log.
qint64 busiestFromScores(RedisRouter& router, const Limiter& limiter, qint64 windowMs) {
    const std::string key = "{" + limiter.spec().name.toStdString() + "}:log";
    RedisConnection& connection = router.connectionForSlot(limiter.slot());
    const RedisReply reply = connection.command({"ZRANGE", key, "0", "-1", "WITHSCORES"});
    std::vector<qint64> scores;
    for (size_t i = 1; i < reply->elements; i += 2) {
        scores.push_back(
            QByteArray(reply->element[i]->str, int(reply->element[i]->len)).toLongLong());
    }
    std::sort(scores.begin(), scores.end());
    qint64 best = 0;
    size_t from = 0;
    for (size_t to = 0; to < scores.size(); ++to) {
        while (scores[to] - scores[from] >= windowMs) {
            ++from;
        }
        best = std::max<qint64>(best, qint64(to - from + 1));
    }
    return best;
}

const BusiestInterval& window(const std::vector<BusiestInterval>& bursts, qint64 ms) {
    const auto it = std::find_if(bursts.begin(), bursts.end(),
                                 [ms](const BusiestInterval& b) { return b.windowMs == ms; });
    if (it == bursts.end()) {
        qFatal("no %lld ms window", static_cast<long long>(ms));
    }
    return *it;
}

}  // namespace

class TestDecisionTimeBurst : public QObject {
    Q_OBJECT

private slots:
    // Several runs: the order requests reach Redis in differs each time.
    void correctLimiterNeverBreaches_data() {
        QTest::addColumn<int>("run");
        for (int run = 1; run <= 3; ++run) {
            QTest::newRow(qPrintable(QStringLiteral("run %1").arg(run))) << run;
        }
    }
    void correctLimiterNeverBreaches() {
        const Scenario scenario =
            parseScenarioJson(scenarioJson(uniqueName(QStringLiteral("dt-bucket")),
                                           uniqueName(QStringLiteral("dt-log")),
                                           uniqueName(QStringLiteral("dt-redis-log"))),
                              QString());
        ScenarioRunner runner(scenario, fixtureUrl());
        runner.start();
        runner.wait();
        const RunSnapshot run = runner.snapshot();
        auto router = routeFixture();
        QStringList runClock;
        for (int l = 0; l < run.limiters.size(); ++l) {
            const LimiterSnapshot& limiter = run.limiters[l];
            QCOMPARE(limiter.fired, limiter.accepted + limiter.rejected + limiter.errors);
            QVERIFY2(limiter.errors == 0, qPrintable(limiter.spec.name));
            QVERIFY(limiter.accepted >= kLimit);
            const qint64 decided = window(limiter.admittedBurst, kWindowMs).permits;
            QVERIFY2(decided <= kLimit,
                     qPrintable(QStringLiteral("%1: %2 in some 100 ms of the limiter's time")
                                    .arg(limiter.spec.name)
                                    .arg(decided)));
            // 1000 ms are ten disjoint 100 ms intervals: at most ten limits.
            QVERIFY(window(limiter.admittedBurst, 1000).permits <= 10 * kLimit);
            const std::unique_ptr<Limiter> made = makeLimiter(limiter.spec);
            if (limiter.spec.type == LimiterType::SlidingWindow) {
                QCOMPARE(decided, busiestFromScores(*router, *made, kWindowMs));
            }
            runClock << QStringLiteral("%1 %2")
                            .arg(limiter.spec.name)
                            .arg(window(limiter.admittedBurstRunClock, kWindowMs).permits);
            made->reset(*router);
        }
        for (const ExpectationResult& r : run.expectations) {
            QVERIFY2(r.held, qPrintable(r.limiter + QStringLiteral(" measured ") +
                                        QString::number(r.measured)));
        }
        QCOMPARE(expectationVerdict(run.expectations), QStringLiteral("passed"));
        // Not asserted (it depends on the scheduler): what the run's own clock counted.
        qInfo("run's clock, most in any 100 ms: %s",
              qPrintable(runClock.join(QStringLiteral(", "))));
    }
};

QTEST_GUILESS_MAIN(TestDecisionTimeBurst)
#include "tst_decision_time_burst.moc"
