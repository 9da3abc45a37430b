// Hunting a script limiter (the user's own Lua): `agree` compares it with its own "reference"
// when no --reference is given, its counterexample's regression.json finds the script from the
// folder it is written to, and a script on Redis's own clock has its trace paced in real time.
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include "hunt/scratch_names.h"
#include "hunt/trace_decider.h"
#include "limiters/decision.h"
#include "limiters/limiter_spec.h"
#include "support/cli_process.h"
#include "support/test_files.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// A sliding log keyed by time alone, as teams write it: grants in one millisecond collapse
// into one member, so a burst inside a millisecond passes the limit.
const QByteArray kLogByTime = R"(
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count >= limit then
    return {0, 0, window}
end
redis.call('ZADD', KEYS[1], now, now)
redis.call('PEXPIRE', KEYS[1], window)
return {1, limit - count - 1, 0}
)";

// The spec of that script with its own reference, the log it claims to implement.
QByteArray logSpec(const QString& script) {
    return QStringLiteral(R"({"type": "script", "name": "log-by-time", "scope": "per_client",
        "script": "%1", "keys": ["{{{name}}}:log:{client}"], "args": ["{now_ms}", "3", "1000"],
        "reply": {"allowed": "1", "index": 0, "remaining": 1, "retry_after_ms": 2},
        "reference": {"type": "sliding_window", "rules": [{"limit": 3, "window_ms": 1000}]}})")
        .arg(script)
        .toUtf8();
}

}  // namespace

class TestHuntScripts : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // No --reference: the script's own reference is what agree compares with (a hunt without
    // one was refused: "--property agree: needs a reference"), and the default property.
    void agreeWithTheScriptsOwnReference_data() {
        QTest::addColumn<QStringList>("options");
        QTest::newRow("default property") << QStringList();
        QTest::newRow("--property agree")
            << QStringList{QStringLiteral("--property"), QStringLiteral("agree")};
    }
    void agreeWithTheScriptsOwnReference() {
        QFETCH(QStringList, options);
        const QString specs = dir_.filePath(QStringLiteral("specs"));
        QVERIFY(QDir().mkpath(specs));
        writeTestFileIn(specs, QStringLiteral("log_by_time.lua"), kLogByTime);
        const QString spec = writeTestFileIn(specs, QStringLiteral("log-by-time.json"),
                                             logSpec(QStringLiteral("log_by_time.lua")));
        const QString out = dir_.filePath(QStringLiteral("out-%1").arg(QString::fromUtf8(QTest::currentDataTag())));
        const CliResult r =
            runRatelab(QStringList{QStringLiteral("hunt"), spec, QStringLiteral("--traces"),
                                   QStringLiteral("300"), QStringLiteral("--out"), out} +
                       options);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.startsWith("counterexample: agree breaks at row "), r.out.constData());
        QVERIFY2(r.out.contains("the reference (sliding window) refuses"), r.out.constData());

        // The regression check runs the user's script from the folder it was written to, and
        // fails while the defect lasts.
        const CliResult run =
            runRatelab({QStringLiteral("run"), out + QStringLiteral("/regression.json"),
                        QStringLiteral("--out"), out + QStringLiteral("/run")});
        QVERIFY2(run.exitCode == 1, run.err.constData());
        QVERIFY2(run.out.contains("verdict: failed"), run.out.constData());
    }

    // "clock": "redis": the script's window is a TTL on Redis's clock, so the hunt paces its
    // trace in real time. Two rows 400 ms apart under a window of 300 ms: the second is granted
    // only once the first's key has expired on Redis's clock (in unpaced virtual time the key was
    // still there and the second was refused).
    void redisClockScriptIsPacedInRealTime() {
        QByteArray json = R"({"type": "script", "name": "incr", "scope": "per_client",
            "script": {"inline": "local c = redis.call('INCR', KEYS[1]) if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end if c > tonumber(ARGV[1]) then return {0, 0, redis.call('PTTL', KEYS[1])} end return {1, tonumber(ARGV[1]) - c, 0}"},
            "keys": ["{{{name}}}:count:{client}"], "args": ["1", "300"],
            "reply": {"allowed": "1", "index": 0, "remaining": 1, "retry_after_ms": 2},
            "clock": "redis"})";
        const LimiterSpec limiter = parseLimiterSpecJson(json);
        Trace trace;
        trace.append(TraceRow{1'700'000'000'000, QStringLiteral("a"), 1, 1});
        trace.append(TraceRow{1'700'000'000'400, QStringLiteral("a"), 1, 2});
        ScratchNames names;
        TraceDecider decider(fixtureUrl(), {}, names);
        QElapsedTimer elapsed;
        elapsed.start();
        const std::vector<std::vector<Decision>> decided = decider.decide({limiter}, trace);
        QVERIFY(elapsed.elapsed() >= 400);  // paced: never sooner than the trace's span
        QVERIFY(decided[0][0].allowed);
        QVERIFY2(decided[0][1].allowed, "the first row's key outlived its TTL: not paced");
        names.deleteKeys(*routeFixture());
    }
};

QTEST_GUILESS_MAIN(TestHuntScripts)
#include "tst_hunt_scripts.moc"
