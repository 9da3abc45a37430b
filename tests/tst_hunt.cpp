// The hunt on the fixture Redis: it finds what breaks a limiter, shrinks it to a 1-minimal
// trace (checked here by removing each row and deciding again), gives the same answer for the
// same seed, touches only its own scratch keys, and its regression check fails now.
#include <QtTest>

#include "hunt/hunt.h"
#include "hunt/hunt_corners.h"
#include "hunt/scratch_names.h"
#include "hunt/trace_decider.h"
#include "hunt/violation_text.h"
#include "limiters/limiter_spec.h"
#include "redis/redis_reply.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

LimiterSpec spec(const char* json) {
    return parseLimiterSpecJson(QByteArray(json));
}

// A reference as `ratelab hunt --reference` makes it: the limiter's scope, a name of its own.
LimiterSpec referenceFor(const LimiterSpec& limiter, const char* json) {
    LimiterSpec reference = spec(json);
    reference.scope = limiter.scope;
    return reference;
}

QString rowsText(const Trace& trace) {
    QStringList rows;
    for (const TraceRow& row : trace) {
        rows << QStringLiteral("%1,%2,%3").arg(row.tMs).arg(row.client).arg(row.permits);
    }
    return rows.join(QLatin1Char(' '));
}

Trace without(const Trace& trace, qsizetype row) {
    Trace out;
    for (qsizetype i = 0; i < trace.size(); ++i) {
        if (i != row) {
            out.append(trace[i]);
        }
    }
    return out;
}

}  // namespace

class TestHunt : public QObject {
    Q_OBJECT

private slots:
    void findsAndShrinksToOneMinimal_data() {
        QTest::addColumn<QByteArray>("limiter");
        QTest::addColumn<QByteArray>("reference");
        QTest::addColumn<int>("property");
        QTest::addColumn<int>("maxRows");
        // A fixed window lets twice its rate through across a boundary; the log does not.
        QTest::newRow("fixed window against the log")
            << QByteArray(R"({"type": "fixed_window", "name": "fw", "rate": 3, "interval": 1,
                              "unit": "seconds", "timezone": "UTC"})")
            << QByteArray(R"({"type": "sliding_window", "name": "r",
                              "rules": [{"limit": 3, "window_ms": 1000}]})")
            << int(HuntProperty::Agree) << 4;
        // The counter's estimate against the log it approximates.
        QTest::newRow("counter against the log")
            << QByteArray(R"({"type": "sliding_counter", "name": "sc", "scope": "per_client",
                              "limit": 4, "window_ms": 1000})")
            << QByteArray(R"({"type": "sliding_window", "name": "r",
                              "rules": [{"limit": 4, "window_ms": 1000}]})")
            << int(HuntProperty::Agree) << 5;
        // The library flavors against their exact forms.
        QTest::newRow("upstash against exact")
            << QByteArray(R"({"type": "sliding_counter", "name": "up", "limit": 10,
                              "window_ms": 1000, "flavor": "upstash"})")
            << QByteArray(R"({"type": "sliding_counter", "name": "r", "limit": 10,
                              "window_ms": 1000})")
            << int(HuntProperty::Agree) << 2;
        QTest::newRow("redis_rate against exact")
            << QByteArray(R"({"type": "gcra", "name": "rr", "rate": 10, "period_ms": 1000,
                              "burst": 2, "flavor": "redis_rate"})")
            << QByteArray(R"({"type": "gcra", "name": "r", "rate": 10, "period_ms": 1000,
                              "burst": 2})")
            << int(HuntProperty::Agree) << 2;
        // redis_rate's retry for more permits than the burst is positive, not -1 (never).
        QTest::newRow("redis_rate's retry") << QByteArray(R"({"type": "gcra", "name": "rr",
                                                           "rate": 10, "period_ms": 1000,
                                                           "burst": 2, "flavor": "redis_rate"})")
                                            << QByteArray() << int(HuntProperty::Retry) << 1;
    }

    void findsAndShrinksToOneMinimal() {
        QFETCH(QByteArray, limiter);
        QFETCH(QByteArray, reference);
        QFETCH(int, property);
        QFETCH(int, maxRows);
        HuntConfig config;
        config.limiter = spec(limiter.constData());
        if (!reference.isEmpty()) {
            config.reference = referenceFor(config.limiter, reference.constData());
        }
        config.properties = {HuntProperty(property)};
        config.traces = 3000;
        const HuntResult result = Hunt(config, fixtureUrl()).run();
        QVERIFY(result.counterexample);
        const Counterexample& c = *result.counterexample;
        QVERIFY(c.minimal);
        const Violation& v = *c.checked.violation;
        QCOMPARE(int(v.property), property);
        QVERIFY2(c.trace.size() <= maxRows, qPrintable(rowsText(c.trace)));
        // Shrunk: the failing row is the last (rows after it could go), no larger than found.
        QCOMPARE(v.row, c.trace.size() - 1);
        QVERIFY(c.trace.size() <= c.found.size());
        QVERIFY(!violationText(config.limiter, config.reference, c.trace, v).isEmpty());

        // 1-minimal, decided again here: the trace fails, and without any one row it holds.
        ScratchNames names;
        TraceDecider decider(fixtureUrl(), {}, names);
        const PropertyCheck check(decider, config.limiter, config.reference, config.properties);
        QVERIFY(check.check(c.trace).violation);
        for (qsizetype row = 0; row < c.trace.size() && c.trace.size() > 1; ++row) {
            QVERIFY2(!check.check(without(c.trace, row)).violation,
                     qPrintable(QStringLiteral("still fails without row %1 of %2")
                                    .arg(row)
                                    .arg(rowsText(c.trace))));
        }
        names.deleteKeys(*routeFixture());

        // Its regression check fails now: the limiter accepts other than it expects.
        QVERIFY(c.regression);
        QVERIFY(c.regression->acceptedNow != c.regression->expectedAccepted);
    }

    // The same seed and number of traces give the same traces and the same answer.
    void sameSeedSameAnswer() {
        HuntConfig config;
        config.limiter = spec(R"({"type": "fixed_window", "name": "fw", "rate": 2, "interval": 1,
                                 "unit": "seconds", "timezone": "UTC"})");
        config.reference = referenceFor(config.limiter, R"({"type": "sliding_window", "name": "r",
                                            "rules": [{"limit": 2, "window_ms": 1000}]})");
        config.properties = {HuntProperty::Agree};
        config.seed = 42;
        config.traces = 500;
        const HuntResult first = Hunt(config, fixtureUrl()).run();
        const HuntResult second = Hunt(config, fixtureUrl()).run();
        QVERIFY(first.counterexample && second.counterexample);
        QCOMPARE(second.traces, first.traces);
        QCOMPARE(second.counterexample->traceIndex, first.counterexample->traceIndex);
        QCOMPARE(rowsText(second.counterexample->trace), rowsText(first.counterexample->trace));
        QCOMPARE(rowsText(second.counterexample->found), rowsText(first.counterexample->found));
        // Shifted as near 1,700,000,000,000 ms as keeps the fixed window's boundaries where they
        // were: within a second after it.
        const qint64 start = first.counterexample->trace.tMsAt(0);
        QVERIFY2(start >= kHuntStartMs && start < kHuntStartMs + 1000,
                 qPrintable(QString::number(start)));

        config.seed = 43;
        const HuntResult other = Hunt(config, fixtureUrl()).run();
        QVERIFY(other.counterexample);
        QVERIFY(rowsText(other.counterexample->found) != rowsText(first.counterexample->found));
    }

    // Times start at 1,700,000,000,000 ms when nothing is aligned to the epoch (GCRA and the
    // log count from their own grants).
    void timesStartAtTheHuntsStart() {
        HuntConfig config;
        config.limiter = spec(R"({"type": "gcra", "name": "g", "rate": 2, "period_ms": 1000,
                                 "burst": 2})");
        config.reference = referenceFor(config.limiter, R"({"type": "sliding_window", "name": "r",
                                            "rules": [{"limit": 2, "window_ms": 1000}]})");
        config.properties = {HuntProperty::Agree};
        config.traces = 500;
        const HuntResult result = Hunt(config, fixtureUrl()).run();
        QVERIFY(result.counterexample);
        QCOMPARE(result.counterexample->trace.tMsAt(0), kHuntStartMs);
    }

    // No counterexample: every trace was tried, its rows counted.
    void noCounterexampleCountsWhatItTried() {
        HuntConfig config;
        config.limiter = spec(R"({"type": "sliding_window", "name": "sw",
                                 "rules": [{"limit": 2, "window_ms": 500}]})");
        config.reference = referenceFor(config.limiter, R"({"type": "sliding_window",
                                            "name": "r", "rules": [{"limit": 2, "window_ms": 500}]})");
        config.properties = {HuntProperty::Agree, HuntProperty::Retry, HuntProperty::Remaining};
        config.traces = 200;
        config.maxRows = 6;
        const HuntResult result = Hunt(config, fixtureUrl()).run();
        QVERIFY(!result.counterexample);
        QCOMPARE(result.traces, qint64(200));
        QVERIFY(result.rows >= 200 && result.rows <= 200 * 6);
        QVERIFY(result.decisions > 2 * result.rows);  // the reference's and the probes' too
    }

    // The hunt decides on scratch names only: the hunted limiter's own keys stay as they were,
    // and none of its scratch keys is left behind.
    void touchesOnlyItsOwnKeys() {
        const QString name = uniqueName(QStringLiteral("hunted"));
        auto router = routeFixture();
        const std::string own = "{" + name.toStdString() + "}:log";
        router->connectionForKey(own).command({"SET", own, "untouched"});
        HuntConfig config;
        config.limiter = spec(R"({"type": "sliding_window", "name": "x",
                                 "rules": [{"limit": 1, "window_ms": 100}]})");
        config.limiter.name = name;
        config.properties = {HuntProperty::Retry, HuntProperty::Remaining};
        config.traces = 50;
        const HuntResult result = Hunt(config, fixtureUrl()).run();
        QVERIFY(!result.counterexample);
        const RedisReply kept = router->connectionForKey(own).command({"GET", own});
        QCOMPARE(replyString(kept.get(), "GET"), std::string("untouched"));
        router->connectionForKey(own).command({"DEL", own});
        for (RedisConnection* node : router->masterConnections()) {
            const RedisReply left = node->command({"KEYS", "*hunt-*"});
            QCOMPARE(int(left->elements), 0);
        }
    }

    // ScratchNames owns exactly the keys of the names it handed out.
    void scratchNamesOwnTheirKeysOnly() {
        ScratchNames names(0xabc);
        const QString a = names.next();
        const QString b = names.next();
        QCOMPARE(a, QStringLiteral("hunt-0000000000000abc-0"));
        for (const QString& key :
             {QStringLiteral("{%1}:log").arg(a), QStringLiteral("{%1}:log:c").arg(b),
              QStringLiteral("%1").arg(a), QStringLiteral("{%1@g0}:tat").arg(b),
              QStringLiteral("%1:{mine}:a").arg(a)}) {
            QVERIFY2(names.owns(key.toStdString()), qPrintable(key));
        }
        for (const QString& key :
             {QStringLiteral("{hunt-0000000000000abc-2}:log"),
              QStringLiteral("{hunt-0000000000000abc-10}:log"),
              QStringLiteral("{hunt-0000000000000abd-0}:log"), QStringLiteral("{%1x}:log").arg(a),
              QStringLiteral("hunt-0000000000000abc"), QStringLiteral("other")}) {
            QVERIFY2(!names.owns(key.toStdString()), qPrintable(key));
        }
    }
};

QTEST_GUILESS_MAIN(TestHunt)
#include "tst_hunt.moc"
