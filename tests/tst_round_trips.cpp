// Traffic "round_trips": "per_limiter" gives each limiter of a batch its own round trip to Redis
// (and so its own latency) without changing a single decision; with shared round trips the
// printed summary says why the limiters' latencies agree.
#include <QtTest>

#include "output/run_report.h"
#include "scenario/scenario.h"
#include "support/run_checks.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// Three limiters of different types against 3 clients of Poisson traffic, 2 s in virtual time,
// several threads with pipelines, round trips as `roundTrips` says.
Scenario threeLimiters(const QString& roundTrips, const QString& prefix) {
    const QString json = QStringLiteral(R"({"name": "round trips", "limiters": [
            {"type": "sliding_window", "name": "%1-log", "scope": "per_client",
             "rules": [{"limit": 6, "window_ms": 1000}]},
            {"type": "token_bucket", "name": "%1-tb", "rate": 40, "interval_ms": 1000},
            {"type": "gcra", "name": "%1-gcra", "rate": 30, "period_ms": 1000, "burst": 4}],
          "traffic": {"shape": {"type": "poisson", "rate": 120}, "duration_s": 2,
                      "clients": 3, "threads": 1, "pipeline": 8, "seed": 5,
                      "round_trips": "%2",
                      "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z",
                                "speed": 0}}})")
                             .arg(prefix, roundTrips);
    return parseScenarioJson(json.toUtf8(), QString());
}

// A finished run of two limiters whose latencies were measured (a real clock).
RunSnapshot measuredRun(bool perLimiter) {
    RunSnapshot run;
    run.scenarioName = QStringLiteral("measured");
    run.finished = true;
    run.roundTripPerLimiter = perLimiter;
    for (const char* name : {"a", "b"}) {
        LimiterSnapshot l;
        l.spec.name = QString::fromLatin1(name);
        l.latency.total = 1;
        l.latency.max = 350;
        run.limiters.append(l);
    }
    return run;
}

}  // namespace

class TestRoundTrips : public QObject {
    Q_OBJECT

private slots:
    void parsedAndWritten_data() {
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("perLimiter");
        QTest::newRow("shared") << QStringLiteral("shared") << false;
        QTest::newRow("per limiter") << QStringLiteral("per_limiter") << true;
    }
    void parsedAndWritten() {
        QFETCH(QString, value);
        QFETCH(bool, perLimiter);
        const Scenario scenario = threeLimiters(value, QStringLiteral("p"));
        QCOMPARE(scenario.traffic.roundTripPerLimiter, perLimiter);
        const QJsonObject traffic =
            scenarioToJson(scenario).value(QLatin1String("traffic")).toObject();
        // The default is left out, as every default of the writer is.
        QCOMPARE(traffic.value(QLatin1String("round_trips")).toString(),
                 perLimiter ? value : QString());
        const Scenario again =
            parseScenarioJson(QJsonDocument(scenarioToJson(scenario)).toJson(), QString());
        QCOMPARE(again.traffic.roundTripPerLimiter, perLimiter);
    }

    // Round trips of their own change when a limiter is asked, never what it answers.
    void sameDecisionsEitherWay() {
        const RunSnapshot shared = runOnFixture(
            threeLimiters(QStringLiteral("shared"), uniqueName(QStringLiteral("rt-shared"))));
        const RunSnapshot own = runOnFixture(
            threeLimiters(QStringLiteral("per_limiter"), uniqueName(QStringLiteral("rt-own"))));
        expectExactAccounting(own);
        QCOMPARE(own.limiters.size(), 3);
        for (int l = 0; l < 3; ++l) {
            const LimiterSnapshot& a = shared.limiters[l];
            const LimiterSnapshot& b = own.limiters[l];
            QVERIFY(a.fired > 200);
            QCOMPARE(b.fired, a.fired);
            QCOMPARE(b.accepted, a.accepted);
            QVERIFY(b.accepted > 0 && b.rejected > 0);
            QCOMPARE(b.bucketAccepted, a.bucketAccepted);
            QCOMPARE(b.bucketRejected, a.bucketRejected);
        }
        QCOMPARE(own.disagreements.size(), shared.disagreements.size());
        for (int p = 0; p < own.disagreements.size(); ++p) {
            QCOMPARE(own.disagreements[p].disagreed, shared.disagreements[p].disagreed);
        }
    }

    void summarySaysWhyLatenciesAgree_data() {
        QTest::addColumn<bool>("perLimiter");
        QTest::addColumn<bool>("said");
        QTest::newRow("shared") << false << true;
        QTest::newRow("per limiter") << true << false;
    }
    void summarySaysWhyLatenciesAgree() {
        QFETCH(bool, perLimiter);
        QFETCH(bool, said);
        const QString text = summaryText(measuredRun(perLimiter));
        QCOMPARE(text.contains(QStringLiteral("the 2 limiters share each round trip")), said);
        // Nothing measured (a virtual clock as fast as possible): nothing to explain.
        RunSnapshot virtualRun = measuredRun(perLimiter);
        for (LimiterSnapshot& l : virtualRun.limiters) {
            l.latency.max = 0;
        }
        QVERIFY(!summaryText(virtualRun).contains(QStringLiteral("share each round trip")));
    }
};

QTEST_GUILESS_MAIN(TestRoundTrips)
#include "tst_round_trips.moc"
