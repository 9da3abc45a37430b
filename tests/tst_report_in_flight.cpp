// A limit on requests in flight (the concurrency limiter) in the outputs as the window shows it:
// buckets.csv keeps each bucket's releases and leaked grants (read back), report.html's data
// carries the most in flight per step, the releases, the leaks and the in-flight limit instead
// of a rate line ("limit (steady state)" was drawn at its lease's rate, under 50-90 accepted a
// second), its legend names the lines and its table the limit as such; report.png draws the
// same view, and its areas' legend swatches are filled squares (they were hollow, their names
// cut to "accep…").
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "output/buckets_csv.h"
#include "output/run_summary.h"
#include "report/html_report.h"
#include "report/report_data.h"
#include "report/report_in_flight.h"
#include "report/report_renderer.h"
#include "style/series_style.h"
#include "support/timeline_runs.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// Ten grants in 800 ms of 100 ms buckets: four released, one leaked in the first bucket (its
// lease of 250 ms has run out by the end of bucket 3), five still held at the end (the same run
// as tst_timeline_in_flight's), and a token bucket beside it.
RunSnapshot leasesRun() {
    RunSnapshot run;
    run.bucketMs = 100;
    run.elapsedUs = 800'000;
    run.durationUs = 800'000;
    run.finished = true;
    run.bucketTargetRate = QVector<double>(8, 20);
    LimiterSnapshot l;
    l.spec = concurrency(20, 250);
    l.bucketAccepted = {5, 3, 0, 0, 2, 0, 0, 0};
    l.bucketRejected = {0, 4, 1, 0, 0, 0, 0, 0};
    l.bucketErrors = QVector<qint64>(8, 0);
    l.bucketErrorsOpen = l.bucketErrorsClosed = l.bucketErrors;
    l.bucketReleased = {0, 2, 1, 0, 0, 1, 0, 0};
    l.bucketLeaked = {1, 0, 0, 0, 0, 0, 0, 0};
    l.accepted = 10;
    l.rejected = 5;
    l.fired = 15;
    l.leases.released = 4;
    l.leases.leaked = 1;
    l.admittedBurst = {{8, 0, 250, 0, 150}};  // its lease's window: 8 granted in [0, 250) ms
    l.admittedBurstRunClock = l.admittedBurst;
    run.limiters << l;
    LimiterSnapshot bucket = l;
    bucket.spec = tokenBucket(10, 1000);
    bucket.spec.name = QStringLiteral("rate");
    bucket.bucketReleased.clear();
    bucket.bucketLeaked.clear();
    bucket.leases = {};
    run.limiters << bucket;
    return run;
}

QVector<double> numbers(const QJsonValue& array) {
    QVector<double> out;
    for (const QJsonValue& v : array.toArray())
        out << v.toDouble();
    return out;
}

}  // namespace

class TestReportInFlight : public QObject {
    Q_OBJECT

private slots:
    // buckets.csv adds released and leaked (0 in the rate limiter's rows) and reads them back; a
    // run without leases writes exactly the columns it wrote before.
    void bucketsCsvKeepsReleasesAndLeaks() {
        const RunSummary written = summaryOf(leasesRun());
        const QByteArray csv = bucketsToCsv(written);
        QVERIFY2(csv.startsWith("bucket,t_ms,limiter,accepted,rejected,errors,target_rate,"
                                "errors_open,errors_closed,released,leaked\n"),
                 csv.left(120).constData());
        QVERIFY2(csv.contains("\n0,0,slots,5,0,0,20,0,0,0,1\n"), csv.constData());
        QVERIFY2(csv.contains("\n1,100,slots,3,4,0,20,0,0,2,0\n"), csv.constData());
        QVERIFY2(csv.contains("\n1,100,rate,3,4,0,20,0,0,0,0\n"), csv.constData());

        RunSummary read = written;
        for (LimiterSummary& l : read.limiters)
            l.buckets = {};
        bucketsFromCsv(csv, QStringLiteral("buckets.csv"), read);
        QCOMPARE(read.limiters[0].buckets.released, written.limiters[0].buckets.released);
        QCOMPARE(read.limiters[0].buckets.leaked, written.limiters[0].buckets.leaked);
        QVERIFY(read.limiters[1].buckets.released.isEmpty());

        RunSnapshot plain = leasesRun();
        plain.limiters.removeFirst();
        QVERIFY(bucketsToCsv(summaryOf(plain))
                    .startsWith("bucket,t_ms,limiter,accepted,rejected,errors,target_rate,"
                                "errors_open,errors_closed\n"));
    }

    // report.html's data: the concurrency limiter's in-flight view and no rate line; the token
    // bucket beside it keeps its limit line and has no in-flight view.
    void pageDataDrawsRequestsInFlight() {
        const RunSummary s = summaryOf(leasesRun());
        const QJsonObject data = QJsonDocument::fromJson(reportData(s)).object();
        QCOMPARE(data[QLatin1String("step_ms")].toDouble(), 100.0);
        const QJsonObject concurrencyData = data[QLatin1String("limiters")][0].toObject();
        QVERIFY(!concurrencyData.contains(QLatin1String("limit")));
        const QJsonObject f = concurrencyData[QLatin1String("in_flight")].toObject();
        QCOMPARE(f[QLatin1String("limit")].toDouble(), 20.0);
        QCOMPARE(numbers(f[QLatin1String("most")]), (QVector<double>{5, 6, 5, 4, 6, 5, 5, 5}));
        QCOMPARE(numbers(f[QLatin1String("released")]), (QVector<double>{0, 2, 1, 0, 0, 1, 0, 0}));
        QCOMPARE(numbers(f[QLatin1String("leaked")]), (QVector<double>{1, 0, 0, 0, 0, 0, 0, 0}));
        const QJsonObject rate = data[QLatin1String("limiters")][1].toObject();
        QVERIFY(rate.contains(QLatin1String("limit")));
        QVERIFY(!rate.contains(QLatin1String("in_flight")));

        const QString page = QString::fromUtf8(reportHtml(s, QByteArray()));
        QVERIFY(page.contains(QLatin1String("requests in flight (right axis)")));
        // The legend's rate line, for the token bucket; none without a rate limiter.
        const QLatin1String rateLine("<path class=\"limit\" d=\"M1,6H21\"/>");
        QVERIFY(page.contains(rateLine));
        RunSummary alone = s;
        alone.limiters.removeLast();
        const QString only = QString::fromUtf8(reportHtml(alone, QByteArray()));
        QVERIFY(!only.contains(rateLine));
        QVERIFY(only.contains(QLatin1String("20 in flight at once")));
    }

    // report.png: the same view (the window's model), none for the rate limiter.
    void pngDrawsTheWindowsView() {
        const RunSnapshot run = leasesRun();
        const TimelineModel::InFlight view = report_in_flight::viewOf(run, 0, 1, 100, 0.8);
        QVERIFY(view.shown);
        QCOMPARE(stepValues(view.inFlight), (QVector<double>{5, 6, 5, 4, 6, 5, 5, 5}));
        QCOMPARE(view.leakedCounts, QVector<qint64>{1});
        QCOMPARE(report_in_flight::releasedTop(view), 2.0);
        QVERIFY(!report_in_flight::viewOf(run, 1, 1, 100, 0.8).shown);
    }

    // The areas' legend swatches in report.png are filled with their colour, in both looks: in
    // the band under each chart's plot, at least a swatch's worth of pixels of the accepted
    // colour (a hollow square's outline is a shade darker: none).
    void pngLegendSwatchesFilled_data() {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void pngLegendSwatchesFilled() {
        QFETCH(bool, dark);
        RunSnapshot run = leasesRun();
        run.limiters.removeFirst();  // the rate limiter alone: its legend holds the areas
        const QImage image = renderReport(run, 1200, 360, dark);
        const QColor accepted = style::seriesColors(dark).accepted;
        int swatch = 0;
        for (int y = image.height() - 40; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                swatch += image.pixelColor(x, y).rgb() == accepted.rgb();
        QVERIFY2(swatch >= 30, qPrintable(QStringLiteral("%1 pixels").arg(swatch)));
    }
};

QTEST_MAIN(TestReportInFlight)
#include "tst_report_in_flight.moc"
