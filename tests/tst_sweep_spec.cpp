// A scenario's "sweep": what it parses to, what it writes back, the combinations it makes,
// each combination and batch as scenarios, and the errors of bad sweeps (naming the JSON path).
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "input_error.h"
#include "output/sweep_files.h"
#include "output/sweep_report.h"
#include "output/sweep_verdict.h"
#include "run/sweep_plan.h"
#include "scenario/scenario.h"
#include "support/scenario_documents.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

const char kLimiters[] =
    R"([{"type": "token_bucket", "name": "api", "rate": 10, "interval_ms": 1000},
        {"type": "sliding_window", "name": "login", "scope": "per_client",
         "rules": [{"limit": 5, "window_ms": 1000}, {"limit": 20, "window_ms": 60000}]},
        {"type": "fixed_window", "name": "quota", "rate": 100, "interval": 1, "unit": "seconds",
         "timezone": "UTC"}])";

QByteArray withSweep(const QByteArray& sweep) {
    return QByteArray(R"({"name": "s", "limiters": )") + kLimiters +
           R"(, "traffic": {"shape": {"type": "constant", "rate": 10}, "duration_s": 2},
               "sweep": )" +
           sweep + "}";
}

Scenario parse(const QByteArray& sweep) {
    return parseScenarioJson(withSweep(sweep), QString());
}

// Three combinations of api.rate (5, 10, 20) by hand: 25, 50 and 75 of 200 accepted, the
// constraint "accepted >= 50".
SweepTable handTable() {
    SweepTable t;
    t.scenario = QStringLiteral("hand");
    t.keys = QStringList{QStringLiteral("api.rate")};
    t.axisValues = {{5, 10, 20}};
    t.objective = QStringLiteral("accepted");
    t.constraints = QStringList{QStringLiteral("accepted >= 50")};
    t.total = 3;
    for (qint64 i = 0; i < 3; ++i) {
        SweepCombination c;
        c.index = i;
        c.values = {t.axisValues[0][i]};
        SweepFigures row;
        row.limiter = QStringLiteral("api");
        row.fired = 200;
        row.accepted = 25 * (i + 1);
        row.rejected = 200 - row.accepted;
        row.admittedBurst = {BusiestInterval{row.accepted / 2, 0, 1000, 0, 0}};
        c.rows = {row};
        c.objective = double(row.accepted);
        ExpectationResult check;
        check.limiter = row.limiter;
        check.expectation.metric = QStringLiteral("accepted");
        check.expectation.op = CompareOp::GreaterEqual;
        check.expectation.threshold = 50;
        check.measured = double(row.accepted);
        check.held = row.accepted >= 50;
        c.checks = {{check}};
        t.combinations.append(c);
    }
    return t;
}

}  // namespace

class TestSweepSpec : public QObject {
    Q_OBJECT

private slots:
    void parsesListsAndRanges() {
        const Scenario s = parse(R"({"vary": {"login.rules[1].limit": [30, 10],
            "api.rate": {"from": 5, "to": 20, "step": 5}}, "minimize": "login:accepted",
            "constraints": ["accepted_ratio >= 0.5", "api:max_accepted_in_any_1000ms <= 12"]})");
        const SweepSpec& sweep = s.sweep;
        QCOMPARE(sweep.vary.size(), 2);
        QCOMPARE(sweep.vary[0].key, QStringLiteral("api.rate"));
        QCOMPARE(sweep.vary[0].limiter, 0);
        QCOMPARE(sweep.vary[0].values, (QVector<qint64>{5, 10, 15, 20}));
        QCOMPARE(sweep.vary[1].path, QStringLiteral("rules[1].limit"));
        QCOMPARE(sweep.vary[1].values, (QVector<qint64>{30, 10}));
        QCOMPARE(sweep.combinations(), 8);
        QCOMPARE(sweep.variedLimiters(), (QVector<int>{0, 1}));
        QCOMPARE(sweep.valuesOf(5), (QVector<qint64>{15, 10}));
        QCOMPARE(sweep.objective.text(), QStringLiteral("login:accepted"));
        QVERIFY(!sweep.objective.maximize);
        QCOMPARE(sweep.constraints.size(), 2);
        QCOMPARE(sweepConstraintText(sweep.constraints[0]),
                 QStringLiteral("accepted_ratio >= 0.5"));
        QCOMPARE(sweepConstraintText(sweep.constraints[1]),
                 QStringLiteral("api:max_accepted_in_any_1000ms <= 12"));

        // Written back and read again: the same sweep.
        const QByteArray written = QJsonDocument(scenarioToJson(s)).toJson();
        QCOMPARE(parseScenarioJson(written, QString()).sweep, sweep);
    }

    // Combination 5 (api.rate 15, login.rules[1].limit 10) as a scenario of its own, and a
    // batch of combinations 2 and 3 under scratch names, the fixed limiters first.
    void combinationsAndBatches() {
        const Scenario s = parse(R"({"vary": {"api.rate": [5, 10, 15]}, "maximize": "accepted",
            "constraints": ["p99_ms < 50"]})");
        const SweepPlan plan(s, QStringLiteral("t-"));
        QVERIFY(plan.clockNote().contains(QStringLiteral("real")));
        QVERIFY(plan.scenario().traffic.clock.isVirtual);
        QCOMPARE(plan.scenario().traffic.clock.speed, 0.0);
        const Scenario one = plan.combination(2);
        QCOMPARE(one.name, QStringLiteral("s (api.rate = 15)"));
        QCOMPARE(one.limiters[0].rate, 15);
        QVERIFY(one.sweep.isEmpty());
        QCOMPARE(one.expectations.size(), 1);  // on the varied limiter only
        QCOMPARE(one.expectations[0].limiter, QStringLiteral("api"));

        const Scenario batch = plan.batch(1, 2);
        QStringList names;
        for (const LimiterSpec& l : batch.limiters) {
            names << l.name;
        }
        QCOMPARE(names, (QStringList{QStringLiteral("t-f1-login"), QStringLiteral("t-f1-quota"),
                                     QStringLiteral("t-1-api"), QStringLiteral("t-2-api")}));
        QCOMPARE(batch.limiters[2].rate, 10);
        QCOMPARE(batch.limiters[3].rate, 15);
        QCOMPARE(batch.expectations.size(), 2);
        QCOMPARE(plan.batchSize(1), 1);
        QCOMPARE(plan.batchSize(1LL << 30), 3);
    }

    void refusesBadSweeps_data() {
        QTest::addColumn<QByteArray>("sweep");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown limiter")
            << QByteArray(R"({"vary": {"web.rate": [1]}, "minimize": "accepted"})")
            << QStringLiteral("$.sweep.vary[\"web.rate\"]") << QStringLiteral("names no limiter");
        QTest::newRow("unknown field")
            << QByteArray(R"({"vary": {"api.burst": [1]}, "minimize": "accepted"})")
            << QStringLiteral("$.sweep.vary[\"api.burst\"]")
            << QStringLiteral("\"api\" has no numeric field \"burst\"");
        QTest::newRow("value out of range")
            << QByteArray(R"({"vary": {"api.rate": [0, 1]}, "minimize": "accepted"})")
            << QStringLiteral("$.sweep.vary[\"api.rate\"][0]") << QString();
        QTest::newRow("repeated value")
            << QByteArray(R"({"vary": {"api.rate": [2, 2]}, "minimize": "accepted"})")
            << QStringLiteral("$.sweep.vary[\"api.rate\"][1]")
            << QStringLiteral("already in the list");
        QTest::newRow("empty list")
            << QByteArray(R"({"vary": {"api.rate": []}, "minimize": "accepted"})")
            << QStringLiteral("$.sweep.vary[\"api.rate\"]") << QStringLiteral("at least one value");
        QTest::newRow("range backwards")
            << QByteArray(R"({"vary": {"api.rate": {"from": 5, "to": 1}}, "minimize": "accepted"})")
            << QStringLiteral("$.sweep.vary[\"api.rate\"].to")
            << QStringLiteral("must not be below");
        QTest::newRow("too many combinations")
            << QByteArray(R"({"vary": {"api.rate": {"from": 1, "to": 200},
                "login.rules[0].limit": {"from": 1, "to": 200}}, "minimize": "accepted"})")
            << QStringLiteral("$.sweep.vary") << QStringLiteral("more than 10000 combinations");
        QTest::newRow("no objective")
            << QByteArray(R"({"vary": {"api.rate": [1]}})") << QStringLiteral("$.sweep")
            << QStringLiteral("needs \"minimize\" or \"maximize\"");
        QTest::newRow("both objectives")
            << QByteArray(R"({"vary": {"api.rate": [1]}, "minimize": "accepted",
                              "maximize": "accepted"})")
            << QStringLiteral("$.sweep") << QStringLiteral("both");
        QTest::newRow("unknown metric")
            << QByteArray(R"({"vary": {"api.rate": [1]}, "minimize": "speed"})")
            << QStringLiteral("$.sweep.minimize") << QStringLiteral("unknown metric");
        QTest::newRow("unknown limiter prefix")
            << QByteArray(R"({"vary": {"api.rate": [1]}, "minimize": "web:accepted"})")
            << QStringLiteral("$.sweep.minimize") << QStringLiteral("no limiter is named");
        QTest::newRow("bad constraint")
            << QByteArray(R"({"vary": {"api.rate": [1]}, "minimize": "accepted",
                              "constraints": ["accepted about 3"]})")
            << QStringLiteral("$.sweep.constraints[0]") << QString();
        // The limiter's own check across fields: 90 is no interval of seconds within a minute.
        QTest::newRow("combination the limiter refuses")
            << QByteArray(R"({"vary": {"quota.interval": [1, 90]}, "minimize": "accepted"})")
            << QStringLiteral("$.sweep.vary") << QStringLiteral("90");
        QTest::newRow("unknown member")
            << QByteArray(R"({"vary": {"api.rate": [1]}, "minimize": "accepted", "grid": 1})")
            << QStringLiteral("$.sweep") << QStringLiteral("grid");
    }
    void refusesBadSweeps() {
        QFETCH(QByteArray, sweep);
        QFETCH(QString, where);
        QFETCH(QString, message);
        try {
            parse(sweep);
            QFAIL("accepted");
        } catch (const InputError& e) {
            QVERIFY2(e.where().startsWith(where),
                     qPrintable(e.where() + QStringLiteral(": ") + e.message()));
            QVERIFY2(e.message().contains(message), qPrintable(e.message()));
        }
    }

    // The printed table and sweep.csv of a hand-made table: sorted by the objective, the best
    // feasible row marked, every column the contract names.
    void tableAndCsv() {
        const SweepTable t = handTable();
        QCOMPARE(t.best(), 1);
        const QStringList lines = sweepTableText(t).split(QLatin1Char('\n'));
        QVERIFY2(lines.size() >= 5, qPrintable(lines.join(QLatin1Char('\n'))));
        QVERIFY(lines[2].contains(QStringLiteral("FAILED")));            // 5: 25 accepted, first
        QVERIFY(lines[3].trimmed().startsWith(QStringLiteral("best")));  // 10: 50 accepted
        QVERIFY(sweepVerdictText(t).contains(QStringLiteral("api.rate = 10")));
        const QList<QByteArray> csv = sweepCsv(t).split('\n');
        QCOMPARE(csv[0], QByteArray("api.rate,limiter,group,fired,accepted,rejected,errors,"
                                    "rejected_pct,max_accepted_in_any_1000ms,feasible,best"));
        QCOMPARE(csv[1], QByteArray("5,api,*,200,25,175,0,87.5,12,0,0"));
        QCOMPARE(csv[2], QByteArray("10,api,*,200,50,150,0,75,25,1,1"));
        QCOMPARE(csv[3], QByteArray("20,api,*,200,75,125,0,62.5,37,1,0"));
        const QJsonObject json = sweepJson(t);
        QCOMPARE(json.value(QStringLiteral("format")).toInt(), sweep_format::kFormat);
        QVERIFY(json.value(QStringLiteral("complete")).toBool());
    }

    // The JUnit file: green only for a sweep that ran every combination without a failed
    // decision; a stopped one, or one with failed decisions, reports each test case as an
    // error with why (none passes).
    void junitOfIncompleteSweeps_data() {
        QTest::addColumn<int>("finished");    // combinations that finished
        QTest::addColumn<qint64>("errors");   // failed decisions in the last one
        QTest::addColumn<QString>("reason");  // empty: complete
        QTest::newRow("complete") << 3 << qint64(0) << QString();
        QTest::newRow("stopped by SIGINT")
            << 2 << qint64(0)
            << QStringLiteral(
                   "the sweep stopped after 2 of 3 combinations (interrupted by SIGINT)");
        QTest::newRow("nothing finished")
            << 0 << qint64(0)
            << QStringLiteral(
                   "the sweep stopped after 0 of 3 combinations (interrupted by SIGINT)");
        QTest::newRow("decisions failed")
            << 3 << qint64(7)
            << QStringLiteral(
                   "7 decisions failed: combinations compare only on the same "
                   "decisions");
    }
    void junitOfIncompleteSweeps() {
        QFETCH(int, finished);
        QFETCH(qint64, errors);
        QFETCH(QString, reason);
        SweepTable t = handTable();
        t.combinations.resize(finished);
        t.complete = finished == t.total;
        if (finished > 0) {
            SweepFigures& row = t.combinations.last().rows.first();
            row.errors = errors;
            row.rejected -= errors;
        }
        QCOMPARE(sweepIncompleteReason(t, QStringLiteral("interrupted by SIGINT")), reason);
        const QString xml =
            QString::fromUtf8(sweepJUnit(t, 1.5, QStringLiteral("interrupted by SIGINT")));
        // "a feasible combination exists" and the constraint on the nearest combination.
        const int tests = finished > 0 ? 2 : 1;
        const QString counts = QStringLiteral("tests=\"%1\" failures=\"%2\" errors=\"%3\"");
        if (reason.isEmpty()) {
            QVERIFY2(xml.contains(counts.arg(tests).arg(0).arg(0)), qPrintable(xml));
        } else {
            QVERIFY2(xml.contains(counts.arg(tests).arg(0).arg(tests)), qPrintable(xml));
            QCOMPARE(xml.count(QStringLiteral("type=\"incomplete\"")), tests);
            QVERIFY2(xml.contains(QStringLiteral("message=\"incomplete: ") + reason),
                     qPrintable(xml));
        }
    }
};

QTEST_GUILESS_MAIN(TestSweepSpec)
#include "tst_sweep_spec.moc"
