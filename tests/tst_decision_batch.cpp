// traffic/decision_batch: the one request loop of the workers and the bench, against a private
// redis-server this test controls (scripts flushed, the server stopped). A pipelined batch
// decides as the same requests one at a time would; NOSCRIPT and the fixed window's "retime"
// answer (time: redis), also one after the other, are sent again; failures end with their
// cause, and every decision has its reply time.
#include <QtTest>
#include <atomic>
#include <memory>

#include "redis/local_redis_server.h"
#include "redis/redis_error.h"
#include "redis/redis_router.h"
#include "support/fake_redis_server.h"
#include "support/limiter_spec_documents.h"
#include "support/test_redis.h"
#include "traffic/decision_batch.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

constexpr qint64 kHourMs = 3'600'000;
constexpr qint64 kNowMs = 1'800'000'000'000;  // a fixed "now" for both sides of a comparison

LimiterSpec threePerSecond(LimiterType type, const QString& name) {
    switch (type) {
        case LimiterType::TokenBucket:
            return tokenBucket(name, Scope::PerClient, 3, 1000);
        case LimiterType::FixedWindow:
            return fixedWindow(name, Scope::PerClient, 3, 1, CalendarUnit::Seconds);
        case LimiterType::SlidingWindow:
            return slidingWindow(name, Scope::PerClient, {SlidingRule{3, 1000}});
        case LimiterType::Gcra:
            return gcra(name, Scope::PerClient, 3, 1000, 3);
        case LimiterType::SlidingCounter:
            return slidingCounter(name, Scope::PerClient, 3, 1000);
        case LimiterType::LeakyBucket:
            return leakyBucket(name, Scope::PerClient, 3, 1000, 2, false);
        case LimiterType::Concurrency: {
            LimiterSpec s;
            s.type = type;
            s.name = name;
            s.scope = Scope::PerClient;
            s.limit = 3;
            s.leaseMs = 1000;
            return s;
        }
        case LimiterType::Script:  // not among this test's types
            break;
    }
    return {};
}

qint64 redisTimeMs(RedisRouter& router, int slot) {
    RedisReply reply = router.command(slot, {"TIME"});
    return std::stoll(reply->element[0]->str) * 1000 + std::stoll(reply->element[1]->str) / 1000;
}

// A ReplyClock that counts its reads: 1, 2, 3, ...
DecisionBatch::ReplyClock countingClock(std::shared_ptr<qint64> reads) {
    return [reads] { return ++*reads; };
}

}  // namespace

class TestDecisionBatch : public QObject {
    Q_OBJECT

    LocalRedisServer server_;
    std::unique_ptr<RedisRouter> router_;

    RedisConnection& admin(const Limiter& limiter) {
        return router_->connectionForSlot(limiter.slot());
    }

private slots:
    void initTestCase() {
        server_.start();
        router_ = std::make_unique<RedisRouter>(server_.url());
    }

    // Ten requests of two clients, pipelined, decide as they do one at a time on a twin
    // limiter at the same time; each reply is timed as it is read, in order.
    void decidesAsOneAtATime_data() {
        QTest::addColumn<int>("type");
        QTest::newRow("token bucket") << int(LimiterType::TokenBucket);
        QTest::newRow("fixed window") << int(LimiterType::FixedWindow);
        QTest::newRow("sliding window") << int(LimiterType::SlidingWindow);
        QTest::newRow("gcra") << int(LimiterType::Gcra);
        QTest::newRow("sliding counter") << int(LimiterType::SlidingCounter);
        QTest::newRow("leaky bucket") << int(LimiterType::LeakyBucket);
        QTest::newRow("concurrency") << int(LimiterType::Concurrency);
    }
    void decidesAsOneAtATime() {
        QFETCH(int, type);
        const auto batched =
            makeLimiter(threePerSecond(LimiterType(type), uniqueName(QStringLiteral("batch"))));
        const auto alone =
            makeLimiter(threePerSecond(LimiterType(type), uniqueName(QStringLiteral("alone"))));
        // Loaded first, as the bench does: no reply is NOSCRIPT (retried, timed again).
        QCOMPARE(admin(*batched).command({"SCRIPT", "LOAD", batched->script().source()})->type,
                 REDIS_REPLY_STRING);
        DecisionBatch batch;
        for (int i = 0; i < 10; ++i) {
            batch.add(*router_, *batched, Request{kNowMs + i, QStringLiteral("c%1").arg(i % 2)});
        }
        auto reads = std::make_shared<qint64>(0);
        batch.run(*router_, std::chrono::seconds(5), countingClock(reads));
        QCOMPARE(batch.size(), size_t(10));
        for (int i = 0; i < 10; ++i) {
            const Decision expected = test::decide(
                *router_, *alone, Request{kNowMs + i, QStringLiteral("c%1").arg(i % 2)});
            const DecisionBatch::Result& got = batch.result(size_t(i));
            QVERIFY2(got.decided, qPrintable(errorCauseName(got.cause)));
            QCOMPARE(got.decision.allowed, expected.allowed);
            QCOMPARE(got.decision.remaining, expected.remaining);
            QCOMPARE(got.decision.retryAfterMs, expected.retryAfterMs);
            QCOMPARE(got.decision.delayMs, expected.delayMs);
            QCOMPARE(got.decision.atMs, expected.atMs);
            QCOMPARE(got.replyTime, qint64(i + 1));
            QCOMPARE(got.node, 0);
        }
        QCOMPARE(*reads, qint64(10));  // one read per reply, none at the end: nothing failed
        batched->reset(admin(*batched));
        alone->reset(admin(*alone));
    }

    // What must be sent again is: NOSCRIPT after SCRIPT FLUSH, the fixed window's "retime"
    // (time: redis, a client clock hours behind Redis's), and both in turn (the script re-sent
    // with EVAL answers "retime"). Each decides once, at Redis's time where it reads it. The
    // work given to run() happens once, after sending.
    void retriesWhatMustBeRetried_data() {
        QTest::addColumn<bool>("flush");
        QTest::addColumn<qint64>("clientBehindMs");
        QTest::newRow("NOSCRIPT") << true << 0LL;
        QTest::newRow("retime") << false << 3 * kHourMs;
        QTest::newRow("NOSCRIPT, then retime") << true << 3 * kHourMs;
    }
    void retriesWhatMustBeRetried() {
        QFETCH(bool, flush);
        QFETCH(qint64, clientBehindMs);
        LimiterSpec spec = fixedWindow(uniqueName(QStringLiteral("retry")), Scope::Global, 100, 1,
                                       CalendarUnit::Hours, "UTC");
        spec.time = TimeSource::Redis;
        const auto limiter = makeLimiter(spec);
        const auto other =
            makeLimiter(threePerSecond(LimiterType::Gcra, uniqueName(QStringLiteral("other"))));
        if (flush) {
            QCOMPARE(admin(*limiter).command({"SCRIPT", "FLUSH"})->type, REDIS_REPLY_STATUS);
        }
        const qint64 before = redisTimeMs(*router_, limiter->slot());
        const qint64 clientNow = QDateTime::currentMSecsSinceEpoch() - clientBehindMs;
        DecisionBatch batch;
        batch.add(*router_, *limiter, Request{clientNow, QStringLiteral("c")});
        batch.add(*router_, *other, Request{clientNow, QStringLiteral("c")});
        batch.add(*router_, *limiter, Request{clientNow, QStringLiteral("c")});
        int whileSent = 0;
        batch.run(*router_, std::chrono::seconds(5), {}, [&] { ++whileSent; });
        const qint64 after = redisTimeMs(*router_, limiter->slot());
        QCOMPARE(whileSent, 1);
        for (size_t i = 0; i < batch.size(); ++i) {
            QVERIFY2(batch.result(i).decided, qPrintable(errorCauseName(batch.result(i).cause)));
            QVERIFY(batch.result(i).decision.allowed);
        }
        QCOMPARE(batch.result(2).decision.remaining, qint64(98));  // both counted, in one window
        for (size_t i : {size_t(0), size_t(2)}) {
            const qint64 at = batch.result(i).decision.atMs;
            QVERIFY2(at >= before && at <= after, qPrintable(QString::number(at - before)));
        }
        QCOMPARE(batch.result(1).decision.atMs, clientNow);
        limiter->reset(admin(*limiter));
        other->reset(admin(*other));
    }

    // The bench's pattern: the next batch is prepared while the current one is in flight.
    void preparesTheNextWhileSent() {
        const auto limiter =
            makeLimiter(threePerSecond(LimiterType::TokenBucket, uniqueName(QStringLiteral("n"))));
        DecisionBatch first;
        DecisionBatch second;
        for (int i = 0; i < 2; ++i) {
            first.add(*router_, *limiter, Request{kNowMs, QStringLiteral("c")});
        }
        first.run(*router_, std::chrono::seconds(5), {}, [&] {
            for (int i = 0; i < 2; ++i) {
                second.add(*router_, *limiter, Request{kNowMs, QStringLiteral("c")});
            }
        });
        second.run(*router_, std::chrono::seconds(5));
        QCOMPARE(first.result(1).decision.remaining, qint64(1));
        QVERIFY(second.result(0).decision.allowed);
        QVERIFY(!second.result(1).decision.allowed);
        second.clear();
        QVERIFY(second.empty());
        limiter->reset(admin(*limiter));
    }

    // A reply that is no decision fails that decision only, with the reply's cause.
    void errorReplyFailsItsDecisionOnly() {
        const LimiterSpec spec =
            tokenBucket(uniqueName(QStringLiteral("garbage")), Scope::Global, 3, 1000);
        const auto broken = makeLimiter(spec);
        const auto fine =
            makeLimiter(threePerSecond(LimiterType::Gcra, uniqueName(QStringLiteral("fine"))));
        const std::string valueKey = broken->hashTag() + ":value";
        QCOMPARE(admin(*broken).command({"LPUSH", valueKey, "x"})->type, REDIS_REPLY_INTEGER);
        DecisionBatch batch;
        batch.add(*router_, *fine, Request{kNowMs, QStringLiteral("c")});
        batch.add(*router_, *broken, Request{kNowMs, QStringLiteral("c")});
        batch.add(*router_, *fine, Request{kNowMs, QStringLiteral("c")});
        auto reads = std::make_shared<qint64>(0);
        batch.run(*router_, std::chrono::seconds(5), countingClock(reads));
        QVERIFY(batch.result(0).decided);
        QVERIFY(!batch.result(1).decided);
        QCOMPARE(errorCauseName(batch.result(1).cause), QStringLiteral("WRONGTYPE"));
        QVERIFY(batch.result(2).decided);
        QCOMPARE(batch.result(1).replyTime, qint64(4));  // failed: when the batch ended
        broken->reset(admin(*broken));
        fine->reset(admin(*fine));
    }

    // A server that never answers: every decision sent is an unknown outcome once the batch's
    // deadline passes, timed at the batch's end.
    void deadlineLeavesTheOutcomeUnknown() {
        FakeRedisServer fake(&FakeRedisServer::stallScripts);
        RedisRouter router(RedisUrl::parse(fake.url()));
        const auto limiter =
            makeLimiter(threePerSecond(LimiterType::TokenBucket, QStringLiteral("stalled")));
        DecisionBatch batch;
        for (int i = 0; i < 3; ++i) {
            batch.add(router, *limiter, Request{kNowMs, QStringLiteral("c")});
        }
        auto reads = std::make_shared<qint64>(0);
        batch.run(router, std::chrono::milliseconds(300), countingClock(reads));
        for (size_t i = 0; i < batch.size(); ++i) {
            QVERIFY(!batch.result(i).decided);
            QCOMPARE(batch.result(i).cause, ErrorCause::UnknownOutcome);
            QCOMPARE(batch.result(i).replyTime, qint64(1));
        }
    }

    // NOSCRIPT for the first request, and the next on the same connection ran (another client
    // loaded the script in between): sent again, the first would be decided after it. On the
    // same key it fails instead (it changed nothing); on another key it is sent again.
    void noScriptNeverReordersAKey_data() {
        QTest::addColumn<QString>("secondClient");
        QTest::addColumn<bool>("firstDecided");
        QTest::newRow("the same key") << QStringLiteral("c") << false;
        QTest::newRow("another key") << QStringLiteral("d") << true;
    }
    void noScriptNeverReordersAKey() {
        QFETCH(QString, secondClient);
        QFETCH(bool, firstDecided);
        auto scripts = std::make_shared<std::atomic<int>>(0);
        FakeRedisServer fake([scripts](const FakeRedisServer::Command& command) {
            if (command.empty() || (command[0] != "EVALSHA" && command[0] != "EVAL")) {
                return FakeRedisServer::stallScripts(command);
            }
            return std::optional<std::string>(
                ++*scripts == 1 ? "-NOSCRIPT No matching script. Please use EVAL.\r\n"
                                : "*2\r\n:1\r\n:0\r\n");
        });
        RedisRouter router(RedisUrl::parse(fake.url()));
        const LimiterSpec spec = parseLimiterSpecJson(R"({"type": "script", "name": "s",
            "scope": "per_client", "script": {"inline": "return {1, 0}"},
            "keys": ["{{s}}:{client}"], "reply": {"allowed": "1", "index": 0}})");
        const auto limiter = makeLimiter(spec);
        DecisionBatch batch;
        batch.add(router, *limiter, Request{kNowMs, QStringLiteral("c")});
        batch.add(router, *limiter, Request{kNowMs, secondClient});
        batch.run(router, std::chrono::seconds(5), {});
        QVERIFY(batch.result(1).decided);
        QCOMPARE(batch.result(0).decided, firstDecided);
        if (!firstDecided) {
            QCOMPARE(batch.result(0).cause, ErrorCause::Noscript);
            QCOMPARE(scripts->load(), 2);  // never sent again
        }
    }

    // A server that went away: the next batch fails without an answer; the one after it is
    // never sent (the router cannot connect), so it fails with the connection's cause.
    void unreachableNodeIsNotAnUnknownOutcome() {
        LocalRedisServer gone;
        gone.start();
        RedisRouter router(gone.url());
        const auto limiter =
            makeLimiter(threePerSecond(LimiterType::TokenBucket, QStringLiteral("gone")));
        gone.stop();
        DecisionBatch batch;
        for (int round = 0; round < 2; ++round) {
            batch.clear();
            batch.add(router, *limiter, Request{kNowMs, QStringLiteral("c")});
            batch.run(router, std::chrono::seconds(2));
            QVERIFY(!batch.result(0).decided);
        }
        QCOMPARE(batch.result(0).cause, ErrorCause::NoSuchSocket);
    }
};

QTEST_GUILESS_MAIN(TestDecisionBatch)
#include "tst_decision_batch.moc"
