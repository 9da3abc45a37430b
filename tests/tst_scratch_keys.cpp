// Scratch keys (explain's replay and probes, a step session's explanations, a sweep's
// combinations) live at most an hour and go on every way a command ends. Failed before: their
// config keys had no TTL (79 left by an interrupted sweep), a counterfactual probe of a token
// bucket's interval kept its keys about two years, and an interrupted sweep or explanation
// stopped deleting at the first SCAN.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <atomic>

#include "explain/decision_explainer.h"
#include "limiters/limiter.h"
#include "limiters/scratch_keys.h"
#include "redis/local_redis_server.h"
#include "redis/redis_reply.h"
#include "redis/redis_scan.h"
#include "support/test_files.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

constexpr qint64 kHourMs = 3600LL * 1000;

// Every key on `c` matching `pattern`, with its TTL in ms (-1: none).
QMap<QString, qint64> keyTtls(RedisConnection& c, const std::string& pattern) {
    QMap<QString, qint64> out;
    std::string cursor = "0";
    do {
        RedisReply page = c.command({"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"});
        cursor = replyString(page->element[0], "SCAN");
        for (std::size_t i = 0; i < page->element[1]->elements; ++i) {
            const std::string key = replyString(page->element[1]->element[i], "SCAN");
            out.insert(QString::fromStdString(key),
                       replyInteger(c.command({"PTTL", key}).get(), "PTTL"));
        }
    } while (cursor != "0");
    out.remove(QString());
    return out;
}

// Explains `request` of `limiter` as a step does: the explainer around the decision.
void explainOne(DecisionExplainer& explainer, RedisRouter& router, const Limiter& limiter,
                const Request& request) {
    explainer.before(request);
    explainer.after(request, test::decide(router, limiter, request), false, 0, 0);
}

// The keys among `ttls` that live longer than an hour or have no TTL, one a line.
QString overAnHour(const QMap<QString, qint64>& ttls) {
    QStringList bad;
    for (auto it = ttls.cbegin(); it != ttls.cend(); ++it) {
        if (it.value() == -1 || it.value() > kHourMs) {
            bad << QStringLiteral("%1 %2").arg(it.key()).arg(it.value());
        }
    }
    return bad.join(QLatin1Char('\n'));
}

// A scenario of a long schedule (a million requests, seconds to walk) on `spec`, on a virtual
// clock; with `vary`, a sweep of eight values of that field.
QByteArray longScenario(const QString& spec, const QString& vary = QString()) {
    const QString sweep =
        vary.isEmpty() ? QString()
                       : QStringLiteral(R"(, "sweep": {"vary": {"%1": [1, 2, 3, 4, 5, 6, 7, 8]},
                                            "maximize": "accepted"})")
                             .arg(vary);
    return QStringLiteral(R"({"name": "scratch", "limiters": [%1], "traffic": {"shape":
        {"type": "constant", "rate": 2000}, "duration_s": 500, "clients": 50, "clock":
        {"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": 0}}%2})")
        .arg(spec, sweep)
        .toUtf8();
}

const QString kDayBucket = QStringLiteral(
    R"({"type": "token_bucket", "name": "scr", "scope": "per_client", "rate": 5,
        "interval_ms": 86400000})");

}  // namespace

class TestScratchKeys : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    QString write(const QString& name, const QByteArray& content) {
        return writeTestFileIn(dir_.path(), name, content);
    }

    // Starts `ratelab args` against `server` and waits until its keys are in Redis.
    static void startAndWaitForKeys(QProcess& p, const QStringList& args,
                                    LocalRedisServer& server) {
        p.setProgram(qEnvironmentVariable("RATELAB_BIN"));
        p.setArguments(QStringList(args)
                       << QStringLiteral("--redis") << server.url().toDisplayString());
        p.start();
        QVERIFY(p.waitForStarted());
        RedisConnection c(server.url());
        QTRY_VERIFY_WITH_TIMEOUT(replyInteger(c.command({"DBSIZE"}).get(), "DBSIZE") > 0 ||
                                     p.state() == QProcess::NotRunning,
                                 60000);
        QVERIFY2(p.state() == QProcess::Running, p.readAllStandardError().constData());
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // The keys an explanation's probes write, kept (as a step session keeps them until it is
    // left) and read: every one lives an hour at most, its config keys too.
    void explanationKeysExpireWithinAnHour_data() {
        QTest::addColumn<QString>("spec");
        QTest::newRow("token bucket, a day")
            << R"({"type": "token_bucket", "name": "x", "scope": "per_client", "rate": 2,
                   "interval_ms": 86400000})";
        QTest::newRow("fixed window, a day")
            << R"({"type": "fixed_window", "name": "x", "scope": "per_client", "rate": 2,
                   "interval": 1, "unit": "days", "timezone": "UTC"})";
        QTest::newRow("sliding window, a day")
            << R"({"type": "sliding_window", "name": "x", "scope": "per_client",
                   "rules": [{"limit": 2, "window_ms": 86400000}]})";
        QTest::newRow("gcra, a day")
            << R"({"type": "gcra", "name": "x", "scope": "per_client", "rate": 1,
                   "period_ms": 86400000, "burst": 2})";
        QTest::newRow("gcra redis_rate, a day")
            << R"({"type": "gcra", "name": "x", "scope": "per_client", "rate": 1,
                   "period_ms": 86400000, "burst": 2, "flavor": "redis_rate"})";
        QTest::newRow("leaky bucket, a day")
            << R"({"type": "leaky_bucket", "name": "x", "scope": "per_client", "rate": 1,
                   "period_ms": 86400000, "burst": 1})";
        QTest::newRow("sliding counter, a day")
            << R"({"type": "sliding_counter", "name": "x", "scope": "per_client", "limit": 2,
                   "window_ms": 86400000})";
        QTest::newRow("sliding counter upstash, a day")
            << R"({"type": "sliding_counter", "name": "x", "scope": "per_client", "limit": 2,
                   "window_ms": 86400000, "flavor": "upstash"})";
        QTest::newRow("concurrency, a day")
            << R"({"type": "concurrency", "name": "x", "scope": "per_client", "limit": 2,
                   "lease_ms": 86400000})";
    }
    void explanationKeysExpireWithinAnHour() {
        QFETCH(QString, spec);
        LimiterSpec s = parseLimiterSpecJson(spec.toUtf8());
        s.name = uniqueName(QStringLiteral("scr"));
        ScopedLimiter limiter(s);
        RedisRouter& router = limiter.router();
        const QString base = explainScratchBase();
        std::vector<LimiterSpec> scratch;
        {
            DecisionExplainer explainer(router, *limiter, s.name, base, false);
            // Two grants, then a refusal: its counterfactuals decide on probes of every field.
            for (qint64 t : {1000, 2000, 3000}) {
                explainOne(explainer, router, *limiter,
                           Request{1'704'067'200'000 + t, QStringLiteral("a"), 1});
            }
            scratch = explainer.scratchLimiters();
        }
        QMap<QString, qint64> ttls;
        for (const LimiterSpec& one : scratch) {
            const auto made = makeLimiter(one);
            RedisConnection& c = router.connectionForSlot(made->slot());
            ttls.insert(keyTtls(c, made->scanPattern()));
            for (const std::string& key : made->exactKeys()) {
                ttls.insert(keyTtls(c, escapeGlob(key)));
            }
        }
        const QString bad = overAnHour(ttls);
        for (const LimiterSpec& one : scratch) {
            makeLimiter(one)->reset(router);
        }
        QVERIFY2(!ttls.isEmpty(), "no scratch keys written");
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
    }

    // A scratch run longer than its keys' capped TTLs (half an hour) keeps them: the keep-alive
    // sets every key of its limiters, config keys too, to live the whole hour again.
    void keepAliveExtendsEveryKey() {
        LimiterSpec s = parseLimiterSpecJson(kDayBucket.toUtf8());
        s.name = uniqueName(QStringLiteral("scr"));
        const auto limiter = makeLimiter(s, scratchOptions());
        auto router = routeFixture();
        RedisConnection& c = router->connectionForSlot(limiter->slot());
        for (const char* client : {"a", "b"}) {
            QVERIFY(
                decide(*router, *limiter, Request{1000, QString::fromLatin1(client), 1}).allowed);
        }
        QMap<QString, qint64> ttls = keyTtls(c, limiter->scanPattern());
        ttls.insert(keyTtls(c, escapeGlob(limiter->exactKeys().front())));
        const int count = ttls.size();  // the config hash, and per client its value and grants
        QCOMPARE(count, 5);
        ScratchKeepAlive keepAlive(std::chrono::milliseconds(0));
        QVERIFY(keepAlive.due());
        keepAlive.keep(*router, {limiter.get()});
        ttls = keyTtls(c, limiter->scanPattern());
        ttls.insert(keyTtls(c, escapeGlob(limiter->exactKeys().front())));
        limiter->reset(*router);
        QCOMPARE(ttls.size(), count);
        for (auto it = ttls.cbegin(); it != ttls.cend(); ++it) {
            QVERIFY2(it.value() > kScratchKeyTtlMs / 2 && it.value() <= kScratchKeyTtlMs,
                     qPrintable(QStringLiteral("%1 %2").arg(it.key()).arg(it.value())));
        }
    }

    // After an interrupt (the command line's signals set the flag) an explanation still
    // deletes its scratch keys.
    void explanationDeletesItsKeysAfterAnInterrupt() {
        LimiterSpec s = parseLimiterSpecJson(kDayBucket.toUtf8());
        s.name = uniqueName(QStringLiteral("scr"));
        ScopedLimiter limiter(s);
        RedisRouter& router = limiter.router();
        std::vector<LimiterSpec> scratch;
        std::atomic<bool> interrupt{false};
        {
            DecisionExplainer explainer(router, *limiter, s.name, explainScratchBase(), true);
            for (qint64 t : {1000, 2000, 3000, 4000, 5000, 6000}) {
                explainOne(explainer, router, *limiter,
                           Request{1'704'067'200'000 + t, QStringLiteral("a"), 1});
            }
            scratch = explainer.scratchLimiters();
            RedisConnection::setInterruptFlag(&interrupt);
            interrupt = true;
        }
        RedisConnection::setInterruptFlag(nullptr);
        for (const LimiterSpec& one : scratch) {
            const auto made = makeLimiter(one);
            RedisConnection& c = router.connectionForSlot(made->slot());
            QCOMPARE(keyTtls(c, made->scanPattern()).size(), 0);
            for (const std::string& key : made->exactKeys()) {
                QCOMPARE(replyInteger(c.command({"EXISTS", key}).get(), "EXISTS"), 0LL);
            }
        }
    }

    // A sweep stopped by SIGTERM (SIGINT and SIGHUP alike) deletes its combinations' keys; one
    // killed leaves keys that live an hour at most. A private server: its keys are the sweep's.
    void interruptedSweepDeletesItsKeys_data() {
        QTest::addColumn<bool>("kill");
        QTest::newRow("SIGTERM") << false;
        QTest::newRow("SIGKILL") << true;
    }
    void interruptedSweepDeletesItsKeys() {
        QFETCH(bool, kill);
        LocalRedisServer server;
        server.start();
        const QString file = write(QStringLiteral("sweep.json"),
                                   longScenario(kDayBucket, QStringLiteral("scr.rate")));
        QProcess p;
        startAndWaitForKeys(p,
                            {QStringLiteral("sweep"), file, QStringLiteral("--out"),
                             dir_.filePath(QStringLiteral("sweep"))},
                            server);
        if (QTest::currentTestFailed()) {
            return;
        }
        kill ? p.kill() : p.terminate();
        QVERIFY(p.waitForFinished(30000));
        RedisConnection c(server.url());
        const QMap<QString, qint64> left = keyTtls(c, "*");
        if (kill) {
            QVERIFY(!left.isEmpty());
            QVERIFY2(overAnHour(left).isEmpty(), qPrintable(overAnHour(left)));
        } else {
            QCOMPARE(p.exitCode(), 143);
            QVERIFY2(left.isEmpty(), qPrintable(QStringList(left.keys()).join(u' ')));
        }
    }

    // An explanation killed while it replays the schedule leaves keys of an hour at most.
    void killedExplanationLeavesKeysOfAnHourAtMost_data() {
        QTest::addColumn<QString>("spec");
        QTest::newRow("token bucket") << kDayBucket;
        QTest::newRow("fixed window")
            << R"({"type": "fixed_window", "name": "scr", "scope": "per_client", "rate": 5,
                   "interval": 1, "unit": "days", "timezone": "UTC"})";
        QTest::newRow("gcra")
            << R"({"type": "gcra", "name": "scr", "scope": "per_client", "rate": 1,
                   "period_ms": 86400000, "burst": 5})";
        QTest::newRow("leaky bucket")
            << R"({"type": "leaky_bucket", "name": "scr", "scope": "per_client", "rate": 1,
                   "period_ms": 86400000, "burst": 5})";
        QTest::newRow("sliding counter")
            << R"({"type": "sliding_counter", "name": "scr", "scope": "per_client", "limit": 5,
                   "window_ms": 86400000})";
    }
    void killedExplanationLeavesKeysOfAnHourAtMost() {
        QFETCH(QString, spec);
        LocalRedisServer server;
        server.start();
        const QString file = write(QStringLiteral("explain.json"), longScenario(spec));
        QProcess p;
        startAndWaitForKeys(
            p,
            {QStringLiteral("explain"), file, QStringLiteral("--limiter"), QStringLiteral("scr"),
             QStringLiteral("--request"), QStringLiteral("999000")},
            server);
        if (QTest::currentTestFailed()) {
            return;
        }
        p.kill();
        QVERIFY(p.waitForFinished(30000));
        RedisConnection c(server.url());
        const QMap<QString, qint64> left = keyTtls(c, "*");
        QVERIFY(!left.isEmpty());
        QVERIFY2(overAnHour(left).isEmpty(), qPrintable(overAnHour(left)));
    }
};

QTEST_GUILESS_MAIN(TestScratchKeys)
#include "tst_scratch_keys.moc"
