#include "support/run_checks.h"

#include "limiters/limiter.h"
#include "run/scenario_runner.h"
#include "support/test_redis.h"

#include <QThread>
#include <QtTest>
#include <algorithm>

namespace ratelab::test {

RunSnapshot runOnFixture(const Scenario& scenario) {
    ScenarioRunner runner(scenario, fixtureUrl());
    runner.start();
    runner.wait();
    RunSnapshot snapshot = runner.snapshot();
    auto router = routeFixture();
    for (const LimiterSpec& spec : scenario.limiters) {
        makeLimiter(spec)->reset(*router);
    }
    return snapshot;
}

RunSnapshot runWithFault(const Scenario& scenario, const RedisUrl& url,
                         const std::function<void()>& fault) {
    ConnectOptions options;
    options.connectTimeout = std::chrono::milliseconds(300);
    options.commandTimeout = std::chrono::milliseconds(300);
    ScenarioRunner runner(scenario, url, options);
    runner.start();
    QThread::msleep(800);
    fault();
    runner.wait();
    return runner.snapshot();
}

void expectSameDecisions(const LimiterSnapshot& want, const LimiterSnapshot& got) {
    QCOMPARE(got.fired, want.fired);
    QCOMPARE(got.accepted, want.accepted);
    QCOMPARE(got.rejected, want.rejected);
    QCOMPARE(got.bucketAccepted, want.bucketAccepted);
    QCOMPARE(got.bucketRejected, want.bucketRejected);
    QCOMPARE(got.redisCalls, want.redisCalls);
    QCOMPARE(got.gateways.size(), want.gateways.size());
    for (int g = 0; g < want.gateways.size(); ++g) {
        QCOMPARE(got.gateways[g].decisions, want.gateways[g].decisions);
        QCOMPARE(got.gateways[g].redisCalls, want.gateways[g].redisCalls);
    }
    QCOMPARE(got.leases.released, want.leases.released);
    QCOMPARE(got.leases.lateReleases, want.leases.lateReleases);
    QCOMPARE(got.leases.leaked, want.leases.leaked);
    QCOMPARE(got.leases.expired, want.leases.expired);
}

void expectExactAccounting(const RunSnapshot& run) {
    for (const LimiterSnapshot& l : run.limiters) {
        const QByteArray name = l.spec.name.toUtf8();
        QVERIFY2(l.fired == run.scheduled, name.constData());
        QVERIFY2(l.fired == l.accepted + l.rejected + l.errors, name.constData());
        qint64 clientsFired = 0;
        for (const ClientTotals& c : l.clients) {
            QVERIFY2(c.fired == c.accepted + c.rejected + c.errors, name.constData());
            clientsFired += c.fired;
        }
        QVERIFY2(clientsFired == l.fired, name.constData());
        qint64 inBuckets = 0;
        for (int b = 0; b < l.bucketAccepted.size(); ++b) {
            inBuckets += l.bucketAccepted[b] + l.bucketRejected[b] + l.bucketErrors[b];
        }
        QVERIFY2(inBuckets == l.fired, name.constData());
    }
}

void expectResumed(const RunSnapshot& run, int buckets) {
    for (const LimiterSnapshot& l : run.limiters) {
        qint64 late = 0;
        for (int b = std::max(0, int(l.bucketAccepted.size()) - buckets);
             b < l.bucketAccepted.size(); ++b) {
            late += l.bucketAccepted[b] + l.bucketRejected[b];
        }
        QVERIFY2(late > 0, qPrintable(l.spec.name + QStringLiteral(": no decisions at the end")));
    }
}

}  // namespace ratelab::test
