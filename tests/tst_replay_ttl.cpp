// A replay slower than its trace keeps its limiter's state (scenario/replay_options.h): the
// key TTLs, in server time, are stretched by the trace's busiest second.
#include <QThread>
#include <QtTest>

#include "limiters/limiter.h"
#include "scenario/replay.h"
#include "scenario/replay_options.h"
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

class TestReplayTtl : public QObject {
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
};

QTEST_GUILESS_MAIN(TestReplayTtl)
#include "tst_replay_ttl.moc"
