// What `ratelab replay` does before its first decision (run/replay_options.h): a replay
// slower than its trace keeps its limiter's state (the key TTLs, in server time, are stretched
// by the trace's busiest second), and every row is checked against the limiter.
#include <QThread>
#include <QtTest>

#include "input_error.h"
#include "limiters/limiter.h"
#include "run/replay.h"
#include "run/replay_options.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// `rows` requests of one permit spread evenly over [0, spanMs).
QVector<TraceRow> evenTrace(int rows, qint64 spanMs) {
    QVector<TraceRow> trace;
    for (int i = 0; i < rows; ++i) {
        trace.push_back(TraceRow{spanMs * i / rows, QString(), 1});
    }
    return trace;
}

}  // namespace

class TestReplayOptions : public QObject {
    Q_OBJECT

private slots:
    void scale_data() {
        QTest::addColumn<int>("rows");
        QTest::addColumn<qint64>("spanMs");
        QTest::addColumn<double>("ttlScale");
        QTest::newRow("empty trace") << 0 << qint64(1000) << 1.0;
        QTest::newRow("slower than the floor") << 100 << qint64(1000) << 1.0;
        QTest::newRow("at the floor") << 500 << qint64(1000) << 1.0;
        QTest::newRow("5,000 in one second") << 5000 << qint64(1000) << 10.0;
        QTest::newRow("5,000 over ten seconds") << 5000 << qint64(10000) << 1.0;
        QTest::newRow("150,000 in one second") << 150000 << qint64(1000) << 300.0;
    }
    void scale() {
        QFETCH(int, rows);
        QFETCH(qint64, spanMs);
        QFETCH(double, ttlScale);
        QCOMPARE(replayLimiterOptions(evenTrace(rows, spanMs)).ttlScale, ttlScale);
    }

    // 5,000 requests inside one second of trace, limit 1 per second: one grant. The replay
    // stalls 4.5 s of real time after it (as a replay of a busy trace against a slower
    // server does over a whole run); with TTLs of the trace's own length (4 s for a 1 s
    // window) the log had expired and the next request was granted as well.
    void stateOutlivesASlowReplay_data() {
        QTest::addColumn<int>("type");
        QTest::newRow("sliding window") << int(LimiterType::SlidingWindow);
        QTest::newRow("token bucket") << int(LimiterType::TokenBucket);
    }
    void stateOutlivesASlowReplay() {
        QFETCH(int, type);
        LimiterSpec spec;
        spec.type = LimiterType(type);
        spec.name = uniqueName(QStringLiteral("replay-ttl"));
        spec.rate = 1;
        spec.intervalMs = 1000;
        spec.rules = {{1, 1000}};
        const QVector<TraceRow> trace = evenTrace(5000, 1000);
        ScopedLimiter owner(spec);  // deletes the keys afterwards
        const auto limiter = makeLimiter(spec, replayLimiterOptions(trace));
        std::unique_ptr<RedisRouter> router = routeFixture();
        int accepted = 0;
        int decided = 0;
        replayTrace(*router, *limiter, trace, [&](const TraceRow&, const Decision& d) {
            accepted += d.allowed ? 1 : 0;
            if (++decided == 1) {
                QThread::msleep(4500);
            }
        });
        QCOMPARE(decided, 5000);
        QCOMPARE(accepted, 1);
    }

    // A sliding window takes at most kMaxSlidingWindowPermits per request; a trace asking more is
    // bad input naming its line, before Redis sees any row.
    void traceCheckedAgainstTheLimiter_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<qint64>("permits");
        QTest::addColumn<QString>("error");
        QTest::newRow("sliding window above its bound")
            << int(LimiterType::SlidingWindow) << qint64(1'000'000)
            << QStringLiteral(
                   "t.csv:3: a sliding window takes at most 10000 permits per "
                   "request, got 1000000");
        QTest::newRow("sliding window at its bound")
            << int(LimiterType::SlidingWindow) << qint64(10'000) << QString();
        QTest::newRow("token bucket: more than its rate is a rejection, not bad input")
            << int(LimiterType::TokenBucket) << qint64(1'000'000) << QString();
    }
    void traceCheckedAgainstTheLimiter() {
        QFETCH(int, type);
        QFETCH(qint64, permits);
        QFETCH(QString, error);
        LimiterSpec spec;
        spec.type = LimiterType(type);
        spec.name = QStringLiteral("trace-check");
        spec.rate = 10;
        spec.intervalMs = 1000;
        spec.rules = {{1'000'000, 1000}};
        const auto limiter = makeLimiter(spec);
        const QVector<TraceRow> trace = {TraceRow{0, QString(), 1, 2},
                                         TraceRow{1, QString(), permits, 3}};
        try {
            checkTraceFitsLimiter(*limiter, trace, QStringLiteral("t.csv"));
            QVERIFY2(error.isEmpty(), "no error");
        } catch (const InputError& e) {
            QCOMPARE(e.message(), error);
        }
    }
};

QTEST_GUILESS_MAIN(TestReplayOptions)
#include "tst_replay_options.moc"
