// Faults while traffic runs, against a private redis-server this test controls: a paused
// server (DEBUG SLEEP), scripts flushed, every connection cut mid-pipeline, garbage written into
// a limiter's key. After each, every request has exactly one outcome per limiter
// (fired = accepted + rejected + errors) and decisions resume.
#include <QThread>
#include <QtTest>
#include <functional>

#include "redis/local_redis_server.h"
#include "run/scenario_runner.h"
#include "support/run_checks.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

Scenario faultScenario() {
    Scenario s;
    s.name = QStringLiteral("faults");
    LimiterSpec bucket;
    bucket.type = LimiterType::TokenBucket;
    bucket.name = QStringLiteral("faults-tb");
    bucket.rate = 40;
    bucket.intervalMs = 200;
    LimiterSpec sliding;
    sliding.type = LimiterType::SlidingWindow;
    sliding.name = QStringLiteral("faults-sw");
    sliding.rules = {{30, 200}};
    s.limiters = {bucket, sliding};
    s.traffic.shape.type = ShapeSpec::Type::Constant;
    s.traffic.shape.rate = 300;
    s.traffic.durationS = 2.5;
    s.traffic.threads = 2;
    s.traffic.pipeline = 4;
    s.traffic.clients = 3;
    return s;
}

// Runs the scenario, applies `fault` with an admin connection 0.8 s in, and returns the end.
RunSnapshot runWithFault(LocalRedisServer& server,
                         const std::function<void(RedisConnection&)>& fault) {
    return ratelab::test::runWithFault(faultScenario(), server.url(), [&] {
        RedisConnection admin(server.url(), ConnectOptions{std::chrono::milliseconds(2000),
                                                           std::chrono::milliseconds(5000)});
        fault(admin);
    });
}

void expectExact(const RunSnapshot& run) {
    QVERIFY(run.finished);
    QCOMPARE(run.scheduled, 750);
    expectExactAccounting(run);
}

}  // namespace

class TestFaults : public QObject {
    Q_OBJECT

private:
    LocalRedisServer server_;

private slots:
    void initTestCase() {
        server_.setExtraArguments(
            {QStringLiteral("--enable-debug-command"), QStringLiteral("local")});
        server_.start();
    }

    // The server stops answering for 1 s: commands time out (errors), then it answers again.
    void pausedServer() {
        const RunSnapshot run = runWithFault(server_, [](RedisConnection& admin) {
            throwIfError(admin.command({"DEBUG", "SLEEP", "1"}).get(), "DEBUG SLEEP");
        });
        expectExact(run);
        for (const LimiterSnapshot& l : run.limiters) {
            QVERIFY2(l.errors > 0, qPrintable(l.spec.name));
        }
        expectResumed(run);
    }

    // SCRIPT FLUSH mid-run: NOSCRIPT is answered by re-sending the script; nothing fails.
    void scriptsFlushed() {
        const RunSnapshot run = runWithFault(server_, [](RedisConnection& admin) {
            expectStatusOk(admin.command({"SCRIPT", "FLUSH"}).get(), "SCRIPT FLUSH");
            QThread::msleep(200);
            expectStatusOk(admin.command({"SCRIPT", "FLUSH"}).get(), "SCRIPT FLUSH");
        });
        expectExact(run);
        for (const LimiterSnapshot& l : run.limiters) {
            QCOMPARE(l.errors, 0);
        }
        expectResumed(run);
    }

    // Every worker connection is cut (possibly mid-pipeline): the workers reconnect.
    void connectionsCut() {
        const RunSnapshot run = runWithFault(server_, [](RedisConnection& admin) {
            replyInteger(admin.command({"CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"}).get(),
                         "CLIENT KILL");
        });
        expectExact(run);
        expectResumed(run);
    }

    // Someone else writes garbage into the token bucket's value: those decisions are errors
    // naming the limiter, the other limiter is unaffected, no crash; deleting it recovers.
    void garbageInKeys() {
        const RunSnapshot run = runWithFault(server_, [](RedisConnection& admin) {
            admin.command({"SET", "{faults-tb}:value", "garbage"});
            QThread::msleep(500);
            admin.command({"DEL", "{faults-tb}:value"});
        });
        expectExact(run);
        QVERIFY(run.limiters[0].errors > 0);
        QCOMPARE(run.limiters[1].errors, 0);
        expectResumed(run);
    }
};

QTEST_GUILESS_MAIN(TestFaults)
#include "tst_faults.moc"
