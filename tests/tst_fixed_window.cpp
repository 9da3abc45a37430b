// Natural-calendar fixed window on a real Redis against the reference model.
#include <QtTest>

#include "limiters/fixed_window_limiter.h"
#include "limiters/limiter_state.h"
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
        QVERIFY(test::decide(c, *limiter, Request{t, QString(), 2}).allowed);
        const Decision d = test::decide(c, *limiter, Request{t + 1000, QString(), 1});
        QVERIFY(!d.allowed);
        QCOMPARE(d.retryAfterMs, ms("2024-05-01T10:30:00.000Z") - (t + 1000));
        QCOMPARE(d.remaining, 0);
        QVERIFY(test::decide(c, *limiter, Request{ms("2024-05-01T10:30:00.000Z"), QString(), 1})
                    .allowed);
    }

    // Counters are keyed by window start; a changed rate resets them and says so.
    void configChangeResetsCounters() {
        LimiterSpec s = spec(Scope::PerClient, 3, 1, CalendarUnit::Minutes, "UTC");
        ScopedLimiter first(s);
        RedisConnection& c = first.connection();
        const qint64 t = ms("2024-05-01T10:16:30.000Z");
        QVERIFY(test::decide(c, *first, Request{t, QStringLiteral("a"), 3}).allowed);
        QVERIFY(test::decide(c, *first, Request{t, QStringLiteral("b"), 3}).allowed);
        const auto& fw = static_cast<const FixedWindowLimiter&>(*first);
        RedisReply counter =
            c.command({"GET", fw.counterKey(ms("2024-05-01T10:16:00.000Z"), QStringLiteral("a"))});
        QCOMPARE(replyString(counter.get(), "counter"), std::string("3"));

        s.rate = 4;
        const auto changed = makeLimiter(s);
        const Decision d = test::decide(c, *changed, Request{t + 1, QStringLiteral("a"), 1});
        QVERIFY(d.configReset);
        QCOMPARE(d.remaining, 3);
        // The other client's counter went too.
        QCOMPARE(test::decide(c, *changed, Request{t + 2, QStringLiteral("b"), 4}).allowed, true);
    }

    // A config change deletes only this limiter's own counters, never a key outside its hash tag,
    // nor one a glob of its unescaped name would match.
    void resetSparesForeignKeys_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("foreign");
        const QString plain = uniqueName(QStringLiteral("fw"));
        QTest::newRow("outside the hash tag") << plain << uniqueName(QStringLiteral("victim"));
        QTest::newRow("another limiter's counter")
            << plain << QStringLiteral("{%1}:fw:1000").arg(uniqueName(QStringLiteral("other")));
        QTest::newRow("a name the unescaped glob matches")
            << plain + QStringLiteral("[ab]*") << QStringLiteral("{%1axyz}:fw:1000").arg(plain);
    }
    void resetSparesForeignKeys() {
        QFETCH(QString, name);
        QFETCH(QString, foreign);
        const std::string victim = foreign.toStdString();
        LimiterSpec s = spec(Scope::Global, 3, 1, CalendarUnit::Minutes, "UTC");
        s.name = name;
        ScopedLimiter first(s);
        RedisConnection& c = first.connection();
        const qint64 t = ms("2024-05-01T10:16:30.000Z");
        QVERIFY(test::decide(c, *first, Request{t, QString(), 1}).allowed);
        expectStatusOk(c.command({"SET", victim, "precious"}).get(), "SET");

        s.rate = 4;
        const auto changed = makeLimiter(s);
        QVERIFY(test::decide(c, *changed, Request{t + 1, QString(), 1}).configReset);
        RedisReply kept = c.command({"GET", victim});
        c.command({"DEL", victim});
        QCOMPARE(kept->type, REDIS_REPLY_STRING);
        QCOMPARE(replyString(kept.get(), "GET"), std::string("precious"));
    }

    // A config change deletes every counter of the old config (every window still alive, every
    // client) and keeps the new grant's; the same config again finds nothing to reset.
    void resetDeletesOldCounters() {
        LimiterSpec s = spec(Scope::PerClient, 5, 1, CalendarUnit::Minutes, "UTC");
        ScopedLimiter first(s);
        RedisConnection& c = first.connection();
        const auto& fw = static_cast<const FixedWindowLimiter&>(*first);
        const qint64 t = ms("2024-05-01T10:16:30.000Z");
        std::vector<std::string> old;
        for (const qint64 at : {t - 60'000, t}) {
            for (const char* client : {"a", "b", "c"}) {
                QVERIFY(
                    test::decide(c, *first, Request{at, QString::fromLatin1(client), 2}).allowed);
                old.push_back(
                    fw.counterKey(fw.windows().windowAt(at).startMs, QString::fromLatin1(client)));
            }
        }
        auto exists = [&c](const std::string& key) {
            RedisReply r = c.command({"EXISTS", key});
            return replyInteger(r.get(), "EXISTS") == 1;
        };
        for (const std::string& key : old) {
            QVERIFY2(exists(key), key.c_str());
        }

        s.interval = 2;
        const auto changed = makeLimiter(s);
        const auto& fw2 = static_cast<const FixedWindowLimiter&>(*changed);
        const Decision d = test::decide(c, *changed, Request{t + 1, QStringLiteral("a"), 1});
        QVERIFY(d.allowed);
        QVERIFY(d.configReset);
        QCOMPARE(d.remaining, 4);
        for (const std::string& key : old) {
            QVERIFY2(!exists(key), key.c_str());
        }
        const std::string kept =
            fw2.counterKey(fw2.windows().windowAt(t + 1).startMs, QStringLiteral("a"));
        QVERIFY(kept != old.back());
        QVERIFY(exists(kept));
        QVERIFY(!test::decide(c, *changed, Request{t + 2, QStringLiteral("b"), 1}).configReset);
    }

    // The config is checked by a limiter's first decision, not by every window's first grant
    // (one HGET a window was a tenth of a quiet window's cost): with the config hash gone, the
    // next window's first grant does not bring it back; another limiter's first decision does.
    void configCheckedByTheFirstDecision() {
        const LimiterSpec s = spec(Scope::Global, 3, 1, CalendarUnit::Minutes, "UTC");
        ScopedLimiter first(s);
        RedisConnection& c = first.connection();
        const auto& fw = static_cast<const FixedWindowLimiter&>(*first);
        auto configExists = [&] {
            return replyInteger(c.command({"EXISTS", fw.configKey()}).get(), "EXISTS") == 1;
        };
        const qint64 t = ms("2024-05-01T10:16:30.000Z");
        QVERIFY(test::decide(c, *first, Request{t, QString(), 1}).allowed);
        QVERIFY(configExists());
        c.command({"DEL", fw.configKey()});
        QVERIFY(test::decide(c, *first, Request{t + 60'000, QString(), 1}).allowed);
        QVERIFY(!configExists());
        const auto again = makeLimiter(s);
        const Decision d = test::decide(c, *again, Request{t + 60'001, QString(), 1});
        QVERIFY(d.allowed);
        QVERIFY(!d.configReset);  // no config to differ from
        QCOMPARE(d.remaining, 1);
        QVERIFY(configExists());
    }

    // Every decision of a window sends the same arguments: the counter's TTL is the window's
    // length + grace, not what is left of it. Lua keeps one copy of a string it has seen, so a
    // TTL that changed with every request cost each decision a new string (4 % of a quiet
    // window's server time); a counter created late in its window lives up to one window longer.
    void argumentsStayTheSameInAWindow_data() {
        QTest::addColumn<qint64>("interval");
        QTest::addColumn<CalendarUnit>("unit");
        QTest::addColumn<QByteArray>("zone");
        QTest::addColumn<QString>("start");
        QTest::addColumn<QString>("end");
        QTest::newRow("a second") << qint64(1) << CalendarUnit::Seconds << QByteArray("UTC")
                                  << "2024-05-01T10:16:30.000Z"
                                  << "2024-05-01T10:16:31.000Z";
        QTest::newRow("an hour in Kolkata")
            << qint64(1) << CalendarUnit::Hours << QByteArray("Asia/Kolkata")
            << "2024-05-01T09:30:00.000Z"
            << "2024-05-01T10:30:00.000Z";
        QTest::newRow("March in Berlin, an hour short")
            << qint64(1) << CalendarUnit::Months << QByteArray("Europe/Berlin")
            << "2024-02-29T23:00:00.000Z"
            << "2024-03-31T22:00:00.000Z";
    }

    void argumentsStayTheSameInAWindow() {
        QFETCH(qint64, interval);
        QFETCH(CalendarUnit, unit);
        QFETCH(QByteArray, zone);
        QFETCH(QString, start);
        QFETCH(QString, end);
        const auto limiter = makeLimiter(spec(Scope::Global, 3, interval, unit, zone));
        const qint64 startMs = ms(start.toLatin1().constData());
        const qint64 endMs = ms(end.toLatin1().constData());
        const ScriptCall first = limiter->prepare(Request{startMs, QString(), 1});
        const ScriptCall last = limiter->prepare(Request{endMs - 1, QString(), 1});
        QCOMPARE(last.keys, first.keys);
        QCOMPARE(last.args, first.args);
        QCOMPARE(first.args.at(0), std::to_string(endMs - startMs + kStateGraceMs));
        QCOMPARE(last.refusedRetryMs, 1);
    }

    // Every ARGV element costs Redis a part of the table it builds for the script: once the
    // config is checked, a decision of one permit sends the counter's TTL alone; the config
    // check and larger requests send the permits and the rate too.
    void onePermitSendsTheTtlAlone() {
        ScopedLimiter limiter(spec(Scope::Global, 3, 1, CalendarUnit::Seconds, "UTC"));
        RedisConnection& c = limiter.connection();
        const qint64 t = ms("2024-05-01T10:16:30.000Z");
        const ScriptCall checking = limiter->prepare(Request{t, QString(), 1});
        QCOMPARE(checking.keys.size(), size_t(2));
        QCOMPARE(checking.args, (RedisArgs{"2000", "1", "3"}));
        QVERIFY(test::decide(c, *limiter, Request{t, QString(), 1}).allowed);
        const ScriptCall one = limiter->prepare(Request{t + 1, QString(), 1});
        QCOMPARE(one.keys.size(), size_t(1));
        QCOMPARE(one.args, RedisArgs{"2000"});
        QCOMPARE(limiter->prepare(Request{t + 1, QString(), 2}).args,
                 (RedisArgs{"2000", "2", "3"}));
        for (int i = 2; i <= 3; ++i) {
            const Decision d = test::decide(c, *limiter, Request{t + i, QString(), 1});
            QVERIFY(d.allowed);
            QCOMPARE(d.remaining, 3 - i);
        }
        const Decision d = test::decide(c, *limiter, Request{t + 4, QString(), 1});
        QVERIFY(!d.allowed);
        QCOMPARE(d.retryAfterMs, 1000 - 4);
    }

    // A changed config found by a refusal (permits above the new rate) is reported too.
    void refusalReportsTheReset() {
        LimiterSpec s = spec(Scope::Global, 3, 1, CalendarUnit::Minutes, "UTC");
        ScopedLimiter first(s);
        RedisConnection& c = first.connection();
        const qint64 t = ms("2024-05-01T10:16:30.000Z");
        QVERIFY(test::decide(c, *first, Request{t, QString(), 2}).allowed);
        s.rate = 2;
        const auto changed = makeLimiter(s);
        const Decision d = test::decide(c, *changed, Request{t + 1, QString(), 3});
        QVERIFY(!d.allowed);
        QCOMPARE(d.retryAfterMs, -1);
        QCOMPARE(d.remaining, 2);
        QVERIFY(d.configReset);
    }

    // A full window's refusals are not taken back (one INCRBY each): the counter stands above
    // rate, the decisions and remaining stay exact, and the state read still shows rate.
    void fullWindowStaysExact() {
        ScopedLimiter limiter(spec(Scope::Global, 3, 1, CalendarUnit::Minutes, "UTC"));
        RedisConnection& c = limiter.connection();
        const qint64 t = ms("2024-05-01T10:16:30.000Z");
        QCOMPARE(test::decide(c, *limiter, Request{t, QString(), 2}).remaining, 1);
        // Room for 1, not 2: refused and taken back, so the 1 still fits afterwards.
        Decision d = test::decide(c, *limiter, Request{t + 1, QString(), 2});
        QVERIFY(!d.allowed);
        QCOMPARE(d.remaining, 1);
        QCOMPARE(d.retryAfterMs, ms("2024-05-01T10:17:00.000Z") - (t + 1));
        QCOMPARE(d.atMs, t + 1);
        d = test::decide(c, *limiter, Request{t + 2, QString(), 1});
        QVERIFY(d.allowed);
        QCOMPARE(d.remaining, 0);
        for (int i = 0; i < 5; ++i) {
            d = test::decide(c, *limiter, Request{t + 3 + i, QString(), 1 + i % 2});
            QVERIFY(!d.allowed);
            QCOMPARE(d.remaining, 0);
            QCOMPARE(d.retryAfterMs, ms("2024-05-01T10:17:00.000Z") - (t + 3 + i));
        }
        // More permits than the rate never fit: retry -1, remaining read without counting.
        d = test::decide(c, *limiter, Request{t + 10, QString(), 4});
        QVERIFY(!d.allowed);
        QCOMPARE(d.retryAfterMs, -1);
        QCOMPARE(d.remaining, 0);
        const LimiterState state = readLimiterChartState(c, *limiter, t + 11);
        QCOMPARE(state.windows.size(), 1);
        QCOMPARE(state.windows[0].count, 3);
        QVERIFY(test::decide(c, *limiter, Request{ms("2024-05-01T10:17:00.000Z"), QString(), 3})
                    .allowed);
    }
};

QTEST_GUILESS_MAIN(TestFixedWindow)
#include "tst_fixed_window.moc"
