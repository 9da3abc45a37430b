// Sweeps on a real Redis in virtual time: every combination of a batch decides exactly as
// `ratelab run` of that combination alone decides, figure by figure, for every limiter type; a
// sweep with a known answer is checked exactly, with its verdict, ranking and Pareto front.
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "limiters/limiter.h"
#include "output/sweep_files.h"
#include "redis/redis_router.h"
#include "run/scenario_runner.h"
#include "run/sweep_runner.h"
#include "scenario/scenario.h"
#include "support/run_checks.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// A scenario of `limiters` (JSON) with a fixed reference limiter beside them when `fixed`,
// against three Poisson clients for 2 s in virtual time, and a sweep of `vary`.
Scenario sweepScenario(const QString& limiters, const QString& vary, const QString& rest,
                       const QString& traffic) {
    const QString json = QStringLiteral(R"({"name": "sweep test", "limiters": [%1],
        "traffic": {%2, "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z",
                    "speed": 0}},
        "sweep": {"vary": {%3}, %4}})")
                             .arg(limiters, traffic, vary, rest);
    return parseScenarioJson(json.toUtf8(), QString());
}

// The batches of `plan` run one after the other (batches of `size`), split per combination.
QVector<RunSnapshot> runBatches(const SweepPlan& plan, qint64 size) {
    QVector<RunSnapshot> out;
    for (qint64 first = 0; first < plan.combinations(); first += size) {
        const qint64 count = std::min(size, plan.combinations() - first);
        const Scenario batch = plan.batch(first, count);
        out += plan.split(runOnFixture(batch), first, count);
    }
    return out;
}

void compareBursts(const std::vector<BusiestInterval>& a, const std::vector<BusiestInterval>& b,
                   const QString& where) {
    QCOMPARE(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        QVERIFY2(a[i].windowMs == b[i].windowMs && a[i].permits == b[i].permits &&
                     a[i].fromMs == b[i].fromMs,
                 qPrintable(where + QStringLiteral(" burst %1").arg(a[i].windowMs)));
    }
}

// Every figure a run reports of one limiter.
void compareLimiters(const LimiterSnapshot& a, const LimiterSnapshot& b, const QString& where) {
    QVERIFY2(a.spec == b.spec, qPrintable(where));
    QCOMPARE(a.fired, b.fired);
    QCOMPARE(a.accepted, b.accepted);
    QCOMPARE(a.rejected, b.rejected);
    QCOMPARE(a.errors, b.errors);
    QCOMPARE(a.bucketAccepted, b.bucketAccepted);
    QCOMPARE(a.bucketRejected, b.bucketRejected);
    QCOMPARE(a.fairness, b.fairness);
    compareBursts(a.admittedBurst, b.admittedBurst, where);
    compareBursts(a.admittedBurstRunClock, b.admittedBurstRunClock, where);
    QCOMPARE(a.clients.size(), b.clients.size());
    for (int c = 0; c < a.clients.size(); ++c) {
        QCOMPARE(a.clients[c].client, b.clients[c].client);
        QCOMPARE(a.clients[c].fired, b.clients[c].fired);
        QCOMPARE(a.clients[c].accepted, b.clients[c].accepted);
        QCOMPARE(a.clients[c].rejected, b.clients[c].rejected);
        compareBursts(a.clients[c].admittedBurst, b.clients[c].admittedBurst,
                      where + QLatin1Char(' ') + a.clients[c].client);
    }
}

const QString kPoisson = QStringLiteral(
    R"("shape": {"type": "poisson", "rate": 60}, "duration_s": 2, "seed": 11,
       "clients": {"count": 3, "weights": [4, 1, 1]})");

}  // namespace

class TestSweep : public QObject {
    Q_OBJECT

private slots:
    // Each limiter type, two of its fields varied over a 2 x 2 grid, a fixed sliding window
    // beside it: every combination's figures in batches of 3 (so one batch holds part of a
    // row of the grid) equal those of its scenario run alone, and its constraint's verdicts.
    void combinationsEqualRunsAlone_data() {
        QTest::addColumn<QString>("limiter");
        QTest::addColumn<QString>("vary");
        QTest::newRow("token bucket")
            << QStringLiteral(
                   R"({"type": "token_bucket", "name": "v", "scope": "per_client", "rate": 10,
                       "interval_ms": 1000})")
            << QStringLiteral(R"("v.rate": [5, 20], "v.interval_ms": [500, 1000])");
        QTest::newRow("fixed window")
            << QStringLiteral(R"({"type": "fixed_window", "name": "v", "rate": 10,
                                  "interval": 1, "unit": "seconds", "timezone": "UTC"})")
            << QStringLiteral(R"("v.rate": [5, 30], "v.interval": [1, 2])");
        QTest::newRow("sliding window")
            << QStringLiteral(R"({"type": "sliding_window", "name": "v", "scope": "per_client",
                "rules": [{"limit": 5, "window_ms": 1000}, {"limit": 20, "window_ms": 10000}]})")
            << QStringLiteral(R"("v.rules[0].limit": [3, 8], "v.rules[1].limit": [10, 30])");
        QTest::newRow("gcra") << QStringLiteral(
                                     R"({"type": "gcra", "name": "v", "rate": 10,
                                         "period_ms": 1000, "burst": 5})")
                              << QStringLiteral(R"("v.rate": [10, 40], "v.burst": [1, 10])");
        QTest::newRow("leaky bucket")
            << QStringLiteral(R"({"type": "leaky_bucket", "name": "v", "rate": 10,
                                  "period_ms": 1000, "burst": 4, "nodelay": true})")
            << QStringLiteral(R"("v.rate": [10, 40], "v.burst": [1, 8])");
        QTest::newRow("sliding counter")
            << QStringLiteral(R"({"type": "sliding_counter", "name": "v", "scope": "per_client",
                                  "limit": 10, "window_ms": 1000})")
            << QStringLiteral(R"("v.limit": [4, 20], "v.window_ms": {"from": 500, "to": 1000,
                                 "step": 500})");
    }
    void combinationsEqualRunsAlone() {
        QFETCH(QString, limiter);
        QFETCH(QString, vary);
        const QString name = uniqueName(QStringLiteral("sweep"));
        const QString fixed = uniqueName(QStringLiteral("sweep-fixed"));
        const QString limiters =
            limiter.replace(QStringLiteral("\"v\""), QLatin1Char('"') + name + QLatin1Char('"')) +
            QStringLiteral(R"(, {"type": "sliding_window", "name": "%1",
                "rules": [{"limit": 20, "window_ms": 1000}]})")
                .arg(fixed);
        vary.replace(QStringLiteral("\"v."), QLatin1Char('"') + name + QLatin1Char('.'));
        const Scenario scenario = sweepScenario(
            limiters, vary,
            QStringLiteral(R"("minimize": "accepted", "constraints": ["accepted_ratio >= 0.3",
                              "%1:max_accepted_in_any_1000ms <= 20"])")
                .arg(name),
            kPoisson);
        const SweepPlan plan(scenario);
        QCOMPARE(plan.combinations(), 4);
        const QVector<RunSnapshot> swept = runBatches(plan, 3);
        QCOMPARE(swept.size(), 4);
        for (qint64 c = 0; c < plan.combinations(); ++c) {
            const Scenario aloneScenario = plan.combination(c);
            const RunSnapshot alone = runOnFixture(aloneScenario);
            const QString where = plan.valuesText(c);
            const RunSnapshot& s = swept[c];
            QVERIFY2(s.finished && alone.finished, qPrintable(where));
            QCOMPARE(s.scenarioName, alone.scenarioName);
            QCOMPARE(s.scheduled, alone.scheduled);
            QCOMPARE(s.limiters.size(), 2);
            QCOMPARE(alone.limiters.size(), 2);
            for (int l = 0; l < 2; ++l) {
                compareLimiters(s.limiters[l], alone.limiters[l], where);
                if (QTest::currentTestFailed()) {
                    return;
                }
            }
            QCOMPARE(s.expectations.size(), alone.expectations.size());
            for (int e = 0; e < s.expectations.size(); ++e) {
                QCOMPARE(s.expectations[e].limiter, alone.expectations[e].limiter);
                QCOMPARE(s.expectations[e].measured, alone.expectations[e].measured);
                QCOMPARE(s.expectations[e].held, alone.expectations[e].held);
            }
        }
    }

    // A calendar fixed window of r per second against a constant 20/s for 3 s from a second
    // boundary admits exactly 3 x min(r, 20). Minimizing what it admits while it admits at
    // least half: r = 10 (30 accepted) is best; r = 5 is infeasible; the runner's rows and
    // the table's ranking say so.
    void knownAnswer() {
        const QString name = uniqueName(QStringLiteral("sweep-known"));
        const Scenario scenario = sweepScenario(
            QStringLiteral(R"({"type": "fixed_window", "name": "%1", "rate": 10, "interval": 1,
                               "unit": "seconds", "timezone": "UTC"})")
                .arg(name),
            QStringLiteral(R"("%1.rate": [40, 5, 20, 10])").arg(name),
            QStringLiteral(R"("minimize": "accepted", "constraints": ["accepted_ratio >= 0.5"])"),
            QStringLiteral(R"("shape": {"type": "constant", "rate": 20}, "duration_s": 3)"));
        SweepRunner runner{SweepPlan(scenario), fixtureUrl(), {}, 1};  // batches of one
        QCOMPARE(runner.batchSize(), 1);
        runner.start();
        runner.wait();
        QVERIFY(runner.error().isEmpty());
        QVERIFY(!runner.stopped());
        const SweepTable table = runner.table();
        QVERIFY(table.complete);
        QCOMPARE(table.combinations.size(), 4);
        const QVector<qint64> rates{40, 5, 20, 10};
        for (const SweepCombination& c : table.combinations) {
            const qint64 r = rates[c.index];
            QCOMPARE(c.values, QVector<qint64>{r});
            QCOMPARE(c.rows.size(), 1);
            QCOMPARE(c.rows[0].limiter, name);
            QCOMPARE(c.rows[0].group, QStringLiteral("*"));
            QCOMPARE(c.rows[0].fired, 60);
            QCOMPARE(c.rows[0].accepted, 3 * std::min<qint64>(r, 20));
            QCOMPARE(c.rows[0].rejected, 60 - 3 * std::min<qint64>(r, 20));
            QCOMPARE(c.objective, double(3 * std::min<qint64>(r, 20)));
            QCOMPARE(c.feasible(), r >= 10);
        }
        // Ranked by accepted (5: 15, 10: 30, then 20 and 40 tie at 60, by index: 40 first).
        QCOMPARE(table.ranking(), (QVector<int>{1, 3, 0, 2}));
        QCOMPARE(table.best(), 3);
        QCOMPARE(table.nearest(), 3);
        QCOMPARE(table.bestScenario.value(QStringLiteral("limiters"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("rate"))
                     .toInteger(),
                 10);
        QVERIFY(!table.bestScenario.contains(QStringLiteral("sweep")));
        // accepted_ratio >= 0.5: higher is better, so each step up in accepted buys ratio;
        // 40 and 20 tie on both: the first of them (40) stands for both.
        QCOMPARE(table.paretoFront(0), (QVector<int>{1, 3, 0}));
        QCOMPARE(runner.progress().done, 4);
        QCOMPARE(runner.progress().decisions, 4 * 60);
    }

    // Traffic with groups: after each limiter's "*" row, a row per group with its clients'
    // figures. A per-client calendar window of r per second against a user at 4/s and an
    // attacker at 20/s for 3 s admits the user 3 x min(r, 4) and the attacker 3 x r.
    void groupRows() {
        const QString name = uniqueName(QStringLiteral("sweep-groups"));
        const Scenario scenario = sweepScenario(
            QStringLiteral(R"({"type": "fixed_window", "name": "%1", "scope": "per_client",
                               "rate": 10, "interval": 1, "unit": "seconds", "timezone": "UTC"})")
                .arg(name),
            QStringLiteral(R"("%1.rate": [10, 3, 5])").arg(name),
            QStringLiteral(R"("minimize": "group.attacker.accepted",
                              "constraints": ["group.users.rejected_pct <= 1"])"),
            QStringLiteral(R"("groups": [
                {"name": "users", "clients": 1, "shape": {"type": "constant", "rate": 4}},
                {"name": "attacker", "clients": 1, "shape": {"type": "constant", "rate": 20}}],
                "duration_s": 3)"));
        SweepRunner runner{SweepPlan(scenario), fixtureUrl()};
        runner.start();
        runner.wait();
        QVERIFY(runner.error().isEmpty());
        const SweepTable table = runner.table();
        QCOMPARE(table.combinations.size(), 3);
        const QVector<qint64> rates{10, 3, 5};
        for (const SweepCombination& c : table.combinations) {
            const qint64 r = rates[c.index];
            QCOMPARE(c.rows.size(), 3);
            const QStringList groups{QStringLiteral("*"), QStringLiteral("users"),
                                     QStringLiteral("attacker")};
            const qint64 fired[] = {72, 12, 60};
            const qint64 accepted[] = {3 * std::min<qint64>(r, 4) + 3 * r,
                                       3 * std::min<qint64>(r, 4), 3 * r};
            for (int g = 0; g < 3; ++g) {
                const SweepFigures& row = c.rows[g];
                QCOMPARE(row.limiter, name);
                QCOMPARE(row.group, groups[g]);
                QCOMPARE(row.fired, fired[g]);
                QCOMPARE(row.accepted, accepted[g]);
                QCOMPARE(row.rejected, fired[g] - accepted[g]);
                QCOMPARE(row.admittedBurst.empty(), false);
            }
            QCOMPARE(c.objective, double(3 * r));
            QCOMPARE(c.feasible(), r >= 4);
        }
        QCOMPARE(table.best(), 2);  // rate 5: the user whole, the attacker 15
        const QStringList csv = QString::fromUtf8(sweepCsv(table)).split(QLatin1Char('\n'));
        QVERIFY2(csv.value(3).contains(QStringLiteral(",attacker,60,30,30,0,")),
                 qPrintable(csv.value(3)));
    }

    // Stopped before it starts: nothing finished, the table says incomplete.
    void stopBeforeAnyBatch() {
        const QString name = uniqueName(QStringLiteral("sweep-stop"));
        const Scenario scenario = sweepScenario(
            QStringLiteral(R"({"type": "token_bucket", "name": "%1", "rate": 10,
                               "interval_ms": 1000})")
                .arg(name),
            QStringLiteral(R"("%1.rate": [1, 2, 3])").arg(name),
            QStringLiteral(R"("maximize": "accepted")"),
            QStringLiteral(R"("shape": {"type": "constant", "rate": 20}, "duration_s": 1)"));
        SweepRunner runner{SweepPlan(scenario), fixtureUrl()};
        runner.requestStop();
        runner.start();
        runner.wait();
        QVERIFY(runner.finished());
        QVERIFY(runner.stopped());
        const SweepTable table = runner.table();
        QVERIFY(!table.complete);
        QCOMPARE(table.total, 3);
        QCOMPARE(table.best(), -1);
    }
};

QTEST_GUILESS_MAIN(TestSweep)
#include "tst_sweep.moc"
