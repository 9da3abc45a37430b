// Key ownership (reset deletes a limiter's keys and nothing else), NOSCRIPT recovery, and
// replies that do not decode.
#include <QtTest>

#include "input_error.h"
#include "limiters/fixed_window_limiter.h"
#include "limiters/limiter.h"
#include "redis/local_redis_server.h"
#include "redis/redis_error.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

class TestLimiterKeys : public QObject {
    Q_OBJECT

private:
    static LimiterSpec make(LimiterType type, const QString& name) {
        LimiterSpec s;
        s.type = type;
        s.name = name;
        s.scope = Scope::PerClient;
        s.rate = 5;
        s.intervalMs = 1000;
        s.interval = 1;
        s.unit = CalendarUnit::Seconds;
        s.timezone = "UTC";
        s.rules = {{5, 1000}};
        return s;
    }

    static long long exists(RedisConnection& c, const std::string& key) {
        return replyInteger(c.command({"EXISTS", key}).get(), "EXISTS");
    }

private slots:
    // reset() of "api" must not touch "api2", "ap*" must not act as a glob, and keys outside
    // the limiter's hash tag survive.
    void resetDeletesOnlyOwnKeys_data() {
        QTest::addColumn<int>("type");
        QTest::newRow("token_bucket") << int(LimiterType::TokenBucket);
        QTest::newRow("fixed_window") << int(LimiterType::FixedWindow);
        QTest::newRow("sliding_window") << int(LimiterType::SlidingWindow);
    }
    void resetDeletesOnlyOwnKeys() {
        QFETCH(int, type);
        const QString base = uniqueName(QStringLiteral("own"));
        const QStringList names = {base, base + QStringLiteral("2"), base + QStringLiteral("*"),
                                   base + QStringLiteral("[x] ü:1")};
        auto c = connectFixture();
        std::vector<std::unique_ptr<Limiter>> limiters;
        for (const QString& name : names) {
            limiters.push_back(makeLimiter(make(LimiterType(type), name)));
            for (const char* client : {"alice", "bob"}) {
                QVERIFY(test::decide(*c, *limiters.back(),
                                     Request{1000, QString::fromLatin1(client), 1})
                            .allowed);
            }
        }
        const std::string bystander = base.toStdString() + ":not-a-limiter-key";
        c->command({"SET", bystander, "x"});
        const std::string bare = base.toStdString();  // belongs to the token bucket alone
        if (type != int(LimiterType::TokenBucket)) {
            c->command({"SET", bare, "x"});
        }

        auto countKeys = [&](const Limiter& l) {
            RedisReply r = c->command({"KEYS", l.scanPattern()});
            return r->elements;
        };
        const size_t own0 = countKeys(*limiters[0]);
        const size_t own1 = countKeys(*limiters[1]);
        const size_t own3 = countKeys(*limiters[3]);
        QVERIFY(own0 > 0 && own1 > 0 && own3 > 0);
        // "<base>*" must delete its own keys only: unescaped, its pattern would match "<base>2".
        QVERIFY(limiters[2]->reset(*c) > 0);
        QCOMPARE(countKeys(*limiters[2]), size_t(0));
        QCOMPARE(countKeys(*limiters[0]), own0);
        QCOMPARE(countKeys(*limiters[1]), own1);
        QCOMPARE(countKeys(*limiters[3]), own3);

        QVERIFY(limiters[0]->reset(*c) > 0);
        QCOMPARE(countKeys(*limiters[0]), size_t(0));
        QCOMPARE(countKeys(*limiters[1]), own1);
        QCOMPARE(countKeys(*limiters[3]), own3);
        QCOMPARE(exists(*c, bystander), 1LL);
        QCOMPARE(exists(*c, bare), type == int(LimiterType::TokenBucket) ? 0LL : 1LL);
        for (auto& l : limiters) {
            l->reset(*c);
        }
        c->command({"DEL", bystander, bare});
    }

    // A key ratelab did not create under a token bucket's exact name (its config hash's): reset
    // refuses before deleting anything, naming the key and its type, and a decision answers an
    // error instead of writing into it. Failed before: reset deleted the string and the
    // decision made it the bucket's config hash.
    void foreignKeyWithTheExactName_data() {
        QTest::addColumn<QStringList>("write");
        QTest::addColumn<QString>("type");
        QTest::newRow("string") << QStringList{QStringLiteral("SET"), QStringLiteral(""),
                                               QStringLiteral("foreign")}
                                << "string";
        QTest::newRow("list") << QStringList{QStringLiteral("RPUSH"), QStringLiteral(""),
                                             QStringLiteral("a"), QStringLiteral("b")}
                              << "list";
        QTest::newRow("hash of other fields")
            << QStringList{QStringLiteral("HSET"), QStringLiteral(""), QStringLiteral("owner"),
                           QStringLiteral("me")}
            << "hash";
        QTest::newRow("hash with a rate only")
            << QStringList{QStringLiteral("HSET"), QStringLiteral(""), QStringLiteral("rate"),
                           QStringLiteral("5")}
            << "hash";
    }
    void foreignKeyWithTheExactName() {
        QFETCH(QStringList, write);
        QFETCH(QString, type);
        ScopedLimiter limiter(make(LimiterType::TokenBucket, uniqueName(QStringLiteral("alien"))));
        RedisConnection& c = limiter.connection();
        QVERIFY(decide(c, *limiter, Request{1000, QStringLiteral("a"), 1}).allowed);
        const std::string name = limiter->spec().name.toStdString();
        c.command({"DEL", name});
        RedisArgs command;
        for (const QString& part : write) {
            command.push_back(part.isEmpty() ? name : part.toStdString());
        }
        throwIfError(c.command(command).get(), "write");
        const std::string before = replyString(c.command({"DUMP", name}).get(), "DUMP");
        const std::string state = limiter->hashTag() + ":permits:a";
        QCOMPARE(exists(c, state), 1LL);

        try {
            limiter->reset(limiter.router());
            QFAIL("reset deleted a key ratelab did not create");
        } catch (const InputError& e) {
            QVERIFY2(e.message().contains(QStringLiteral("\"%1\"").arg(limiter->spec().name)),
                     qPrintable(e.message()));
            QVERIFY2(
                e.message().contains(QStringLiteral("a %1 that ratelab did not create").arg(type)),
                qPrintable(e.message()));
        }
        QCOMPARE(exists(c, state), 1LL);  // nothing deleted before the refusal
        QCOMPARE(replyString(c.command({"DUMP", name}).get(), "DUMP"), before);

        QVERIFY_THROWS_EXCEPTION(RedisError,
                                 decide(c, *limiter, Request{2000, QStringLiteral("b"), 1}));
        QCOMPARE(replyString(c.command({"DUMP", name}).get(), "DUMP"), before);
        c.command({"DEL", name});
    }

    // After SCRIPT FLUSH the next decision re-sends the script (EVAL) and goes on. On a private
    // server: on the shared fixture another test may load the same script between the FLUSH
    // and the check that it is gone.
    void noscriptRecovery() {
        LocalRedisServer server;
        server.start();
        const auto limiter =
            makeLimiter(make(LimiterType::SlidingWindow, uniqueName(QStringLiteral("ns"))));
        RedisConnection c(server.url());
        QVERIFY(test::decide(c, *limiter, Request{1, QStringLiteral("a"), 1}).allowed);
        expectStatusOk(c.command({"SCRIPT", "FLUSH"}).get(), "SCRIPT FLUSH");
        RedisReply exists = c.command({"SCRIPT", "EXISTS", limiter->script().sha1()});
        QCOMPARE(exists->element[0]->integer, 0LL);
        QVERIFY(test::decide(c, *limiter, Request{2, QStringLiteral("a"), 1}).allowed);
        exists = c.command({"SCRIPT", "EXISTS", limiter->script().sha1()});
        QCOMPARE(exists->element[0]->integer, 1LL);
    }

    // Someone else wrote garbage into the limiter's keys: an error naming the key, no crash.
    void garbageStateIsAnError_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<QString>("keySuffix");
        QTest::newRow("token bucket value")
            << int(LimiterType::TokenBucket) << QStringLiteral("value:a");
        QTest::newRow("fixed window counter")
            << int(LimiterType::FixedWindow) << QStringLiteral("fw:1000:a");
        QTest::newRow("sliding window log")
            << int(LimiterType::SlidingWindow) << QStringLiteral("log:a");
    }
    void garbageStateIsAnError() {
        QFETCH(int, type);
        QFETCH(QString, keySuffix);
        ScopedLimiter limiter(make(LimiterType(type), uniqueName(QStringLiteral("junk"))));
        RedisConnection& c = limiter.connection();
        // (A fixed window's counter is named after its config: ask the limiter.)
        const std::string key = type == int(LimiterType::FixedWindow)
                                    ? static_cast<const FixedWindowLimiter&>(*limiter).counterKey(
                                          1000, keySuffix.section(QLatin1Char(':'), 2))
                                    : limiter->hashTag() + ":" + keySuffix.toStdString();
        if (type == int(LimiterType::SlidingWindow)) {
            c.command({"SET", key, "not a zset"});
        } else {
            // Make sure the config exists first, so the garbage is not reset away.
            test::decide(c, *limiter, Request{1000, QStringLiteral("z"), 1});
            c.command({"SET", key, "garbage"});
        }
        try {
            test::decide(c, *limiter, Request{1000, QStringLiteral("a"), 1});
            QFAIL("expected an error");
        } catch (const RedisError& e) {
            QCOMPARE(e.kind(), RedisError::Kind::Reply);
            QVERIFY2(QString::fromStdString(e.what()).contains(limiter->spec().name), e.what());
        }
        // The connection is still usable.
        QCOMPARE(replyString(c.command({"PING"}).get(), "PING"), std::string("PONG"));
    }

    void permitsBelowOneRefused() {
        const auto limiter = makeLimiter(make(LimiterType::TokenBucket, QStringLiteral("p")));
        QVERIFY_THROWS_EXCEPTION(InputError, limiter->prepare(Request{1, QString(), 0}));
    }
};

QTEST_GUILESS_MAIN(TestLimiterKeys)
#include "tst_limiter_keys.moc"
