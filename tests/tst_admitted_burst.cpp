// The admitted-burst metric (stats/admitted_burst.h): the most permits accepted in any
// half-open interval [t, t + N), exact at the edges and equal to a brute force on random runs.
#include <QRandomGenerator>
#include <QtTest>

#include "stats/admitted_burst.h"

using namespace ratelab;

using Accepted = std::vector<AcceptedAt>;
Q_DECLARE_METATYPE(Accepted)

namespace {

// Every interval worth trying starts at a decision's time.
qint64 bruteForce(const Accepted& accepted, qint64 windowMs) {
    qint64 best = 0;
    for (const AcceptedAt& start : accepted) {
        qint64 sum = 0;
        for (const AcceptedAt& a : accepted) {
            if (a.ms >= start.ms && a.ms < start.ms + windowMs) {
                sum += a.permits;
            }
        }
        best = std::max(best, sum);
    }
    return best;
}

Accepted ones(std::initializer_list<qint64> times) {
    Accepted out;
    for (qint64 t : times) {
        out.push_back({t, 1});
    }
    return out;
}

}  // namespace

class TestAdmittedBurst : public QObject {
    Q_OBJECT

private slots:
    void edges_data() {
        QTest::addColumn<Accepted>("accepted");
        QTest::addColumn<qint64>("windowMs");
        QTest::addColumn<qint64>("permits");
        QTest::addColumn<qint64>("fromMs");
        QTest::newRow("empty run") << Accepted{} << qint64(1000) << qint64(0) << qint64(0);
        QTest::newRow("one decision") << ones({42}) << qint64(1000) << qint64(1) << qint64(42);
        QTest::newRow("half-open: t + N is outside")
            << ones({0, 1000}) << qint64(1000) << qint64(1) << qint64(0);
        QTest::newRow("t + N - 1 is inside")
            << ones({0, 999}) << qint64(1000) << qint64(2) << qint64(0);
        // A fixed window of 10 per second: 10 at the end of one window and 10 at the start of
        // the next are 20 inside one second (21 with the one before).
        QTest::newRow("fixed window boundary: twice the limit")
            << Accepted{{0, 1}, {990, 10}, {1000, 10}, {1500, 1}} << qint64(1000) << qint64(21)
            << qint64(990);
        QTest::newRow("same millisecond counted together")
            << ones({5, 5, 5, 2000, 2000}) << qint64(1) << qint64(3) << qint64(5);
        QTest::newRow("permits, not decisions")
            << Accepted{{0, 1}, {10, 7}, {20, 1}} << qint64(15) << qint64(8) << qint64(0);
        QTest::newRow("any order")
            << ones({3000, 10, 2999, 20, 2500}) << qint64(600) << qint64(3) << qint64(2500);
        QTest::newRow("ties: the earliest interval")
            << ones({0, 1, 5000, 5001}) << qint64(100) << qint64(2) << qint64(0);
        QTest::newRow("window longer than the run")
            << ones({0, 100, 200}) << qint64(60000) << qint64(3) << qint64(0);
        QTest::newRow("negative times (virtual clock before epoch)")
            << ones({-1500, -600, -400}) << qint64(1000) << qint64(2) << qint64(-1500);
    }
    void edges() {
        QFETCH(Accepted, accepted);
        QFETCH(qint64, windowMs);
        QFETCH(qint64, permits);
        QFETCH(qint64, fromMs);
        const BusiestInterval busiest = busiestInterval(accepted, windowMs);
        QCOMPARE(busiest.permits, permits);
        QCOMPARE(busiest.fromMs, fromMs);
        QCOMPARE(busiest.windowMs, windowMs);
        QCOMPARE(busiest.permits, bruteForce(accepted, windowMs));
        if (permits > 0) {
            QVERIFY(busiest.firstMs >= busiest.fromMs);
            QVERIFY(busiest.lastMs < busiest.fromMs + windowMs);
        }
    }

    // Random runs: clustered times (many equal and near-equal), permits 1..5.
    void randomRuns_data() {
        QTest::addColumn<quint32>("seed");
        QTest::addColumn<qint64>("windowMs");
        for (quint32 seed = 1; seed <= 40; ++seed) {
            const qint64 window = qint64(1) << (seed % 12);
            QTest::addRow("seed %u window %lld", seed, window) << seed << window;
        }
    }
    void randomRuns() {
        QFETCH(quint32, seed);
        QFETCH(qint64, windowMs);
        QRandomGenerator random(seed);
        Accepted accepted;
        const int n = 1 + int(random.bounded(400));
        qint64 t = 0;
        for (int i = 0; i < n; ++i) {
            t += random.bounded(4) == 0 ? 0 : qint64(random.bounded(50));
            accepted.push_back({t, 1 + qint64(random.bounded(5))});
        }
        std::shuffle(accepted.begin(), accepted.end(), random);
        const BusiestInterval busiest = busiestInterval(accepted, windowMs);
        QCOMPARE(busiest.permits, bruteForce(accepted, windowMs));
        // The interval it names holds that many.
        qint64 inside = 0;
        for (const AcceptedAt& a : accepted) {
            if (a.ms >= busiest.fromMs && a.ms < busiest.fromMs + windowMs) {
                inside += a.permits;
            }
        }
        QCOMPARE(inside, busiest.permits);
    }

    void windows_data() {
        QTest::addColumn<std::vector<qint64>>("config");
        QTest::addColumn<std::vector<qint64>>("windows");
        QTest::newRow("none named")
            << std::vector<qint64>{} << std::vector<qint64>{1000, 10000, 60000};
        QTest::newRow("rules and duplicates")
            << std::vector<qint64>{60000, 250, 250, 3600000}
            << std::vector<qint64>{250, 1000, 10000, 60000, 3600000};
        QTest::newRow("non-positive ignored")
            << std::vector<qint64>{0, -5} << std::vector<qint64>{1000, 10000, 60000};
    }
    void windows() {
        QFETCH(std::vector<qint64>, config);
        QFETCH(std::vector<qint64>, windows);
        QCOMPARE(admittedBurstWindows(config), windows);
    }
};

QTEST_GUILESS_MAIN(TestAdmittedBurst)
#include "tst_admitted_burst.moc"
