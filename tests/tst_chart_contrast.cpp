// What the charts draw stays apart without colour, measured on the pixels drawn: a timeline's
// accepted and rejected fills keep at least 3:1 luminance contrast (style::kDecisionContrast,
// what a grayscale print keeps) inside the admitted-burst highlight as outside it, in the light
// and the dark palette; report.png keeps it too, in both looks; a line's legend swatch is a
// line (a dashed limit and a dotted group line no longer both black squares).
#include <QAreaSeries>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QtTest>

#include "report/report_renderer.h"
#include "stats/admitted_burst.h"
#include "stats/run_snapshot.h"
#include "style/app_theme.h"
#include "style/palette_colors.h"
#include "style/series_style.h"
#include "support/timeline_runs.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// Bucket 78 of makeRun holds 10 accepted under 3 rejected (timeline_runs.cpp's counts).
constexpr qint64 kBucket = 78;
constexpr double kBucketMiddle = 7.85;

QColor pixelAt(const QImage& image, QPointF at) {
    return image.pixelColor(qRound(at.x()), qRound(at.y()));
}

}  // namespace

class TestChartContrast : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QCOMPARE(acceptedAt(kBucket), 10);
        QCOMPARE(rejectedAt(kBucket), 3);
    }

    void seriesColours_data() {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }

    // The colours themselves: accepted against rejected, and each against the background.
    void seriesColours() {
        QFETCH(bool, dark);
        const style::SeriesColors c = style::seriesColors(dark);
        const QColor base =
            (dark ? style::darkPalette() : style::lightPalette()).color(QPalette::Base);
        QVERIFY2(style::contrastRatio(c.accepted, c.rejected) >= style::kDecisionContrast,
                 qPrintable(QString::number(style::contrastRatio(c.accepted, c.rejected))));
        QVERIFY(style::contrastRatio(c.accepted, base) >= style::kDecisionContrast);
        QVERIFY(style::contrastRatio(c.limit, base) >= style::kDecisionContrast);
    }

    void insideTheBurstHighlight_data() { seriesColours_data(); }

    // The highlight's tint lay over the opaque fills and pulled them together: 2.83-2.95:1
    // inside it where they are 3.5-3.8:1 outside.
    void insideTheBurstHighlight() {
        QFETCH(bool, dark);
        TimelineChart chart;
        chart.setPalette(dark ? style::darkPalette() : style::lightPalette());
        QVERIFY(show(chart));
        const LimiterSpec spec = tokenBucket(10, 1000);
        chart.setLimiter(spec, 1, 100, kStart);
        chart.updateFrom(makeRun(spec, 100, 20000), 0, nullptr);
        BusiestInterval b;
        b.windowMs = 1000;
        b.permits = 20;
        b.fromMs = kStart + 7500;
        b.firstMs = b.fromMs;
        b.lastMs = b.fromMs + 999;
        chart.setBusiestIntervals({b});
        QTRY_VERIFY(drawnTexts(chart).contains(QStringLiteral("20 accepted in 1000 ms here")));
        const QImage image = chart.grab().toImage();
        const auto at = [&](double seconds, double y) {
            return pixelAt(image, chart.mapFromScene(chart.chart()->mapToPosition(
                                      QPointF(seconds, y), chart.acceptedArea())));
        };
        const QColor accepted = at(kBucketMiddle, 5);
        const QColor rejected = at(kBucketMiddle, 11.5);
        const double ratio = style::contrastRatio(accepted, rejected);
        QVERIFY2(ratio >= style::kDecisionContrast,
                 qPrintable(QStringLiteral("%1 on %2: %3:1")
                                .arg(accepted.name(), rejected.name())
                                .arg(ratio, 0, 'f', 2)));
    }

    void reportPng_data() { seriesColours_data(); }

    // report.png in either look: accepted and rejected 3:1 apart, on its own background.
    void reportPng() {
        QFETCH(bool, dark);
        RunSnapshot run = makeRun(tokenBucket(10, 1000), 100, 20000);
        const QImage image = renderReport(run, 1200, 360, dark);
        QVERIFY(!image.isNull());
        const bool darkCorner = image.pixelColor(2, 2).lightness() < 128;
        QCOMPARE(darkCorner, dark);
        const style::SeriesColors c = style::seriesColors(dark);
        QHash<QRgb, int> seen;
        for (int y = 0; y < image.height(); y += 2) {
            for (int x = 0; x < image.width(); x += 2)
                ++seen[image.pixel(x, y) & 0xffffff];
        }
        QVERIFY(seen.value(c.accepted.rgb() & 0xffffff) > 100);
        QVERIFY(seen.value(c.rejected.rgb() & 0xffffff) > 100);
    }

    // The legend draws each line series as a line with its pen's dash: measured on the pixels
    // of the swatch alone (the other entries hidden, its label emptied), a dashed limit's swatch
    // shows at least two dashes and the solid in-flight line's one. The dashes were as long as
    // the swatch: "limit 20" read as a short solid line.
    void legendSwatchesFollowTheirSeries_data() {
        QTest::addColumn<LimiterSpec>("spec");
        QTest::addColumn<QString>("entry");  // the legend entry's name starts so
        QTest::addColumn<int>("dashes");
        QTest::newRow("rate limit, dashed")
            << tokenBucket(10, 1000) << QStringLiteral("limit (steady state)") << 2;
        QTest::newRow("in-flight limit, dashed")
            << concurrency(20, 250) << QStringLiteral("limit 20") << 2;
        QTest::newRow("in flight, solid")
            << concurrency(20, 250) << QStringLiteral("in flight") << 1;
    }
    void legendSwatchesFollowTheirSeries() {
        QFETCH(LimiterSpec, spec);
        QFETCH(QString, entry);
        QFETCH(int, dashes);
        TimelineChart chart;
        QVERIFY(show(chart));
        chart.setLimiter(spec, 1, 100, kStart);
        RunSnapshot run = makeRun(spec, 100, 20000);
        run.limiters[0].bucketReleased = QVector<qint64>(run.limiters[0].bucketAccepted.size(), 1);
        chart.updateFrom(run, 0, nullptr);
        QCOMPARE(chart.chart()->legend()->markerShape(), QLegend::MarkerShapeFromSeries);
        QLegendMarker* swatch = nullptr;
        for (QLegendMarker* marker : chart.chart()->legend()->markers()) {
            if (marker->label().startsWith(entry) && marker->isVisible())
                swatch = marker;
            else
                marker->setVisible(false);
        }
        QVERIFY2(swatch != nullptr, qPrintable(entry));
        const QColor colour = swatch->series()->property("color").value<QColor>();
        swatch->setLabel(QString());
        QTest::qWait(50);  // the legend lays itself out again
        const QImage image = chart.grab().toImage();
        const QRect legend =
            chart.mapFromScene(chart.chart()->mapToScene(chart.chart()->legend()->geometry()))
                .boundingRect()
                .intersected(image.rect());
        // The row of the legend with the most pixels of the line's colour, and its runs.
        int bestCount = 0, bestRuns = 0;
        for (int y = legend.top(); y <= legend.bottom(); ++y) {
            int count = 0, runs = 0;
            bool inRun = false;
            for (int x = legend.left(); x <= legend.right(); ++x) {
                const QColor c = image.pixelColor(x, y);
                const bool on = std::abs(c.red() - colour.red()) +
                                    std::abs(c.green() - colour.green()) +
                                    std::abs(c.blue() - colour.blue()) <
                                60;
                count += on;
                runs += on && !inRun;
                inRun = on;
            }
            if (count > bestCount) {
                bestCount = count;
                bestRuns = runs;
            }
        }
        QVERIFY2(bestCount >= 6, qPrintable(QStringLiteral("%1 pixels").arg(bestCount)));
        if (dashes == 1)
            QCOMPARE(bestRuns, 1);
        else
            QVERIFY2(bestRuns >= dashes,
                     qPrintable(
                         QStringLiteral("%1 dash(es) in %2 pixels").arg(bestRuns).arg(bestCount)));
    }
};

QTEST_MAIN(TestChartContrast)
#include "tst_chart_contrast.moc"
