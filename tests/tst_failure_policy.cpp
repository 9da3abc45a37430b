// The per-limiter failure policy (`"on_error": "error" | "open" | "closed"`) under real faults,
// against a private redis-server this test starts, pauses, kills and restarts itself: three
// limiters, one per policy, see the same requests. A failed decision is always an error
// (fired = accepted + rejected + errors); "open" also counts it as let through and "closed" as
// refused, apart from accepted and rejected — in the totals, per client and per bucket.
#include <QJsonArray>
#include <QJsonObject>
#include <QThread>
#include <QtTest>

#include "output/summary_json.h"
#include "redis/local_redis_server.h"
#include "redis/redis_error.h"
#include "run/scenario_runner.h"
#include "run/step_session.h"
#include "support/run_checks.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

Q_DECLARE_METATYPE(ratelab::AcquireMode)

namespace {

// One limiter per policy, of different types, in this order: error, open, closed.
QVector<LimiterSpec> policyLimiters() {
    LimiterSpec error;
    error.type = LimiterType::TokenBucket;
    error.name = QStringLiteral("policy-error");
    error.rate = 40;
    error.intervalMs = 200;
    LimiterSpec open;
    open.type = LimiterType::SlidingWindow;
    open.name = QStringLiteral("policy-open");
    open.scope = Scope::PerClient;
    open.rules = {{10, 200}};
    open.onError = FailurePolicy::Open;
    LimiterSpec closed;
    closed.type = LimiterType::FixedWindow;
    closed.name = QStringLiteral("policy-closed");
    closed.rate = 30;
    closed.interval = 200;
    closed.unit = CalendarUnit::Milliseconds;
    closed.timezone = "UTC";
    closed.onError = FailurePolicy::Closed;
    return {error, open, closed};
}

Scenario policyScenario(AcquireMode mode) {
    Scenario s;
    s.name = QStringLiteral("failure policy");
    s.limiters = policyLimiters();
    s.traffic.shape.type = ShapeSpec::Type::Constant;
    s.traffic.shape.rate = 300;
    s.traffic.durationS = 2.5;
    s.traffic.threads = 2;
    s.traffic.pipeline = 4;
    s.traffic.clients = 3;
    s.traffic.mode = mode;
    s.traffic.timeoutMs = mode == AcquireMode::Wait ? 300 : 0;
    return s;
}

// The policy's breakdown of a count of failed decisions: {let through, refused}.
QPair<qint64, qint64> expectedSplit(FailurePolicy policy, qint64 errors) {
    switch (policy) {
        case FailurePolicy::Error:
            return {0, 0};
        case FailurePolicy::Open:
            return {errors, 0};
        case FailurePolicy::Closed:
            return {0, errors};
    }
    return {-1, -1};
}

// Every identity of one limiter: totals, per client, per bucket, and the policy's split of the
// errors in each.
void expectPolicyAccounting(const LimiterSnapshot& l, qint64 scheduled) {
    const char* name = qPrintable(l.spec.name);
    QVERIFY2(l.fired == scheduled, name);
    QVERIFY2(l.fired == l.accepted + l.rejected + l.errors, name);
    const auto split = expectedSplit(l.spec.onError, l.errors);
    QVERIFY2(l.errorsOpen == split.first, name);
    QVERIFY2(l.errorsClosed == split.second, name);

    qint64 clientFired = 0;
    for (const ClientTotals& c : l.clients) {
        QVERIFY2(c.fired == c.accepted + c.rejected + c.errors, name);
        const auto clientSplit = expectedSplit(l.spec.onError, c.errors);
        QVERIFY2(c.errorsOpen == clientSplit.first, name);
        QVERIFY2(c.errorsClosed == clientSplit.second, name);
        clientFired += c.fired;
    }
    QVERIFY2(clientFired == l.fired, name);

    qint64 bucketOutcomes = 0;
    qint64 bucketErrors = 0;
    QCOMPARE(l.bucketErrorsOpen.size(), l.bucketErrors.size());
    QCOMPARE(l.bucketErrorsClosed.size(), l.bucketErrors.size());
    for (int b = 0; b < l.bucketErrors.size(); ++b) {
        bucketOutcomes += l.bucketAccepted[b] + l.bucketRejected[b] + l.bucketErrors[b];
        bucketErrors += l.bucketErrors[b];
        const auto bucketSplit = expectedSplit(l.spec.onError, l.bucketErrors[b]);
        QVERIFY2(l.bucketErrorsOpen[b] == bucketSplit.first, name);
        QVERIFY2(l.bucketErrorsClosed[b] == bucketSplit.second, name);
    }
    QVERIFY2(bucketOutcomes == l.fired, name);
    QVERIFY2(bucketErrors == l.errors, name);
}

// summary.json carries the policy and its split exactly as the snapshot has them.
void expectSummary(const RunSnapshot& run) {
    const QJsonArray limiters = summaryJson(run).value(QStringLiteral("limiters")).toArray();
    QCOMPARE(limiters.size(), run.limiters.size());
    for (int i = 0; i < limiters.size(); ++i) {
        const QJsonObject l = limiters[i].toObject();
        const LimiterSnapshot& s = run.limiters[i];
        QCOMPARE(l.value(QStringLiteral("on_error")).toString(), failurePolicyName(s.spec.onError));
        QCOMPARE(qint64(l.value(QStringLiteral("errors")).toDouble()), s.errors);
        QCOMPARE(qint64(l.value(QStringLiteral("errors_open")).toDouble()), s.errorsOpen);
        QCOMPARE(qint64(l.value(QStringLiteral("errors_closed")).toDouble()), s.errorsClosed);
        QVERIFY(l.value(QStringLiteral("accounting_exact")).toBool());
    }
}

void printFigures(const char* fault, const RunSnapshot& run) {
    for (const LimiterSnapshot& l : run.limiters) {
        qInfo(
            "%s: %s (on_error %s): fired %lld = accepted %lld + rejected %lld + errors %lld "
            "(let through %lld, refused %lld)",
            fault, qPrintable(l.spec.name), qPrintable(failurePolicyName(l.spec.onError)), l.fired,
            l.accepted, l.rejected, l.errors, l.errorsOpen, l.errorsClosed);
    }
}

}  // namespace

class TestFailurePolicy : public QObject {
    Q_OBJECT

private:
    LocalRedisServer server_;

    RunSnapshot runWithFault(AcquireMode mode, const std::function<void()>& fault) {
        return ratelab::test::runWithFault(policyScenario(mode), server_.url(), fault);
    }

private slots:
    void initTestCase() {
        server_.setExtraArguments(
            {QStringLiteral("--enable-debug-command"), QStringLiteral("local")});
        server_.start();
    }

    // Each fault mid-run, 0.8 s into a 2.5 s run at 300 req/s (2 threads, pipelines of 4, 300 ms
    // command timeout): "paused" is DEBUG SLEEP 1 (the timed-out decisions fail), "killed" is
    // SIGKILL and an empty server on the same socket 0.5 s later (workers reconnect with
    // backoff). In wait mode a failed try is final as well: no retry after a failure.
    void faults_data() {
        QTest::addColumn<QString>("fault");
        QTest::addColumn<AcquireMode>("mode");
        QTest::newRow("paused, try") << QStringLiteral("paused") << AcquireMode::Try;
        QTest::newRow("killed, try") << QStringLiteral("killed") << AcquireMode::Try;
        QTest::newRow("killed, wait") << QStringLiteral("killed") << AcquireMode::Wait;
    }
    void faults() {
        QFETCH(QString, fault);
        QFETCH(AcquireMode, mode);
        const RunSnapshot run = runWithFault(mode, [this, fault] {
            if (fault == QLatin1String("paused")) {
                RedisConnection admin(server_.url(),
                                      ConnectOptions{std::chrono::milliseconds(2000),
                                                     std::chrono::milliseconds(5000)});
                throwIfError(admin.command({"DEBUG", "SLEEP", "1"}).get(), "DEBUG SLEEP");
            } else {
                server_.crash();
                QThread::msleep(500);
                server_.start();
            }
        });
        printFigures(QTest::currentDataTag(), run);
        QVERIFY(run.finished);
        QCOMPARE(run.scheduled, 750);
        QCOMPARE(run.limiters.size(), 3);
        for (const LimiterSnapshot& l : run.limiters) {
            QVERIFY2(l.errors > 0, qPrintable(l.spec.name));
            expectPolicyAccounting(l, run.scheduled);
            if (QTest::currentTestFailed()) {
                return;
            }
        }
        QCOMPARE(run.limiters[0].spec.onError, FailurePolicy::Error);
        QCOMPARE(run.limiters[0].errorsOpen + run.limiters[0].errorsClosed, 0);
        QCOMPARE(run.limiters[1].errorsOpen, run.limiters[1].errors);
        QCOMPARE(run.limiters[2].errorsClosed, run.limiters[2].errors);
        expectSummary(run);
        expectResumed(run);
    }

    // Teaching mode, one request at a time, with exact counts: 4 requests with Redis up, 3
    // with it killed, then, Redis back, every limiter decides again at the very next step (a
    // step session reconnects on every step, without backoff). Each failed step says why and
    // what the policy made of it.
    void stepSessionExact() {
        Scenario scenario = policyScenario(AcquireMode::Try);
        scenario.traffic.clients = 1;
        scenario.traffic.clock = ClockSpec{true, 1704067200000, 0};  // virtual
        StepSession session(scenario, server_.url());
        qint64 steps = 0;
        qint64 failed[3] = {0, 0, 0};
        QStringList unexplained;  // failures whose message does not name the policy's effect
        // One step; returns how many of the three decisions failed.
        const auto step = [&]() {
            const StepSession::Step s = session.next();
            ++steps;
            int failures = 0;
            for (int l = 0; l < 3 && l < s.errors.size(); ++l) {
                if (s.errors[l].isEmpty()) {
                    continue;
                }
                ++failed[l];
                ++failures;
                const QString& why = s.errors[l];
                const bool explained =
                    l == 0   ? !why.contains(QStringLiteral("on_error"))
                    : l == 1 ? why.endsWith(QStringLiteral("; let through by on_error \"open\""))
                             : why.endsWith(QStringLiteral("; refused by on_error \"closed\""));
                if (!explained) {
                    unexplained << why;
                }
            }
            return failures;
        };
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(step(), 0);
        }
        server_.crash();
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(step(), 3);
        }
        server_.start();
        QCOMPARE(step(), 0);
        QCOMPARE(step(), 0);
        QVERIFY2(unexplained.isEmpty(), qPrintable(unexplained.join(QLatin1Char('\n'))));
        if (QTest::currentTestFailed()) {
            return;
        }
        qInfo("%lld steps; failed decisions per limiter: %lld, %lld, %lld", steps, failed[0],
              failed[1], failed[2]);

        const RunSnapshot run = session.snapshot();
        QCOMPARE(run.limiters.size(), 3);
        for (int l = 0; l < 3; ++l) {
            const LimiterSnapshot& s = run.limiters[l];
            QCOMPARE(failed[l], 3);
            QCOMPARE(steps, 9);
            QCOMPARE(s.fired, steps);
            QCOMPARE(s.errors, failed[l]);
            QCOMPARE(s.accepted + s.rejected, steps - failed[l]);
            QCOMPARE(s.clients.size(), 1);
            QCOMPARE(s.clients[0].errors, failed[l]);
            expectPolicyAccounting(s, steps);
        }
        QCOMPARE(run.limiters[0].errorsOpen, 0);
        QCOMPARE(run.limiters[0].errorsClosed, 0);
        QCOMPARE(run.limiters[1].errorsOpen, failed[1]);
        QCOMPARE(run.limiters[1].errorsClosed, 0);
        QCOMPARE(run.limiters[1].clients[0].errorsOpen, failed[1]);
        QCOMPARE(run.limiters[2].errorsOpen, 0);
        QCOMPARE(run.limiters[2].errorsClosed, failed[2]);
        QCOMPARE(run.limiters[2].clients[0].errorsClosed, failed[2]);
    }
};

QTEST_GUILESS_MAIN(TestFailurePolicy)
#include "tst_failure_policy.moc"
