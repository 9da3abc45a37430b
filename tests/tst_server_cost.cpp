// Redis's own cost (redis/server_cost.h): INFO commandstats parsing, and the figures read from
// the fixture server. No timing assertions: only that the figures exist and move the right way.
#include <QtTest>

#include "limiters/limiter_cost.h"
#include "redis/redis_router.h"
#include "redis/server_cost.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

class TestServerCost : public QObject {
    Q_OBJECT

private:
    static LimiterSpec spec(LimiterType type) {
        LimiterSpec s;
        s.type = type;
        s.name = uniqueName(QStringLiteral("cost"));
        s.rate = 100000;
        s.intervalMs = 60000;
        s.interval = 1;
        s.unit = CalendarUnit::Hours;
        s.timezone = "UTC";
        s.rules = {{100000, 60000}, {100000, 1000}};
        return s;
    }

    static KeyMemory memoryOf(ScopedLimiter& limiter) {
        std::string refusal;
        const std::optional<KeyMemory> memory = readKeyMemory(
            limiter.connection(), limiter->exactKeys(), limiter->scanPattern(), &refusal);
        if (!memory) {
            qFatal("MEMORY USAGE refused: %s", refusal.c_str());
        }
        return *memory;
    }

private slots:
    void parse_data() {
        QTest::addColumn<QByteArray>("info");
        QTest::addColumn<QByteArray>("command");
        QTest::addColumn<bool>("present");
        QTest::addColumn<qint64>("calls");
        QTest::addColumn<qint64>("usec");
        const QByteArray redis7 =
            "# Commandstats\r\n"
            "cmdstat_evalsha:calls=1500,usec=16875,usec_per_call=11.25,rejected_calls=0,"
            "failed_calls=2\r\n"
            "cmdstat_client|list:calls=3,usec=40,usec_per_call=13.33,rejected_calls=0,"
            "failed_calls=0\r\n"
            "cmdstat_info:calls=7,usec=300,usec_per_call=42.86,rejected_calls=0,failed_calls=0\r\n";
        QTest::newRow("redis 7 evalsha")
            << redis7 << QByteArray("evalsha") << true << qint64(1500) << qint64(16875);
        QTest::newRow("subcommand")
            << redis7 << QByteArray("client|list") << true << qint64(3) << qint64(40);
        QTest::newRow("absent command")
            << redis7 << QByteArray("eval") << false << qint64(0) << qint64(0);
        QTest::newRow("redis 6, LF only")
            << QByteArray("# Commandstats\ncmdstat_eval:calls=12,usec=96,usec_per_call=8.00\n")
            << QByteArray("eval") << true << qint64(12) << qint64(96);
        QTest::newRow("fields in another order")
            << QByteArray("cmdstat_get:usec_per_call=0.5,usec=5,calls=10\r\n") << QByteArray("get")
            << true << qint64(10) << qint64(5);
        QTest::newRow("no usec field") << QByteArray("cmdstat_get:calls=10,usec_per_call=0.5\r\n")
                                       << QByteArray("get") << false << qint64(0) << qint64(0);
        QTest::newRow("garbage number") << QByteArray("cmdstat_get:calls=1x,usec=5\r\n")
                                        << QByteArray("get") << false << qint64(0) << qint64(0);
        QTest::newRow("not a cmdstat line")
            << QByteArray("errorstat_ERR:count=3\r\ncmdstat_:calls=1,usec=1\r\n") << QByteArray("")
            << false << qint64(0) << qint64(0);
        QTest::newRow("empty") << QByteArray() << QByteArray("evalsha") << false << qint64(0)
                               << qint64(0);
    }
    void parse() {
        QFETCH(QByteArray, info);
        QFETCH(QByteArray, command);
        QFETCH(bool, present);
        QFETCH(qint64, calls);
        QFETCH(qint64, usec);
        const auto stats = parseCommandStats(info.toStdString());
        const auto it = stats.find(command.toStdString());
        QCOMPARE(it != stats.end(), present);
        if (present) {
            QCOMPARE(it->second.calls, calls);
            QCOMPARE(it->second.usec, usec);
        }
    }

    void scriptTimeSumsEvalAndEvalsha() {
        const auto before = parseCommandStats("cmdstat_evalsha:calls=10,usec=100\n");
        const auto after = parseCommandStats(
            "cmdstat_evalsha:calls=40,usec=400\ncmdstat_eval:calls=2,usec=50\n"
            "cmdstat_get:calls=1000,usec=1000\n");
        const ScriptTime t = scriptTimeBetween(before, after);
        QCOMPARE(t.calls, 32LL);
        QCOMPARE(t.usec, 350LL);
        QCOMPARE(t.usecPerCall(), 350.0 / 32.0);
        QCOMPARE(t.callsPerCoreSecond(), 1e6 * 32.0 / 350.0);
        QCOMPARE(ScriptTime().usecPerCall(), 0.0);
    }

    // Decisions show up as script calls with server time (other tests may add theirs: at least).
    void scriptTimeOnTheFixture() {
        ScopedLimiter limiter(spec(LimiterType::SlidingWindow));
        RedisConnection& c = limiter.connection();
        const auto before = readCommandStats(c);
        QVERIFY(before.has_value());
        for (int i = 0; i < 50; ++i) {
            test::decide(c, *limiter, Request{1000 + i, QString(), 1});
        }
        const auto after = readCommandStats(c);
        QVERIFY(after.has_value());
        const ScriptTime t = scriptTimeBetween(*before, *after);
        QVERIFY2(t.calls >= 50, qPrintable(QString::number(t.calls)));
        QVERIFY(t.usec > 0);
        QVERIFY(t.usecPerCall() > 0);
        QVERIFY(t.callsPerCoreSecond() > 0);
    }

    // A sliding log holds a member per grant; a fixed window one counter per window.
    void keyMemory_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<bool>("grows");
        QTest::newRow("sliding window") << int(LimiterType::SlidingWindow) << true;
        QTest::newRow("token bucket") << int(LimiterType::TokenBucket) << true;
        QTest::newRow("fixed window") << int(LimiterType::FixedWindow) << false;
    }
    void keyMemory() {
        QFETCH(int, type);
        QFETCH(bool, grows);
        ScopedLimiter limiter(spec(LimiterType(type)));
        RedisConnection& c = limiter.connection();
        const qint64 t0 = 1'700'000'000'000;
        QCOMPARE(memoryOf(limiter).keys, 0LL);
        for (int i = 0; i < 10; ++i) {
            QVERIFY(test::decide(c, *limiter, Request{t0 + i, QString(), 1}).allowed);
        }
        const KeyMemory few = memoryOf(limiter);
        QVERIFY(few.keys > 0);
        QVERIFY(few.bytes > 0);
        for (int i = 10; i < 400; ++i) {
            QVERIFY(test::decide(c, *limiter, Request{t0 + i, QString(), 1}).allowed);
        }
        const KeyMemory many = memoryOf(limiter);
        QCOMPARE(many.keys, few.keys);
        if (grows) {
            QVERIFY2(many.bytes > few.bytes,
                     qPrintable(QStringLiteral("%1 -> %2").arg(few.bytes).arg(many.bytes)));
        } else {
            QCOMPARE(many.bytes, few.bytes);
        }
    }

    // The reader behind bench and the window: script time since its baseline, memory per
    // limiter in the order given; a sliding log's memory grows with its grants, a fixed
    // window's counter does not.
    void readerPerLimiter() {
        ScopedLimiter log(spec(LimiterType::SlidingWindow));
        ScopedLimiter window(spec(LimiterType::FixedWindow));
        std::unique_ptr<RedisRouter> router = routeFixture();
        const std::vector<const Limiter*> both = {&*log, &*window};
        LimiterCostReader cost(*router);
        cost.markBaseline(both);
        const qint64 t0 = 1'700'000'000'000;
        auto decideBoth = [&](int from, int to) {
            for (int i = from; i < to; ++i) {
                QVERIFY(
                    test::decide(log.connection(), *log, Request{t0 + i, QString(), 1}).allowed);
                QVERIFY(test::decide(window.connection(), *window, Request{t0 + i, QString(), 1})
                            .allowed);
            }
        };
        decideBoth(0, 20);
        const LimiterCostReader::Reading first = cost.read(both);
        QVERIFY2(first.scripts.has_value(), first.scriptsRefusal.c_str());
        QVERIFY2(first.scripts->calls >= 40, qPrintable(QString::number(first.scripts->calls)));
        QVERIFY(first.scripts->usec > 0);
        QCOMPARE(first.memory.size(), size_t(2));
        QVERIFY(first.memory[0] && first.memory[1]);
        // The same figures a direct read gives, per limiter.
        QCOMPARE(first.memory[0]->bytes, memoryOf(log).bytes);
        QCOMPARE(first.memory[1]->bytes, memoryOf(window).bytes);

        decideBoth(20, 500);
        const LimiterCostReader::Reading second = cost.read(both);
        QVERIFY(second.scripts->calls >= first.scripts->calls + 960);
        QVERIFY2(second.memory[0]->bytes > first.memory[0]->bytes,
                 qPrintable(QStringLiteral("%1 -> %2")
                                .arg(first.memory[0]->bytes)
                                .arg(second.memory[0]->bytes)));
        QCOMPARE(second.memory[1]->bytes, first.memory[1]->bytes);
        // Sampled: an estimate, still a figure for every limiter.
        const LimiterCostReader::Reading sampled = cost.read(both, 5);
        QVERIFY(sampled.memory[0] && sampled.memory[0]->bytes > 0);
    }

    // A user that may not run INFO or MEMORY gets the server's refusal, not a figure and not
    // an exception.
    void readerReportsRefusals() {
        ScopedLimiter log(spec(LimiterType::SlidingWindow));
        QVERIFY(
            test::decide(log.connection(), *log, Request{1'700'000'000'000, QString(), 1}).allowed);
        std::unique_ptr<RedisConnection> admin = connectFixture();
        const std::string user = uniqueName(QStringLiteral("cost-user")).toStdString();
        const std::string password = "pw-" + uniqueName(QStringLiteral("p")).toStdString();
        RedisReply made = admin->command({"ACL", "SETUSER", user, "reset", "on", ">" + password,
                                          "~*", "&*", "+@all", "-info", "-memory"});
        QVERIFY(made->type == REDIS_REPLY_STATUS);
        RedisUrl url = fixtureUrl();
        url.user = QString::fromStdString(user);
        url.password = QString::fromStdString(password);
        {
            RedisRouter router(url);
            LimiterCostReader cost(router);
            cost.markBaseline({&*log});
            const LimiterCostReader::Reading reading = cost.read({&*log});
            QVERIFY(!reading.scripts.has_value());
            QVERIFY2(reading.scriptsRefusal.find("NOPERM") != std::string::npos,
                     reading.scriptsRefusal.c_str());
            QCOMPARE(reading.memory.size(), size_t(1));
            QVERIFY(!reading.memory[0].has_value());
            QVERIFY2(reading.memoryRefusal.find("NOPERM") != std::string::npos,
                     reading.memoryRefusal.c_str());
        }
        admin->command({"ACL", "DELUSER", user});
    }
};

QTEST_GUILESS_MAIN(TestServerCost)
#include "tst_server_cost.moc"
