// Specs of gcra, sliding_counter and leaky_bucket: parsing, the bounds that keep the scripts'
// integer arithmetic exact, errors with their JSON paths, and round trips.
#include <QJsonDocument>
#include <QtTest>

#include "input_error.h"
#include "limiters/gcra_limiter.h"
#include "limiters/limiter.h"
#include "limiters/limiter_spec.h"
#include "redis/redis_error.h"
#include "redis/redis_reply.h"

using namespace ratelab;

class TestAlgorithmSpecs : public QObject {
    Q_OBJECT

private slots:
    void parseValid_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("type");
        QTest::addColumn<qint64>("rate");
        QTest::addColumn<qint64>("periodMs");
        QTest::addColumn<qint64>("burst");
        QTest::addColumn<bool>("nodelay");
        QTest::addColumn<qint64>("limit");
        QTest::addColumn<qint64>("windowMs");
        QTest::addColumn<qint64>("capacity");
        QTest::newRow("design gcra")
            << QByteArray(R"({"type": "gcra", "name": "g", "scope": "per_client", "rate": 10,
                              "period_ms": 1000, "burst": 5})")
            << "gcra" << 10LL << 1000LL << 5LL << false << 0LL << 0LL << 5LL;
        QTest::newRow("design sliding_counter")
            << QByteArray(R"({"type": "sliding_counter", "name": "c", "scope": "global",
                              "limit": 100, "window_ms": 60000})")
            << "sliding_counter" << 0LL << 0LL << 0LL << false << 100LL << 60000LL << 100LL;
        QTest::newRow("leaky bucket, nodelay defaults to false")
            << QByteArray(R"({"type": "leaky_bucket", "name": "l", "rate": 2, "period_ms": 1000,
                              "burst": 3})")
            << "leaky_bucket" << 2LL << 1000LL << 3LL << false << 0LL << 0LL << 4LL;
        QTest::newRow("leaky bucket, burst 0 and nodelay")
            << QByteArray(R"({"type": "leaky_bucket", "name": "l", "rate": 1, "period_ms": 1,
                              "burst": 0, "nodelay": true})")
            << "leaky_bucket" << 1LL << 1LL << 0LL << true << 0LL << 0LL << 1LL;
        QTest::newRow("gcra at the bounds")
            << QByteArray(R"({"type": "gcra", "name": "g", "rate": 1000000,
                              "period_ms": 86400000, "burst": 100000})")
            << "gcra" << 1000000LL << 86400000LL << 100000LL << false << 0LL << 0LL << 100000LL;
        QTest::newRow("design concurrency")
            << QByteArray(R"({"type": "concurrency", "name": "in-flight", "scope": "per_client",
                              "limit": 20, "lease_ms": 30000})")
            << "concurrency" << 0LL << 0LL << 0LL << false << 20LL << 0LL << 20LL;
    }
    void parseValid() {
        QFETCH(QByteArray, json);
        QFETCH(QString, type);
        QFETCH(qint64, rate);
        QFETCH(qint64, periodMs);
        QFETCH(qint64, burst);
        QFETCH(bool, nodelay);
        QFETCH(qint64, limit);
        QFETCH(qint64, windowMs);
        QFETCH(qint64, capacity);
        LimiterSpec spec;
        try {
            spec = parseLimiterSpecJson(json);
        } catch (const InputError& error) {
            QFAIL(qPrintable(QStringLiteral("refused: ") + error.message()));
        }
        QCOMPARE(limiterTypeName(spec.type), type);
        QCOMPARE(spec.rate, rate);
        QCOMPARE(spec.periodMs, periodMs);
        QCOMPARE(spec.burst, burst);
        QCOMPARE(spec.nodelay, nodelay);
        QCOMPARE(spec.limit, limit);
        QCOMPARE(spec.windowMs, windowMs);
        QCOMPARE(spec.capacity(), capacity);
        // The written form reads back as the same spec.
        QCOMPARE(parseLimiterSpec(limiterSpecToJson(spec)), spec);
    }

    void parseInvalid_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("message");
        QTest::newRow("gcra burst 0")
            << QByteArray(R"({"type":"gcra","name":"g","rate":1,"period_ms":1000,"burst":0})")
            << "$.burst"
            << "from 1 to 100000";
        QTest::newRow("gcra rate above 1e6")
            << QByteArray(R"({"type":"gcra","name":"g","rate":1000001,"period_ms":1,"burst":1})")
            << "$.rate"
            << "from 1 to 1000000";
        QTest::newRow("gcra period above a day")
            << QByteArray(R"({"type":"gcra","name":"g","rate":1,"period_ms":86400001,"burst":1})")
            << "$.period_ms"
            << "from 1 to 86400000";
        QTest::newRow("gcra fractional burst")
            << QByteArray(R"({"type":"gcra","name":"g","rate":1,"period_ms":10,"burst":1.5})")
            << "$.burst"
            << "integer";
        QTest::newRow("gcra with a token bucket's field")
            << QByteArray(R"({"type":"gcra","name":"g","rate":1,"interval_ms":10,"burst":1})")
            << "$.interval_ms"
            << "unknown";
        QTest::newRow("gcra without burst")
            << QByteArray(R"({"type":"gcra","name":"g","rate":1,"period_ms":10})") << "$.burst"
            << "missing";
        QTest::newRow("leaky burst -1")
            << QByteArray(
                   R"({"type":"leaky_bucket","name":"l","rate":1,"period_ms":10,"burst":-1})")
            << "$.burst"
            << "from 0 to 100000";
        QTest::newRow("leaky nodelay as text")
            << QByteArray(R"({"type":"leaky_bucket","name":"l","rate":1,"period_ms":10,
                              "burst":1,"nodelay":"yes"})")
            << "$.nodelay"
            << "true or false";
        QTest::newRow("nodelay on gcra")
            << QByteArray(R"({"type":"gcra","name":"g","rate":1,"period_ms":10,"burst":1,
                              "nodelay":true})")
            << "$.nodelay"
            << "unknown";
        QTest::newRow("counter limit above 1e6")
            << QByteArray(R"({"type":"sliding_counter","name":"c","limit":1000001,"window_ms":10})")
            << "$.limit"
            << "from 1 to 1000000";
        QTest::newRow("counter without window")
            << QByteArray(R"({"type":"sliding_counter","name":"c","limit":1})") << "$.window_ms"
            << "missing";
        QTest::newRow("counter with rules")
            << QByteArray(R"({"type":"sliding_counter","name":"c","limit":1,"window_ms":1,
                              "rules":[]})")
            << "$.rules"
            << "unknown";
        QTest::newRow("concurrency limit above 10,000")
            << QByteArray(R"({"type":"concurrency","name":"c","limit":10001,"lease_ms":10})")
            << "$.limit"
            << "from 1 to 10000";
        QTest::newRow("concurrency without a lease")
            << QByteArray(R"({"type":"concurrency","name":"c","limit":1})") << "$.lease_ms"
            << "missing";
        QTest::newRow("concurrency lease above a day")
            << QByteArray(R"({"type":"concurrency","name":"c","limit":1,"lease_ms":86400001})")
            << "$.lease_ms"
            << "from 1 to 86400000";
    }
    void parseInvalid() {
        QFETCH(QByteArray, json);
        QFETCH(QString, where);
        QFETCH(QString, message);
        try {
            const LimiterSpec spec = parseLimiterSpecJson(json);
            QFAIL(qPrintable(QStringLiteral("accepted: ") +
                             QString::fromUtf8(QJsonDocument(limiterSpecToJson(spec)).toJson())));
        } catch (const InputError& error) {
            QCOMPARE(error.where(), where);
            QVERIFY2(error.problem().contains(message, Qt::CaseInsensitive),
                     qPrintable(error.problem()));
        }
    }

    // The scripts answer "allowed retry remaining at reset" and, those that delay, " delay_ms"
    // as one text reply; anything else is a reply error.
    void parsesTextReplies_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<bool>("allowed");
        QTest::addColumn<qint64>("retry");
        QTest::addColumn<qint64>("remaining");
        QTest::addColumn<qint64>("at");
        QTest::addColumn<bool>("reset");
        QTest::addColumn<qint64>("delay");
        QTest::newRow("five fields") << QByteArray("1 0 4 1700000000000 0") << true << true << 0LL
                                     << 4LL << 1700000000000LL << false << 0LL;
        QTest::newRow("six fields") << QByteArray("1 0 2 1700000000001 0 1500") << true << true
                                    << 0LL << 2LL << 1700000000001LL << false << 1500LL;
        QTest::newRow("never, reset")
            << QByteArray("0 -1 3 5 1 0") << true << false << -1LL << 3LL << 5LL << true << 0LL;
        for (const char* bad : {"1 0 2 3", "1 0 2 3 0 5 6", "1 0 2 3 0 x", "1 0 2 3 2",
                                "1 0 2 3 0 -5", "1 0 2 3 0 ", "", "1,0,2,3,0"}) {
            QTest::newRow(bad) << QByteArray(bad) << false << false << 0LL << 0LL << 0LL << false
                               << 0LL;
        }
    }
    void parsesTextReplies() {
        QFETCH(QByteArray, text);
        QFETCH(bool, valid);
        LimiterSpec spec;
        spec.type = LimiterType::LeakyBucket;
        spec.name = QStringLiteral("l");
        spec.rate = 1;
        spec.periodMs = 1000;
        const auto limiter = makeLimiter(spec);
        redisReply reply{};
        reply.type = REDIS_REPLY_STRING;
        reply.str = text.data();
        reply.len = size_t(text.size());
        try {
            const Decision d = limiter->parseReply(ReplyView(&reply), ScriptCall{});
            QVERIFY2(valid, "accepted");
            QTEST(d.allowed, "allowed");
            QTEST(d.retryAfterMs, "retry");
            QTEST(d.remaining, "remaining");
            QTEST(d.atMs, "at");
            QTEST(d.configReset, "reset");
            QTEST(d.delayMs, "delay");
        } catch (const RedisError& error) {
            QVERIFY2(!valid, error.what());
            QVERIFY2(QByteArray(error.what()).contains("leaky_bucket"), error.what());
        }
    }

    // The fixed window's compact reply: one integer, 2 x remaining + reset when granted,
    // -(2 x remaining + reset) - 1 when refused; for a request of one permit 2 x the window's
    // count + reset, compared with the rate (5) by the engine. The time and a refusal's wait
    // come from the call.
    void parsesCompactReplies_data() {
        QTest::addColumn<qint64>("permits");
        QTest::addColumn<qint64>("value");
        QTest::addColumn<qint64>("refusedRetry");
        QTest::addColumn<bool>("allowed");
        QTest::addColumn<qint64>("retry");
        QTest::addColumn<qint64>("remaining");
        QTest::addColumn<bool>("reset");
        QTest::newRow("granted, none left") << 2LL << 0LL << 700LL << true << 0LL << 0LL << false;
        QTest::newRow("granted, 4 left") << 2LL << 8LL << 700LL << true << 0LL << 4LL << false;
        QTest::newRow("granted, reset") << 2LL << 9LL << 700LL << true << 0LL << 4LL << true;
        QTest::newRow("refused, full") << 2LL << -1LL << 700LL << false << 700LL << 0LL << false;
        QTest::newRow("refused, 2 left") << 2LL << -5LL << 700LL << false << 700LL << 2LL << false;
        QTest::newRow("refused, reset") << 2LL << -6LL << 700LL << false << 700LL << 2LL << true;
        QTest::newRow("refused, never") << 6LL << -5LL << -1LL << false << -1LL << 2LL << false;
        QTest::newRow("one permit, count 3") << 1LL << 6LL << 700LL << true << 0LL << 2LL << false;
        QTest::newRow("one permit, count 5") << 1LL << 10LL << 700LL << true << 0LL << 0LL << false;
        QTest::newRow("one permit, count 6")
            << 1LL << 12LL << 700LL << false << 700LL << 0LL << false;
        QTest::newRow("one permit, first after a reset")
            << 1LL << 3LL << 700LL << true << 0LL << 4LL << true;
    }
    void parsesCompactReplies() {
        QFETCH(qint64, permits);
        QFETCH(qint64, value);
        QFETCH(qint64, refusedRetry);
        LimiterSpec spec;
        spec.type = LimiterType::FixedWindow;
        spec.name = QStringLiteral("f");
        spec.rate = 5;
        spec.interval = 1;
        spec.unit = CalendarUnit::Seconds;
        spec.timezone = "UTC";
        const auto limiter = makeLimiter(spec);
        redisReply reply{};
        reply.type = REDIS_REPLY_INTEGER;
        reply.integer = value;
        ScriptCall call;
        call.atMs = 1'700'000'000'300;
        call.refusedRetryMs = refusedRetry;
        call.permits = permits;
        const Decision d = limiter->parseReply(ReplyView(&reply), call);
        QTEST(d.allowed, "allowed");
        QTEST(d.retryAfterMs, "retry");
        QTEST(d.remaining, "remaining");
        QTEST(d.configReset, "reset");
        QCOMPARE(d.atMs, call.atMs);
        QCOMPARE(d.delayMs, 0);
    }

    // The packed reply of every script but the fixed window's (radix = capacity + 2):
    // 2 x (delay x radix + remaining) + reset granted,
    // -(2 x ((retry + 1) x radix + remaining) + reset) - 1 refused; the time is the call's.
    void parsesPackedReplies_data() {
        QTest::addColumn<qint64>("value");
        QTest::addColumn<bool>("allowed");
        QTest::addColumn<qint64>("retry");
        QTest::addColumn<qint64>("remaining");
        QTest::addColumn<bool>("reset");
        QTest::addColumn<qint64>("delay");
        QTest::newRow("granted, none left") << 0LL << true << 0LL << 0LL << false << 0LL;
        QTest::newRow("granted, 4 left") << 8LL << true << 0LL << 4LL << false << 0LL;
        QTest::newRow("granted, reset") << 9LL << true << 0LL << 4LL << true << 0LL;
        QTest::newRow("granted, delayed") << 21004LL << true << 0LL << 2LL << false << 1500LL;
        QTest::newRow("refused, wait 1000") << -14015LL << false << 1000LL << 0LL << false << 0LL;
        QTest::newRow("refused, never") << -7LL << false << -1LL << 3LL << false << 0LL;
        QTest::newRow("refused, wait 1, reset") << -40LL << false << 1LL << 5LL << true << 0LL;
        QTest::newRow("refused, wait a day")
            << -1209600015LL << false << 86400000LL << 0LL << false << 0LL;
    }
    void parsesPackedReplies() {
        QFETCH(qint64, value);
        LimiterSpec spec;
        spec.type = LimiterType::Gcra;
        spec.name = QStringLiteral("g");
        spec.rate = 1;
        spec.periodMs = 1000;
        spec.burst = 5;
        const auto limiter = makeLimiter(spec);
        redisReply reply{};
        reply.type = REDIS_REPLY_INTEGER;
        reply.integer = value;
        ScriptCall call;
        call.atMs = 1'700'000'000'300;
        call.radix = spec.burst + 2;
        const Decision d = limiter->parseReply(ReplyView(&reply), call);
        QTEST(d.allowed, "allowed");
        QTEST(d.retryAfterMs, "retry");
        QTEST(d.remaining, "remaining");
        QTEST(d.configReset, "reset");
        QTEST(d.delayMs, "delay");
        QCOMPARE(d.atMs, call.atMs);
    }

    // gcra_units.lua answers the TAT it left in units of 1/u ms (u = rate / gcd(rate, period)),
    // -(max(TAT, now)) - 1 refused, "reset <that>" under a new config; the engine works out
    // remaining and the wait (retry = ceil(TAT + permits x T - tau) - now).
    void parsesUnitReplies_data() {
        QTest::addColumn<qint64>("rate");
        QTest::addColumn<QByteArray>("reply");  // with N for now in units
        QTest::addColumn<qint64>("permits");
        QTest::addColumn<bool>("allowed");
        QTest::addColumn<qint64>("retry");
        QTest::addColumn<qint64>("remaining");
        QTest::addColumn<bool>("reset");
        // rate 1 per 1000 ms, burst 5: u = 1, T = 1000, tau = 5000 units
        QTest::newRow("granted, 4 left")
            << 1LL << QByteArray("N+1000") << 1LL << true << 0LL << 4LL << false;
        QTest::newRow("granted, none left")
            << 1LL << QByteArray("N+5000") << 1LL << true << 0LL << 0LL << false;
        QTest::newRow("refused, wait 500")
            << 1LL << QByteArray("-(N+4500)-1") << 1LL << false << 500LL << 0LL << false;
        QTest::newRow("refused, never")
            << 1LL << QByteArray("-(N)-1") << 6LL << false << -1LL << 5LL << false;
        QTest::newRow("granted, reset")
            << 1LL << QByteArray("reset N+1000") << 1LL << true << 0LL << 4LL << true;
        // rate 3 per 1000 ms, burst 5: u = 3, T = 1000, tau = 5000 units (1/3 ms each)
        QTest::newRow("refused a third of a ms early")
            << 3LL << QByteArray("-(N+4001)-1") << 1LL << false << 1LL << 0LL << false;
        QTest::newRow("refused, 2 permits")
            << 3LL << QByteArray("-(N+4001)-1") << 2LL << false << 334LL << 0LL << false;
    }
    void parsesUnitReplies() {
        QFETCH(qint64, rate);
        QFETCH(QByteArray, reply);
        QFETCH(qint64, permits);
        LimiterSpec spec;
        spec.type = LimiterType::Gcra;
        spec.name = QStringLiteral("g");
        spec.rate = rate;
        spec.periodMs = 1000;
        spec.burst = 5;
        const auto limiter = makeLimiter(spec);
        const ScriptCall call = limiter->prepare({1'700'000'000'300, QString(), permits});
        const qint64 now = 1'700'000'000'300 * rate;
        // "N+d", "-(N+d)-1", "reset N+d" -> the reply
        const bool reset = reply.startsWith("reset ");
        QByteArray body = reset ? reply.mid(6) : reply;
        const bool refused = body.startsWith("-(");
        body = body.mid(refused ? 3 : 1);  // past "-(N" or "N"
        const qint64 offset =
            body.startsWith('+') ? body.mid(1).split(')').first().toLongLong() : 0;
        const qint64 value = refused ? -(now + offset) - 1 : now + offset;
        const QByteArray text = "reset " + QByteArray::number(value);
        redisReply r{};
        if (reset) {
            r.type = REDIS_REPLY_STRING;
            r.str = const_cast<char*>(text.constData());
            r.len = size_t(text.size());
        } else {
            r.type = REDIS_REPLY_INTEGER;
            r.integer = value;
        }
        const Decision d = limiter->parseReply(ReplyView(&r), call);
        QTEST(d.allowed, "allowed");
        QTEST(d.retryAfterMs, "retry");
        QTEST(d.remaining, "remaining");
        QTEST(d.configReset, "reset");
        QCOMPARE(d.atMs, 1'700'000'000'300LL);
    }

    // GCRA in units decides exactly up to kMaxUnitNowMs: a later (or negative) time is refused
    // with a message instead of deciding with rounded numbers.
    void gcraUnitsRefuseTimesPastTheirRange() {
        LimiterSpec spec;
        spec.type = LimiterType::Gcra;
        spec.name = QStringLiteral("g");
        spec.rate = 1000;
        spec.periodMs = 1;  // u = 1000, the largest units
        spec.burst = 5;
        const auto limiter = makeLimiter(spec);
        limiter->prepare({GcraLimiter::kMaxUnitNowMs, QString(), 1});
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 limiter->prepare({GcraLimiter::kMaxUnitNowMs + 1, QString(), 1}));
        QVERIFY_THROWS_EXCEPTION(InputError, limiter->prepare({-1, QString(), 1}));
    }
};

QTEST_GUILESS_MAIN(TestAlgorithmSpecs)
#include "tst_algorithm_specs.moc"
