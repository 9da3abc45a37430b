// Natural-calendar fixed window on a real Redis against the reference model.
#include <QtTest>

#include "limiters/fixed_window_limiter.h"
#include "support/test_redis.h"
#include "support/trace_generator.h"

using namespace ratelab;
using namespace ratelab::test;

class TestFixedWindow : public QObject {
    Q_OBJECT

private:
    static LimiterSpec spec(Scope scope, qint64 rate, qint64 interval, CalendarUnit unit,
                            const QByteArray& zone) {
        LimiterSpec s;
        s.type = LimiterType::FixedWindow;
        s.name = uniqueName(QStringLiteral("fw"));
        s.scope = scope;
        s.rate = rate;
        s.interval = interval;
        s.unit = unit;
        s.timezone = zone;
        return s;
    }

    static qint64 ms(const char* iso) {
        return QDateTime::fromString(QString::fromLatin1(iso), Qt::ISODateWithMs)
            .toMSecsSinceEpoch();
    }

private slots:
    void matchesModel_data() {
        QTest::addColumn<int>("scope");
        QTest::addColumn<qint64>("rate");
        QTest::addColumn<qint64>("interval");
        QTest::addColumn<int>("unit");
        QTest::addColumn<QByteArray>("zone");
        QTest::addColumn<qint64>("edgeMs");
        QTest::addColumn<qint64>("meanGapMs");
        QTest::addColumn<qint64>("startMs");
        QTest::addColumn<int>("clients");
        QTest::addColumn<quint32>("seed");
        const int g = int(Scope::Global);
        const int pc = int(Scope::PerClient);
        const qint64 t0 = ms("2024-03-09T23:59:00.000-05:00");
        QTest::newRow("250 ms") << g << 5LL << 250LL << int(CalendarUnit::Milliseconds)
                                << QByteArray("UTC") << 250LL << 20LL << t0 << 1 << 11u;
        QTest::newRow("2 s per client")
            << pc << 4LL << 2LL << int(CalendarUnit::Seconds) << QByteArray("Asia/Shanghai")
            << 2000LL << 80LL << t0 << 3 << 12u;
        QTest::newRow("7 min Kolkata")
            << g << 30LL << 7LL << int(CalendarUnit::Minutes) << QByteArray("Asia/Kolkata")
            << 420000LL << 10000LL << t0 << 1 << 13u;
        QTest::newRow("1 h across DST New York")
            << g << 40LL << 1LL << int(CalendarUnit::Hours) << QByteArray("America/New_York")
            << 3600000LL << 60000LL << ms("2024-03-10T00:30:00.000-05:00") << 1 << 14u;
        QTest::newRow("1 day across month end")
            << pc << 20LL << 1LL << int(CalendarUnit::Days) << QByteArray("Europe/Berlin")
            << 86400000LL << 1800000LL << ms("2024-02-27T00:00:00.000+01:00") << 2 << 15u;
        QTest::newRow("1 month") << g << 15LL << 1LL << int(CalendarUnit::Months)
                                 << QByteArray("America/New_York") << 2592000000LL << 5000000LL
                                 << ms("2024-01-15T00:00:00.000-05:00") << 1 << 16u;
    }
    void matchesModel() {
        QFETCH(int, scope);
        QFETCH(qint64, rate);
        QFETCH(qint64, interval);
        QFETCH(int, unit);
        QFETCH(QByteArray, zone);
        QFETCH(qint64, edgeMs);
        QFETCH(qint64, meanGapMs);
        QFETCH(qint64, startMs);
        QFETCH(int, clients);
        QFETCH(quint32, seed);
        TraceShape shape;
        shape.seed = seed;
        shape.count = 2500;
        shape.clients = clients;
        shape.maxPermits = 3;
        shape.edgeMs = edgeMs;
        shape.meanGapMs = meanGapMs;
        shape.startMs = startMs;
        expectMatchesModel(spec(Scope(scope), rate, interval, CalendarUnit(unit), zone),
                           generateTrace(shape));
    }

    void retryIsWindowEnd() {
        ScopedLimiter limiter(spec(Scope::Global, 2, 15, CalendarUnit::Minutes, "UTC"));
        RedisConnection& c = limiter.connection();
        const qint64 t = ms("2024-05-01T10:16:30.000Z");
        QVERIFY(limiter->decide(c, Request{t, QString(), 2}).allowed);
        const Decision d = limiter->decide(c, Request{t + 1000, QString(), 1});
        QVERIFY(!d.allowed);
        QCOMPARE(d.retryAfterMs, ms("2024-05-01T10:30:00.000Z") - (t + 1000));
        QCOMPARE(d.remaining, 0);
        QVERIFY(limiter->decide(c, Request{ms("2024-05-01T10:30:00.000Z"), QString(), 1}).allowed);
    }

    // Counters are keyed by window start; a changed rate resets them and says so.
    void configChangeResetsCounters() {
        LimiterSpec s = spec(Scope::PerClient, 3, 1, CalendarUnit::Minutes, "UTC");
        ScopedLimiter first(s);
        RedisConnection& c = first.connection();
        const qint64 t = ms("2024-05-01T10:16:30.000Z");
        QVERIFY(first->decide(c, Request{t, QStringLiteral("a"), 3}).allowed);
        QVERIFY(first->decide(c, Request{t, QStringLiteral("b"), 3}).allowed);
        const auto& fw = static_cast<const FixedWindowLimiter&>(*first);
        RedisReply counter =
            c.command({"GET", fw.counterKey(ms("2024-05-01T10:16:00.000Z"), QStringLiteral("a"))});
        QCOMPARE(replyString(counter.get(), "counter"), std::string("3"));

        s.rate = 4;
        const auto changed = makeLimiter(s);
        const Decision d = changed->decide(c, Request{t + 1, QStringLiteral("a"), 1});
        QVERIFY(d.configReset);
        QCOMPARE(d.remaining, 3);
        // The other client's counter went too.
        QCOMPARE(changed->decide(c, Request{t + 2, QStringLiteral("b"), 4}).allowed, true);
    }

    // Issue 16 item 8: the index is state another writer may touch. Whatever it lists, a config
    // change deletes only this limiter's own counters, never a key outside its hash tag.
    void resetSparesForeignIndexEntries_data() {
        QTest::addColumn<QString>("foreign");
        QTest::newRow("outside the hash tag") << uniqueName(QStringLiteral("victim"));
        QTest::newRow("another limiter's counter")
            << QStringLiteral("{%1}:fw:1000").arg(uniqueName(QStringLiteral("other")));
    }
    void resetSparesForeignIndexEntries() {
        QFETCH(QString, foreign);
        const std::string victim = foreign.toStdString();
        LimiterSpec s = spec(Scope::Global, 3, 1, CalendarUnit::Minutes, "UTC");
        ScopedLimiter first(s);
        RedisConnection& c = first.connection();
        const qint64 t = ms("2024-05-01T10:16:30.000Z");
        QVERIFY(first->decide(c, Request{t, QString(), 1}).allowed);
        expectStatusOk(c.command({"SET", victim, "precious"}).get(), "SET");
        const auto& fw = static_cast<const FixedWindowLimiter&>(*first);
        c.command({"ZADD", fw.indexKey(), std::to_string(t + 3'600'000), victim});

        s.rate = 4;
        const auto changed = makeLimiter(s);
        QVERIFY(changed->decide(c, Request{t + 1, QString(), 1}).configReset);
        RedisReply kept = c.command({"GET", victim});
        c.command({"DEL", victim});
        QCOMPARE(kept->type, REDIS_REPLY_STRING);
        QCOMPARE(replyString(kept.get(), "GET"), std::string("precious"));
    }
};

QTEST_GUILESS_MAIN(TestFixedWindow)
#include "tst_fixed_window.moc"
