// Runs of gcra, sliding_counter and leaky_bucket on a real Redis in virtual time: wait-mode
// traffic holds the leaky bucket's accepted requests for delay_ms (recorded as wait), and the
// summary counts, per pair of limiters fed the same requests, the decisions that differ.
#include <QDir>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QtTest>

#include "input_error.h"
#include "output/run_report.h"
#include "output/summary_json.h"
#include "run/scenario_runner.h"
#include "support/reference_models.h"
#include "support/replay_runs.h"
#include "support/run_checks.h"
#include "support/test_files.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

constexpr qint64 kStartMs = 1'704'067'200'000;  // 2024-01-01T00:00:00Z

LimiterSpec leakyBucket(qint64 rate, qint64 periodMs, qint64 burst, bool nodelay,
                        Scope scope = Scope::Global) {
    LimiterSpec s;
    s.type = LimiterType::LeakyBucket;
    s.name = uniqueName(QStringLiteral("run-lb"));
    s.scope = scope;
    s.rate = rate;
    s.periodMs = periodMs;
    s.burst = burst;
    s.nodelay = nodelay;
    return s;
}

// A scenario replaying `rows` in virtual time, as fast as possible (one worker: reproducible).
Scenario traceScenario(QVector<LimiterSpec> limiters, QVector<TraceRow> rows, AcquireMode mode) {
    Scenario s;
    s.name = QStringLiteral("test");
    s.limiters = std::move(limiters);
    s.traffic.shape.type = ShapeSpec::Type::Replay;
    for (const TraceRow& row : rows) {
        s.traffic.shape.replayOffsetsMs.append(row.tMs - rows.first().tMs);
    }
    s.traffic.durationS = double(rows.last().tMs - rows.first().tMs + 1) / 1000.0;
    s.traffic.trace = std::move(rows);
    s.traffic.mode = mode;
    s.traffic.timeoutMs = 3'600'000;
    s.traffic.clock.isVirtual = true;
    s.traffic.clock.speed = 0;
    s.traffic.clock.startMs = kStartMs;
    return s;
}

qint64 waitedMsTotal(const LimiterSnapshot& l) {
    qint64 total = 0;
    for (const ClientTotals& c : l.clients) {
        total += c.waitedMsTotal;
    }
    return total;
}

const LimiterDisagreement* pair(const RunSnapshot& run, const QString& a, const QString& b) {
    for (const LimiterDisagreement& d : run.disagreements) {
        if (run.limiters[d.a].spec.name == a && run.limiters[d.b].spec.name == b) {
            return &d;
        }
    }
    return nullptr;
}

}  // namespace

Q_DECLARE_METATYPE(ratelab::LimiterSpec)
Q_DECLARE_METATYPE(QVector<ratelab::TraceRow>)

class TestAlgorithmRuns : public QObject {
    Q_OBJECT

private slots:
    // Four requests at once into rate 2 per 1000 ms, burst 3: nginx holds them 0, 500, 1000 and
    // 1500 ms. Wait mode waits that out; try mode and nodelay do not.
    void waitModeHoldsLeakyDelays_data() {
        QTest::addColumn<LimiterSpec>("spec");
        QTest::addColumn<int>("mode");
        QTest::addColumn<qint64>("waitedMs");
        QTest::addColumn<qint64>("held");
        QTest::newRow("wait, delayed")
            << leakyBucket(2, 1000, 3, false) << int(AcquireMode::Wait) << 3000LL << 3LL;
        QTest::newRow("wait, nodelay")
            << leakyBucket(2, 1000, 3, true) << int(AcquireMode::Wait) << 0LL << 0LL;
        QTest::newRow("try, delayed")
            << leakyBucket(2, 1000, 3, false) << int(AcquireMode::Try) << 0LL << 0LL;
    }
    void waitModeHoldsLeakyDelays() {
        QFETCH(LimiterSpec, spec);
        QFETCH(int, mode);
        QFETCH(qint64, waitedMs);
        QFETCH(qint64, held);
        QVector<TraceRow> rows(4, TraceRow{0, QStringLiteral("a"), 1, 0});
        const RunSnapshot run = runOnFixture(traceScenario({spec}, rows, AcquireMode(mode)));
        QVERIFY(run.finished);
        expectExactAccounting(run);
        const LimiterSnapshot& l = run.limiters[0];
        QCOMPARE(l.accepted, 4);
        QCOMPARE(l.attempts, 4);  // a hold is no second call
        QCOMPARE(waitedMsTotal(l), waitedMs);
        QCOMPARE(qint64(l.waited.total), held);
    }

    // Random traffic the bucket never refuses (burst 1000): every accepted request's recorded
    // wait is exactly the delay the reference model gives it, per client.
    void waitedEqualsModelDelays_data() {
        QTest::addColumn<LimiterSpec>("spec");
        QTest::addColumn<quint32>("seed");
        QTest::newRow("global 7/1000 ms") << leakyBucket(7, 1000, 1000, false) << 1u;
        QTest::newRow("per client 3/250 ms")
            << leakyBucket(3, 250, 1000, false, Scope::PerClient) << 2u;
    }
    void waitedEqualsModelDelays() {
        QFETCH(LimiterSpec, spec);
        QFETCH(quint32, seed);
        QRandomGenerator random(seed);
        QVector<TraceRow> rows;
        qint64 t = 0;
        for (int i = 0; i < 300; ++i) {
            t += random.bounded(0, 120);
            rows.append(TraceRow{t, QStringLiteral("c%1").arg(random.bounded(3)),
                                 random.bounded(1, 4), i + 2});
        }
        LeakyBucketModel model(spec);
        QHash<QString, qint64> expected;
        qint64 expectedHeld = 0;
        for (const TraceRow& row : rows) {
            const Decision d = model.decide(Request{kStartMs + row.tMs, row.client, row.permits});
            QVERIFY2(d.allowed, "the trace must stay within the burst");
            expected[row.client] += d.delayMs;
            expectedHeld += d.delayMs > 0 ? 1 : 0;
        }
        QVERIFY(expectedHeld > 0);

        const RunSnapshot run = runOnFixture(traceScenario({spec}, rows, AcquireMode::Wait));
        expectExactAccounting(run);
        const LimiterSnapshot& l = run.limiters[0];
        QCOMPARE(l.accepted, qint64(rows.size()));
        QCOMPARE(qint64(l.waited.total), expectedHeld);
        for (const ClientTotals& c : l.clients) {
            QCOMPARE(c.waitedMsTotal, expected.value(c.client));
        }
    }

    // The example: GCRA burst b+1 decides as nginx burst b nodelay (1000 × rate / period_ms is
    // whole), and the counter differs from the exact log. The counts are the models' on the same
    // schedule, and the summary carries them.
    void fourAlgorithmsCompared() {
        Scenario scenario;
        try {
            scenario = loadScenarioFile(
                exampleScenarioPath(QStringLiteral("four-algorithms-compared.json")));
        } catch (const InputError& error) {
            QFAIL(qPrintable(error.message()));
        }
        QCOMPARE(scenario.limiters.size(), 4);
        QCOMPARE(scenario.traffic.mode, AcquireMode::Try);
        QVERIFY(scenario.traffic.clock.isVirtual);
        scenario.traffic.clock.speed = 0;  // same decisions, no waiting
        for (LimiterSpec& spec : scenario.limiters) {
            spec.name = uniqueName(spec.name);  // never the keys of a window left open
        }

        // The models on the same schedule and request draws.
        std::vector<ReferenceModel> models;
        for (const LimiterSpec& spec : scenario.limiters) {
            models.emplace_back(spec);
        }
        const RequestFactory requests(scenario.traffic);
        const qint64 durationUs = qint64(scenario.traffic.durationS * 1e6);
        auto pacer = makePacer(scenario.traffic.shape, durationUs, scenario.traffic.seed);
        QVector<qint64> expected(6, 0);
        QVector<QMap<qint64, qint64>> expectedByBucket(6);  // per pair: bucket -> count
        qint64 sends = 0;
        for (qint64 at = pacer->next(); at != Pacer::kNoMore; at = pacer->next(), ++sends) {
            const RequestFactory::Draw draw = requests.draw(sends);
            const Request request{kStartMs + at / 1000, requests.clientNames()[draw.client],
                                  draw.permits};
            bool allowed[4];
            for (int l = 0; l < 4; ++l) {
                allowed[l] = models[size_t(l)].decide(request).allowed;
            }
            for (int a = 0, p = 0; a < 4; ++a) {
                for (int b = a + 1; b < 4; ++b, ++p) {
                    expected[p] += allowed[a] != allowed[b] ? 1 : 0;
                    if (allowed[a] != allowed[b]) {
                        expectedByBucket[p][at / 1000 / scenario.bucketMs] += 1;
                    }
                }
            }
        }
        const QString& gcra = scenario.limiters[0].name;
        const QString& nginx = scenario.limiters[1].name;
        const QString& counter = scenario.limiters[2].name;
        const QString& log = scenario.limiters[3].name;
        QCOMPARE(expected[0], 0);  // gcra vs nginx, in the models already
        QVERIFY(expected[5] > 0);  // counter vs log

        QCOMPARE(scenario.traffic.clock.startMs, kStartMs);
        const RunSnapshot run = runOnFixture(scenario);
        expectExactAccounting(run);
        QCOMPARE(run.scheduled, sends);
        QVERIFY(run.sameRequests);
        QCOMPARE(run.disagreements.size(), 6);
        for (int p = 0; p < 6; ++p) {
            QCOMPARE(run.disagreements[p].compared, sends);
            QCOMPARE(run.disagreements[p].disagreed, expected[p]);
            // Per time bucket too (the timelines' marks), at the requests' scheduled times.
            const QVector<qint64>& buckets = run.disagreements[p].bucketDisagreed;
            QCOMPARE(buckets.size(), run.limiters[0].bucketAccepted.size());
            for (int b = 0; b < buckets.size(); ++b) {
                QCOMPARE(buckets[b], expectedByBucket[p].value(b));
            }
        }
        QCOMPARE(pair(run, gcra, nginx)->disagreed, 0);
        QVERIFY(pair(run, counter, log)->disagreed > 0);

        const QJsonArray json = summaryJson(run).value(QStringLiteral("disagreements")).toArray();
        QCOMPARE(json.size(), 6);
        const QJsonObject last = json.at(5).toObject();
        QCOMPARE(last.value(QStringLiteral("limiters")).toArray(), (QJsonArray{counter, log}));
        QCOMPARE(last.value(QStringLiteral("disagreed")).toDouble(), double(expected[5]));
        QCOMPARE(last.value(QStringLiteral("compared")).toDouble(), double(sends));
        const QString text = summaryText(run);
        QVERIFY2(text.contains(QStringLiteral("  %1 vs %2: 0 of %3\n").arg(gcra, nginx).arg(sends)),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("  %1 vs %2: %3 of %4\n")
                                   .arg(counter, log)
                                   .arg(expected[5])
                                   .arg(sends)),
                 qPrintable(text));
    }

    // Wait mode gives each limiter its own retries, so the decisions do not pair up: the summary
    // lists no disagreements then (nor with one limiter).
    void noComparisonWithoutSameRequests_data() {
        QTest::addColumn<int>("mode");
        QTest::addColumn<int>("limiters");
        QTest::addColumn<bool>("compared");
        QTest::newRow("try, two limiters") << int(AcquireMode::Try) << 2 << true;
        QTest::newRow("wait, two limiters") << int(AcquireMode::Wait) << 2 << false;
        QTest::newRow("try, one limiter") << int(AcquireMode::Try) << 1 << false;
    }
    void noComparisonWithoutSameRequests() {
        QFETCH(int, mode);
        QFETCH(int, limiters);
        QFETCH(bool, compared);
        QVector<LimiterSpec> specs{leakyBucket(1, 1000, 0, true)};
        if (limiters == 2) {
            LimiterSpec gcra;
            gcra.type = LimiterType::Gcra;
            gcra.name = uniqueName(QStringLiteral("run-gcra"));
            gcra.rate = 1;
            gcra.periodMs = 1000;
            gcra.burst = 1;
            specs.append(gcra);
        }
        QVector<TraceRow> rows;
        for (qint64 t : {0, 0, 400, 1000, 1500, 2600}) {
            rows.append(TraceRow{t, QStringLiteral("a"), 1, 0});
        }
        const RunSnapshot run = runOnFixture(traceScenario(specs, rows, AcquireMode(mode)));
        expectExactAccounting(run);
        const QJsonArray pairs = summaryJson(run).value(QStringLiteral("disagreements")).toArray();
        QCOMPARE(pairs.isEmpty(), !compared);
        QCOMPARE(summaryText(run).contains(QStringLiteral("disagreements")), compared);
        if (compared) {
            // Same burst, same rate: the same decisions (accepted at 0, 1000, 2600).
            QCOMPARE(run.disagreements.size(), 1);
            QCOMPARE(run.disagreements[0].compared, qint64(rows.size()));
            QCOMPARE(run.disagreements[0].disagreed, 0);
            QCOMPARE(run.limiters[0].accepted, 3);
        }
    }
};

QTEST_GUILESS_MAIN(TestAlgorithmRuns)
#include "tst_algorithm_runs.moc"
