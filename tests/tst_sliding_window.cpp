// Multi-rule sliding-window log on a real Redis against the reference model.
#include <QtTest>

#include "input_error.h"

#include "limiters/sliding_window_limiter.h"
#include "support/test_redis.h"
#include "support/trace_generator.h"

using namespace ratelab;
using namespace ratelab::test;

using Rules = QVector<SlidingRule>;
Q_DECLARE_METATYPE(Rules)

class TestSlidingWindow : public QObject {
    Q_OBJECT

private:
    static LimiterSpec spec(Scope scope, const Rules& rules) {
        LimiterSpec s;
        s.type = LimiterType::SlidingWindow;
        s.name = uniqueName(QStringLiteral("sw"));
        s.scope = scope;
        s.rules = rules;
        return s;
    }

private slots:
    void matchesModel_data() {
        QTest::addColumn<int>("scope");
        QTest::addColumn<Rules>("rules");
        QTest::addColumn<int>("clients");
        QTest::addColumn<qint64>("maxPermits");
        QTest::addColumn<qint64>("edgeMs");
        QTest::addColumn<qint64>("meanGapMs");
        QTest::addColumn<quint32>("seed");
        const int g = int(Scope::Global);
        const int pc = int(Scope::PerClient);
        QTest::newRow("one rule 5/1s")
            << g << Rules{{5, 1000}} << 1 << 1LL << 1000LL << 80LL << 21u;
        QTest::newRow("login 5/1s + 20/60s")
            << pc << Rules{{5, 1000}, {20, 60000}} << 3 << 2LL << 1000LL << 60LL << 22u;
        QTest::newRow("three rules, permits<=4")
            << g << Rules{{4, 100}, {10, 1000}, {30, 10000}} << 1 << 4LL << 100LL << 20LL << 23u;
        QTest::newRow("1/50ms per client")
            << pc << Rules{{1, 50}} << 5 << 1LL << 50LL << 5LL << 24u;
        QTest::newRow("long window shorter limit")
            << g << Rules{{10, 200}, {3, 5000}} << 1 << 2LL << 5000LL << 500LL << 25u;
    }
    void matchesModel() {
        QFETCH(int, scope);
        QFETCH(Rules, rules);
        QFETCH(int, clients);
        QFETCH(qint64, maxPermits);
        QFETCH(qint64, edgeMs);
        QFETCH(qint64, meanGapMs);
        QFETCH(quint32, seed);
        TraceShape shape;
        shape.seed = seed;
        shape.count = 3000;
        shape.clients = clients;
        shape.maxPermits = maxPermits;
        shape.edgeMs = edgeMs;
        shape.meanGapMs = meanGapMs;
        expectMatchesModel(spec(Scope(scope), rules), generateTrace(shape));
    }

    // docs/architecture.md: k-th oldest grant in the window, largest over the violated rules.
    void exactRetryAfter() {
        ScopedLimiter limiter(spec(Scope::Global, {{3, 1000}, {4, 10000}}));
        RedisConnection& c = limiter.connection();
        auto decide = [&](qint64 t, qint64 permits) {
            return test::decide(c, *limiter, Request{t, QString(), permits});
        };
        QVERIFY(decide(0, 2).allowed);
        QVERIFY(decide(500, 1).allowed);
        Decision d = decide(600, 1);  // rule 1: 3 + 1 > 3, k = 1 -> the t=0 grant: 0+1000-600
        QVERIFY(!d.allowed);
        QCOMPARE(d.retryAfterMs, 400);
        QCOMPARE(d.remaining, 0);
        d = decide(1000, 1);  // t=0 left rule 1's window (1000 - 1000 is not inside)
        QVERIFY(d.allowed);
        QCOMPARE(d.remaining, 0);  // rule 2 now holds 4 of 4
        d = decide(1001, 1);       // rule 2: k = 1 -> 0 + 10000 - 1001
        QVERIFY(!d.allowed);
        QCOMPARE(d.retryAfterMs, 10000 - 1001);
        QCOMPARE(decide(1002, 5).retryAfterMs, -1);
    }

    // Many grants in one millisecond stay distinct members; old ones are trimmed once they are
    // older than the longest window plus the grace lagging workers get; the TTL follows the
    // longest window.
    void membersTrimAndTtl() {
        const LimiterSpec s = spec(Scope::Global, {{100, 1000}, {500, 60000}});
        ScopedLimiter limiter(s);
        RedisConnection& c = limiter.connection();
        for (int i = 0; i < 50; ++i) {
            QVERIFY(test::decide(c, *limiter, Request{7, QString(), 2}).allowed);
        }
        const std::string key = "{" + s.name.toStdString() + "}:log";
        QCOMPARE(replyInteger(c.command({"ZCARD", key}).get(), "ZCARD"), 100LL);
        const long long ttl = replyInteger(c.command({"PTTL", key}).get(), "PTTL");
        QVERIFY2(ttl > 60000 && ttl <= 2 * (60000 + kStateGraceMs),
                 qPrintable(QString::number(ttl)));
        QVERIFY(
            test::decide(c, *limiter, Request{7 + 60000 + kStateGraceMs, QString(), 1}).allowed);
        QCOMPARE(replyInteger(c.command({"ZCARD", key}).get(), "ZCARD"), 1LL);
    }

    // A member is the grant's time in 16 characters and 12 random hex digits; a refusal reads
    // the time of the grant it waits for from its member. Two grants of one millisecond drawing
    // the same digits are still two permits.
    void sameMemberInOneMillisecond() {
        const LimiterSpec s = spec(Scope::Global, {{2, 1000}});
        ScopedLimiter limiter(s);
        RedisConnection& c = limiter.connection();
        for (int i = 0; i < 2; ++i) {
            ScriptCall call = limiter->prepare(Request{5000, QString(), 1});
            QCOMPARE(call.args[2].substr(0, 16), std::string("0000000000005000"));
            QCOMPARE(call.args[2].size(), size_t(28));
            call.args[2] = "0000000000005000abcdefabcdef";
            RedisReply reply = limiter->script().run(c, call.keys, call.args);
            QVERIFY(limiter->parseReply(ReplyView(reply.get()), call).allowed);
        }
        const std::string key = "{" + s.name.toStdString() + "}:log";
        QCOMPARE(replyInteger(c.command({"ZCARD", key}).get(), "ZCARD"), 2LL);
        const Decision d = test::decide(c, *limiter, Request{5400, QString(), 1});
        QVERIFY(!d.allowed);
        QCOMPARE(d.retryAfterMs, 600);
        QCOMPARE(d.remaining, 0);
    }

    // A log an earlier ratelab wrote holds members without a time ("<16 hex digits>" and
    // "<16 hex digits>:<i>"): a refusal waiting for one reads its score instead.
    void membersWithoutATime() {
        const LimiterSpec s = spec(Scope::Global, {{3, 1000}});
        ScopedLimiter limiter(s);
        RedisConnection& c = limiter.connection();
        const std::string key = "{" + s.name.toStdString() + "}:log";
        c.command({"ZADD", key, "5000", "0123456789abcdef", "5100", "0123456789abcdee:1", "5100",
                   "0123456789abcdee:2"});
        Decision d = test::decide(c, *limiter, Request{5400, QString(), 1});
        QVERIFY(!d.allowed);
        QCOMPARE(d.retryAfterMs, 600);  // the 5000 grant leaves the window at 6000
        d = test::decide(c, *limiter, Request{6000, QString(), 1});
        QVERIFY(d.allowed);
        d = test::decide(c, *limiter, Request{6050, QString(), 1});
        QVERIFY(!d.allowed);
        QCOMPARE(d.retryAfterMs, 50);  // "...:1" at 5100
    }

    // Redis keeps a small zset as a listpack, which every ZCOUNT and ZADD scans end to end (a log
    // of 30 grants cost a decision more than one of 30,000). A new log's first grant makes it a
    // skiplist; later grants, and grants after a trim, keep it one, and the long member counts as
    // one permit like any other.
    void logIsASkiplist_data() {
        QTest::addColumn<qint64>("permits");
        QTest::newRow("one permit") << qint64(1);
        QTest::newRow("three permits") << qint64(3);
    }
    void logIsASkiplist() {
        QFETCH(qint64, permits);
        const LimiterSpec s = spec(Scope::Global, {{30, 1000}});
        ScopedLimiter limiter(s);
        RedisConnection& c = limiter.connection();
        const std::string key = "{" + s.name.toStdString() + "}:log";
        const auto encoding = [&] {
            RedisReply r = c.command({"OBJECT", "ENCODING", key});
            return QByteArray(r->str, int(r->len));
        };
        qint64 now = 1000;
        for (int i = 0; i < 3; ++i) {
            const Decision d = test::decide(c, *limiter, Request{now + i, QString(), permits});
            QVERIFY(d.allowed);
            QCOMPARE(d.remaining, 30 - (i + 1) * permits);
            QCOMPARE(encoding(), QByteArray("skiplist"));
        }
        QCOMPARE(replyInteger(c.command({"ZCARD", key}).get(), "ZCARD"), 3 * permits);
        // Past the window and the grace: this grant trims the three and starts over.
        now += 1000 + kStateGraceMs + 10;
        const Decision d = test::decide(c, *limiter, Request{now, QString(), permits});
        QVERIFY(d.allowed);
        QCOMPARE(d.remaining, 30 - permits);
        QCOMPARE(replyInteger(c.command({"ZCARD", key}).get(), "ZCARD"), permits);
        QCOMPARE(encoding(), QByteArray("skiplist"));
    }

    // A request's permits are bounded (each is a member), so one decision's cost is bounded; above
    // the bound the engine refuses before Redis sees it.
    void permitsPerRequestBounded_data() {
        QTest::addColumn<qint64>("limit");
        QTest::addColumn<qint64>("permits");
        QTest::addColumn<bool>("refused");
        QTest::newRow("1,000,000 of 1,000,000") << qint64(1'000'000) << qint64(1'000'000) << true;
        QTest::newRow("one above the bound")
            << qint64(1'000'000) << kMaxSlidingWindowPermits + 1 << true;
        QTest::newRow("the bound") << qint64(15'000) << kMaxSlidingWindowPermits << false;
        QTest::newRow("the bound, limit too small")
            << qint64(5) << kMaxSlidingWindowPermits << false;
    }
    void permitsPerRequestBounded() {
        QFETCH(qint64, limit);
        QFETCH(qint64, permits);
        QFETCH(bool, refused);
        const LimiterSpec s = spec(Scope::Global, {{limit, 1000}});
        ScopedLimiter limiter(s);
        RedisConnection& c = limiter.connection();
        const std::string key = "{" + s.name.toStdString() + "}:log";
        if (refused) {
            QVERIFY_THROWS_EXCEPTION(InputError,
                                     test::decide(c, *limiter, Request{5000, QString(), permits}));
            QCOMPARE(replyInteger(c.command({"EXISTS", key}).get(), "EXISTS"), 0LL);
            return;
        }
        const Decision d = test::decide(c, *limiter, Request{5000, QString(), permits});
        QCOMPARE(d.allowed, permits <= limit);
        QCOMPARE(d.retryAfterMs, permits <= limit ? 0 : -1);
        QCOMPARE(replyInteger(c.command({"ZCARD", key}).get(), "ZCARD"),
                 permits <= limit ? permits : 0);
        if (permits <= limit) {
            QCOMPARE(d.remaining, limit - permits);
            QCOMPARE(test::decide(c, *limiter, Request{5001, QString(), limit - permits + 1})
                         .retryAfterMs,
                     999);  // the k-th oldest permit is one of the big grant's
        }
    }
};

QTEST_GUILESS_MAIN(TestSlidingWindow)
#include "tst_sliding_window.moc"
