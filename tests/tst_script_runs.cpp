// Script limiters in runs (docs/your-limiter.md): every request decided by the reference too,
// the disagreements counted per limiter, bucket, client and group and carried into summary.json,
// buckets.csv, the printed summary and the expectations; an explanation showing the script's raw
// reply beside the reference's reason; a script past Redis's busy limit stopping the run; the
// short TTLs of a virtual run found.
#include <QtTest>

#include "explain/explanation_output.h"
#include "limiters/script_spec.h"
#include "output/buckets_csv.h"
#include "output/run_report.h"
#include "output/summary_json.h"
#include "redis/local_redis_server.h"
#include "run/scenario_explainer.h"
#include "run/scenario_runner.h"
#include "run/script_ttls.h"
#include "support/run_checks.h"
#include "support/test_files.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// The shipped example of both sliding logs, its limiters under names of their own.
Scenario slidingLogs() {
    Scenario s = loadScenarioFile(exampleScenarioPath(QStringLiteral("scripts-sliding-logs.json")));
    s.traffic.durationS = 5;
    for (LimiterSpec& spec : s.limiters) {
        spec.name = uniqueName(spec.name);
    }
    s.expectations.clear();
    return s;
}

const LimiterSnapshot& limiterNamed(const RunSnapshot& run, const QString& start) {
    for (const LimiterSnapshot& l : run.limiters) {
        if (l.spec.name.startsWith(start)) {
            return l;
        }
    }
    qFatal("no limiter %s", qPrintable(start));
}

}  // namespace

class TestScriptRuns : public QObject {
    Q_OBJECT

private slots:
    void disagreementsCountedEverywhere() {
        const Scenario scenario = slidingLogs();
        const RunSnapshot run = runOnFixture(scenario);
        expectExactAccounting(run);
        const LimiterSnapshot& builtIn = limiterNamed(run, QStringLiteral("built-in-log"));
        const LimiterSnapshot& flawed = limiterNamed(run, QStringLiteral("log-by-time"));
        const LimiterSnapshot& right = limiterNamed(run, QStringLiteral("log-done-right"));
        QVERIFY(!builtIn.hasReference);
        QVERIFY(flawed.hasReference && right.hasReference);
        // Every request decided by both, none failed.
        QCOMPARE(right.reference.compared, right.fired);
        QCOMPARE(flawed.reference.compared, flawed.fired);
        // Done right: it decides as the built-in log. Keyed by time: it lets bursts through.
        QCOMPARE(right.reference.disagreed, 0);
        QCOMPARE(right.accepted, builtIn.accepted);
        QVERIFY(flawed.reference.disagreed > 0);
        QCOMPARE(flawed.reference.disagreed, flawed.accepted - builtIn.accepted);
        // Per client and per bucket, they add up to the limiter's.
        qint64 byClient = 0;
        for (const ClientTotals& c : flawed.clients) {
            byClient += c.reference.disagreed;
        }
        QCOMPARE(byClient, flawed.reference.disagreed);
        qint64 byBucket = 0;
        for (const qint64 n : flawed.bucketDisagreed) {
            byBucket += n;
        }
        QCOMPARE(byBucket, flawed.reference.disagreed);
        QVERIFY(builtIn.bucketDisagreed.isEmpty());

        // summary.json and buckets.csv carry them, and read back the same.
        const RunSummary summary = summaryOf(run);
        const QJsonObject json = summaryToJson(summary);
        RunSummary read = summaryFromJson(json, QStringLiteral("summary.json"));
        bucketsFromCsv(bucketsToCsv(summary), QStringLiteral("buckets.csv"), read);
        const LimiterSummary* flawedRead = read.find(flawed.spec.name);
        QVERIFY(flawedRead && flawedRead->hasReference);
        QCOMPARE(flawedRead->counts.reference.disagreed, flawed.reference.disagreed);
        QCOMPARE(flawedRead->counts.reference.compared, flawed.reference.compared);
        QCOMPARE(flawedRead->bucketDisagreed, flawed.bucketDisagreed);
        QCOMPARE(flawedRead->clients[0].counts.reference.disagreed,
                 flawed.clients[0].reference.disagreed);
        QVERIFY(!read.find(builtIn.spec.name)->hasReference);
        QVERIFY(bucketsToCsv(summary).startsWith(
            "bucket,t_ms,limiter,accepted,rejected,errors,target_rate,errors_open,errors_closed,"
            "disagreements_with_reference\n"));
        // The spec inside summary.json is self-contained (the Lua inline).
        QVERIFY(json.value(QLatin1String("limiters"))
                    .toArray()[1]
                    .toObject()
                    .value(QLatin1String("spec"))
                    .toObject()
                    .value(QLatin1String("script"))
                    .isObject());

        // The printed summary says it, the expectations measure it.
        QVERIFY2(summaryText(run).contains(
                     QStringLiteral("against its reference (sliding_window): %1 of %2 "
                                    "decisions disagree")
                         .arg(flawed.reference.disagreed)
                         .arg(flawed.fired)),
                 qPrintable(summaryText(run)));
        double measured = 0;
        QVERIFY(limiterMetric(flawed, QStringLiteral("disagreements_with_reference"), &measured));
        QCOMPARE(measured, double(flawed.reference.disagreed));
        QVERIFY(limiterMetric(flawed, QStringLiteral("client.c0.disagreements_with_reference"),
                              &measured));
        QCOMPARE(measured, double(flawed.clients[0].reference.disagreed));
        // A limiter without a reference has no such figure (not a silent 0).
        QVERIFY(!limiterMetric(builtIn, QStringLiteral("disagreements_with_reference"), &measured));
    }

    void groupsCountTheirClients() {
        Scenario s = slidingLogs();
        const QByteArray groups = R"({"limiters": [{"type": "sliding_window", "name": "x",
            "rules": [{"limit": 1, "window_ms": 1000}]}], "traffic": {"groups": [
            {"name": "users", "clients": 2, "shape": {"type": "constant", "rate": 4}},
            {"name": "bursts", "clients": 1,
             "shape": {"type": "burst", "rate": 2, "burst": 8, "every_s": 0.5}}],
            "duration_s": 5, "mode": "try",
            "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": 0}}})";
        s.traffic = parseScenarioJson(groups, QString()).traffic;
        const RunSnapshot run = runOnFixture(s);
        const LimiterSnapshot& flawed = limiterNamed(run, QStringLiteral("log-by-time"));
        QCOMPARE(flawed.groups.size(), 2);
        QCOMPARE(flawed.groups[0].reference.disagreed + flawed.groups[1].reference.disagreed,
                 flawed.reference.disagreed);
        QVERIFY(flawed.groups[1].reference.disagreed > 0);  // the bursts' group
        double measured = 0;
        QVERIFY(limiterMetric(flawed, QStringLiteral("group.bursts.disagreements_with_reference"),
                              &measured));
        QCOMPARE(measured, double(flawed.groups[1].reference.disagreed));
    }

    // ratelab explain of a request the flawed log grants and the reference refuses: the
    // script's reply as Redis gave it, beside the reference's reason.
    void explainShowsTheReplyBesideTheReference() {
        const Scenario scenario = slidingLogs();
        const RunSnapshot run = runOnFixture(scenario);
        const LimiterSnapshot& flawed = limiterNamed(run, QStringLiteral("log-by-time"));
        QVERIFY(flawed.reference.disagreed > 0);
        auto router = routeFixture();
        // The first request the two decide differently.
        for (qint64 k = 0; k < 200; ++k) {
            const Explanation e = explainRequest(scenario, flawed.spec.name, k, *router);
            QVERIFY(e.reference);
            QVERIFY2(e.scriptReply.startsWith(QLatin1Char('[')), qPrintable(e.scriptReply));
            if (e.reference->decision.allowed == e.decision.allowed) {
                continue;
            }
            QVERIFY(e.decision.allowed);
            const QString text = explanationText(e);
            QVERIFY2(text.contains(QStringLiteral("script's reply: ") + e.scriptReply),
                     qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("your script granted it; the reference, "
                                                  "sliding_window, refuses (they disagree): "
                                                  "10 per 1000 ms held 10 of 10")),
                     qPrintable(text));
            const QJsonObject json = explanationJson(e);
            QCOMPARE(json.value(QLatin1String("script_reply")).toString(), e.scriptReply);
            QCOMPARE(
                json.value(QLatin1String("reference")).toObject().value(QLatin1String("agrees")),
                QJsonValue(false));
            return;
        }
        QFAIL("no disagreeing request among the first 200");
    }

    // A script that runs past Redis's busy limit: the run stops, saying why, and Redis answers
    // again (ratelab ended its own script).
    void scriptPastTheBusyLimitStopsTheRun() {
        LocalRedisServer server;
        server.setExtraArguments({QStringLiteral("--busy-reply-threshold"), QStringLiteral("50")});
        server.start();
        const Scenario scenario = parseScenarioJson(R"({"limiters": [
            {"type": "script", "name": "slow", "script": {"inline":
              "if ARGV[1] == '3' then while true do end end return 1"},
             "keys": ["{{slow}}:{client}"], "args": ["{request_id}"],
             "reply": {"allowed": "1"}}],
            "traffic": {"shape": {"type": "constant", "rate": 100}, "duration_s": 2,
                        "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z",
                                  "speed": 0}}})",
                                                    QString());
        ConnectOptions options;
        options.commandTimeout = std::chrono::milliseconds(300);
        ScenarioRunner runner(scenario, server.url(), options);
        runner.start();
        runner.wait();
        const RunSnapshot run = runner.snapshot();
        QVERIFY(run.finished);
        QVERIFY(run.stoppedEarly);
        QVERIFY2(run.stopCause.contains(QStringLiteral("BUSY")), qPrintable(run.stopCause));
        QVERIFY2(run.stopCause.contains(QStringLiteral("SCRIPT KILL: OK")),
                 qPrintable(run.stopCause));
        QVERIFY(run.limiters[0].fired < 200);   // it did not go on to the end
        QCOMPARE(run.limiters[0].accepted, 3);  // requests 0, 1 and 2
        // SCRIPT KILL ends the script at its next check: Redis answers again soon after.
        RedisConnection after(server.url());
        QTRY_VERIFY_WITH_TIMEOUT(after.command({"PING"})->type == REDIS_REPLY_STATUS, 10000);
    }

    // A virtual run of a script on its arguments' clock whose keys hold TTLs shorter than the
    // run: the key with the shortest is named.
    void shortTtlsOfAVirtualRunFound() {
        Scenario s = slidingLogs();
        s.limiters = {s.limiters[2]};
        ScenarioRunner runner(s, fixtureUrl());
        runner.start();
        runner.wait();
        auto router = routeFixture();
        const std::vector<ShortScriptTtl> found =
            shortScriptTtls(*router, {&runner.limiter(0)}, 5000);
        QCOMPARE(found.size(), size_t(1));
        QCOMPARE(found[0].limiter, s.limiters[0].name);
        // Renamed from the example: its own name before the key (ScriptSpec::declaredName).
        const QString name = s.limiters[0].name;
        QVERIFY2(
            found[0].key.startsWith(name + QStringLiteral(":{") + name + QStringLiteral("}:log:")),
            qPrintable(found[0].key));
        QVERIFY(found[0].ttlMs > 0 && found[0].ttlMs <= 1000);
        QVERIFY(
            shortScriptTtlWarning(found[0], 5000).contains(QStringLiteral("\"clock\": \"redis\"")));
        // A span shorter than every TTL: nothing to say.
        QVERIFY(shortScriptTtls(*router, {&runner.limiter(0)}, 1).empty());
        runner.limiter(0).reset(*router);
    }
};

QTEST_GUILESS_MAIN(TestScriptRuns)
#include "tst_script_runs.moc"
