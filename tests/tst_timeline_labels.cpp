// Timeline labels that must not vanish: a fixed window's count wider than the sliver of the
// window in view (the boundary example's first 100 ms), and a marker's label wider than the
// plot (steps merged into one mark). Both stay whole inside the plot area. A marker's label
// reads: its text at least 4.5:1 against the base, light or dark.
#include <QtTest>

#include <QGraphicsSimpleTextItem>

#include "charts/timeline_chart.h"
#include "charts/timeline_label_rows.h"
#include "limiters/limiter_state.h"
#include "style/palette_colors.h"
#include "support/timeline_runs.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

LimiterState::WindowCount windowCount(qint64 startMs, qint64 count) {
    LimiterState::WindowCount w;
    w.startMs = startMs;
    w.endMs = startMs + 1000;
    w.count = count;
    return w;
}

}  // namespace

class TestTimelineLabels : public QObject {
    Q_OBJECT

private slots:
    // Run time 0 is 100 ms before a second's end: the first window is a sliver of a 3 s axis.
    // Full, its count ("10/10", or "10") was wider than the sliver and was not drawn; it now
    // shows centred on it, kept in the plot, beside the next window's own count.
    void sliverWindowShowsItsCount_data() {
        QTest::addColumn<qint64>("nextCount");  // -1: the next window has no count yet
        QTest::newRow("alone") << qint64(-1);
        QTest::newRow("beside the next count") << qint64(3);
    }
    void sliverWindowShowsItsCount() {
        QFETCH(qint64, nextCount);
        TimelineChart chart;
        QVERIFY(show(chart));
        const LimiterSpec spec = fixedWindow(10, 1, CalendarUnit::Seconds);
        const qint64 start = kStart - 100;
        chart.setLimiter(spec, 1, 50, start);
        RunSnapshot run = makeRun(spec, 50, 0);
        run.startEpochMs = start;
        run.durationUs = 3'000'000;
        LimiterState state;
        state.nowMs = start;
        state.windows << windowCount(kStart - 1000, 10);
        if (nextCount >= 0)
            state.windows << windowCount(kStart, nextCount);
        chart.updateFrom(run, 0, &state);
        const QStringList drawn = textsInPlot(chart);
        QVERIFY2(drawn.contains(QStringLiteral("10/10")) || drawn.contains(QStringLiteral("10")),
                 qPrintable(drawn.join(QStringLiteral(" | "))));
        if (nextCount >= 0) {
            QVERIFY2(drawn.contains(QStringLiteral("3/10")) || drawn.contains(QStringLiteral("3")),
                     qPrintable(drawn.join(QStringLiteral(" | "))));
        }
    }

    // Twelve steps merged into one mark at the plot's left edge: the label, wider than the
    // plot, was put left of its line, outside the plot, and vanished. It is now cut in the
    // middle to fit: its first and newest steps show.
    void mergedMarkStaysInThePlot() {
        TimelineChart chart;
        QVERIFY(show(chart));
        const LimiterSpec spec = fixedWindow(10, 1, CalendarUnit::Seconds);
        chart.setLimiter(spec, 1, 100, kStart);
        chart.updateFrom(makeRun(spec, 100, 0), 0, nullptr);
        for (int k = 0; k < 12; ++k)
            chart.addMarker(0.0, QStringLiteral("request #%1: allowed").arg(k));
        const QString merged = chart.model().markers().value(0).label;
        QVERIFY(merged.endsWith(QStringLiteral("request #11: allowed")));
        const QStringList drawn = textsInPlot(chart);
        const auto mark = std::find_if(drawn.cbegin(), drawn.cend(), [](const QString& t) {
            return t.startsWith(QStringLiteral("request #0: allowed")) &&
                   t.endsWith(QStringLiteral("request #11: allowed"));
        });
        QVERIFY2(mark != drawn.cend(), qPrintable(drawn.join(QStringLiteral(" | "))));
        // A short mark in the middle keeps its whole label.
        chart.addMarker(3.0, QStringLiteral("config changed"));
        QVERIFY(textsInPlot(chart).contains(QStringLiteral("config changed")));
    }

    // The rows above the bars: a label takes the first row where it covers none, the window
    // counts' row and the burst's are kept however short the plot (the burst took the counts'
    // row there and hid them), the marks stay within a share of the plot or the rows already
    // taken, and the axis leaves the rows clear of the bars (a third of the plot at least).
    void labelRows() {
        const QRectF plot(50, 20, 800, 100);  // a presentation-mode timeline's plot
        TimelineLabelRows rows(plot, 20);     // rows of 22 px: one fits in 40 % of 100 px
        QCOMPARE(rows.maxRows(), 1);
        rows.take(0, 60, 80);  // window counts
        rows.take(0, 100, 120);
        QCOMPARE(rows.place(55, 250), 1);         // the burst's label: a row of its own
        QCOMPARE(rows.place(300, 400), 0);        // one clear of the counts: theirs
        QCOMPARE(rows.place(310, 330, 2, 1), 1);  // a mark with no row free: shares one
        QCOMPARE(rows.rowsUsed(), 2);
        QCOMPARE(rows.top(1), 20 + 3 + 22.0);
        QCOMPARE(rows.bottom(), 20 + 3 + 44.0);
        // Bars 10 high under 47 px of labels in 100: the axis goes to 10 x 100 / 53.
        QCOMPARE(rows.axisTop(10), 10 * 100 / 53.0);
        QCOMPARE(rows.axisTop(10, 4), 30.0);                      // 4 rows: the bars keep a third
        QCOMPARE(TimelineLabelRows(plot, 20).axisTop(10), 11.0);  // no label: a tenth
    }

    // The steps' labels were drawn in the markers' purple, 3.1:1 on a light base: a projector
    // or a grayscale handout lost them. Their text is now that colour darkened until it reads
    // (on dark, the purple reads as it is).
    void markerLabelReads_data() {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void markerLabelReads() {
        QFETCH(bool, dark);
        TimelineChart chart;
        if (dark)
            chart.setPalette(darkPalette());
        QVERIFY(show(chart));
        const LimiterSpec spec = fixedWindow(10, 1, CalendarUnit::Seconds);
        chart.setLimiter(spec, 1, 100, kStart);
        chart.updateFrom(makeRun(spec, 100, 5000), 0, nullptr);
        chart.addMarker(2.0, QStringLiteral("request #3: allowed"));
        const QColor base = chart.palette().color(QPalette::Base);
        bool found = false;
        for (QGraphicsItem* item : chart.scene()->items()) {
            auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item);
            if (text == nullptr || text->text() != QStringLiteral("request #3: allowed"))
                continue;
            found = true;
            const double ratio = style::contrastRatio(text->brush().color(), base);
            QVERIFY2(ratio >= style::kMinContrast,
                     qPrintable(QStringLiteral("%1 on %2: %3:1")
                                    .arg(text->brush().color().name(), base.name())
                                    .arg(ratio)));
        }
        QVERIFY(found);
    }
};

QTEST_MAIN(TestTimelineLabels)
#include "tst_timeline_labels.moc"
