// A limiter whose limit is on requests in flight (the concurrency limiter): its timeline draws
// requests in flight from the run's own grants, releases and leaked grants against the in-flight
// limit, the releases per step and a mark at each step with leaked grants, and no rate line; a
// rate limiter's timeline draws none of it.

#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <QtTest>

#include "charts/timeline_chart.h"
#include "charts/timeline_model.h"
#include "stats/run_snapshot.h"
#include "support/timeline_runs.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// Ten grants in 800 ms of 100 ms buckets: four released, one leaked in the first bucket (its
// lease of 250 ms has surely run out by the end of bucket 3), five still held at the end.
RunSnapshot leasesRun(const LimiterSpec& spec) {
    RunSnapshot run;
    run.startEpochMs = kStart;
    run.bucketMs = 100;
    run.elapsedUs = 800'000;
    run.durationUs = 800'000;
    LimiterSnapshot l;
    l.spec = spec;
    l.bucketAccepted = {5, 3, 0, 0, 2, 0, 0, 0};
    l.bucketRejected = {0, 4, 1, 0, 0, 0, 0, 0};
    l.bucketErrors = QVector<qint64>(8, 0);
    l.bucketReleased = {0, 2, 1, 0, 0, 1, 0, 0};
    l.bucketLeaked = {1, 0, 0, 0, 0, 0, 0, 0};
    l.accepted = 10;
    l.rejected = 5;
    l.fired = 15;
    run.limiters << l;
    return run;
}

}  // namespace

class TestTimelineInFlight : public QObject {
    Q_OBJECT

private slots:
    void countedFromGrantsReleasesAndLeaks_data() {
        QTest::addColumn<qint64>("groupMs");
        QTest::addColumn<QVector<double>>("inFlight");
        QTest::addColumn<QVector<double>>("released");
        QTest::addColumn<QPointF>("leakMark");
        QTest::newRow("a step a bucket")
            << qint64(100) << QVector<double>{5, 6, 5, 4, 6, 5, 5, 5}
            << QVector<double>{0, 2, 1, 0, 0, 1, 0, 0} << QPointF(0.05, 5);
        // Two buckets a step: the most in flight at a bucket's end in it, releases summed.
        QTest::newRow("two buckets a step") << qint64(200) << QVector<double>{6, 5, 6, 5}
                                            << QVector<double>{2, 1, 1, 0} << QPointF(0.1, 6);
    }
    void countedFromGrantsReleasesAndLeaks() {
        QFETCH(qint64, groupMs);
        QFETCH(QVector<double>, inFlight);
        QFETCH(QVector<double>, released);
        QFETCH(QPointF, leakMark);
        TimelineModel model;
        const LimiterSpec spec = concurrency(20, 250);
        model.setLimiter(spec, 1, 100, kStart);
        QVERIFY(model.update(leasesRun(spec), 0, nullptr));
        const TimelineModel::InFlight view = model.inFlight(0, 0.8, groupMs);
        QVERIFY(view.shown);
        QCOMPARE(stepValues(view.inFlight), inFlight);
        QCOMPARE(stepValues(view.released), released);
        QCOMPARE(view.leaked, QList<QPointF>{leakMark});
        QCOMPARE(view.leakedCounts, QVector<qint64>{1});
        QCOMPARE(stepValues(view.limit), QVector<double>{20});
        // No rate line: the limit is on requests in flight.
        QVERIFY(model.counts(0, 0.8).limit.isEmpty());
    }

    void perClientLimitTimesTheClients() {
        TimelineModel model;
        LimiterSpec spec = concurrency(20, 250);
        spec.scope = Scope::PerClient;
        model.setLimiter(spec, 3, 100, kStart);
        QCOMPARE(stepValues(model.inFlight(0, 0.8, 100).limit), QVector<double>{60});
    }

    void chartDrawsInFlightNotARate() {
        TimelineChart chart;
        chart.resize(800, 400);
        const LimiterSpec spec = concurrency(20, 250);
        chart.setLimiter(spec, 1, 100, kStart);
        chart.updateFrom(leasesRun(spec), 0, nullptr);
        const TimelineInFlight& f = chart.inFlight();
        QVERIFY(f.inFlightSeries()->isVisible());
        QVERIFY(f.limitSeries()->isVisible());
        QCOMPARE(f.limitSeries()->name(), QStringLiteral("limit 20"));
        QVERIFY(f.releasedSeries()->isVisible());
        QVERIFY(f.leakedSeries()->isVisible());
        QCOMPARE(f.leakedSeries()->count(), 1);
        QCOMPARE(stepValues(f.inFlightSeries()->points()).value(1), 6.0);
        QVERIFY(!chart.limitSeries()->isVisible());
        QVERIFY(!chart.tokenSeries()->isVisible());
        const auto* right = qobject_cast<QValueAxis*>(f.inFlightSeries()->attachedAxes().last());
        QVERIFY(right);
        QCOMPARE(right->titleText(), QStringLiteral("requests in flight"));
        QVERIFY(right->max() >= 20);
        const QString tip = chart.toolTipAt(0.15);
        QVERIFY2(tip.contains(QStringLiteral("in flight: at most 6 of 20 · released 2")),
                 qPrintable(tip));

        LimiterSpec bucket;
        bucket.type = LimiterType::TokenBucket;
        bucket.name = QStringLiteral("bucket");
        bucket.rate = 10;
        bucket.intervalMs = 1000;
        chart.setLimiter(bucket, 1, 100, kStart);
        RunSnapshot run = leasesRun(bucket);
        run.limiters[0].bucketReleased.clear();
        run.limiters[0].bucketLeaked.clear();
        chart.updateFrom(run, 0, nullptr);
        QVERIFY(!f.inFlightSeries()->isVisible());
        QVERIFY(!f.limitSeries()->isVisible());
        QVERIFY(!f.leakedSeries()->isVisible());
        QVERIFY(chart.limitSeries()->isVisible());
        QVERIFY(!chart.toolTipAt(0.15).contains(QStringLiteral("in flight")));
    }
};

QTEST_MAIN(TestTimelineInFlight)
#include "tst_timeline_in_flight.moc"
