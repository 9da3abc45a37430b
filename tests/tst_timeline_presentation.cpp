// The timeline in presentation mode (for a projector) and back: the notes in the chart grow with
// the rest, the right axis keeps its title, and leaving the mode gives back the normal look.

#include <QChart>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QValueAxis>
#include <QtTest>

#include "charts/timeline_chart.h"
#include "limiters/limiter_state.h"
#include "style/series_style.h"
#include "support/timeline_runs.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// The point size of the drawn note that reads `text`; 0 when none does.
double noteSize(const TimelineChart& chart, const QString& text) {
    for (QGraphicsItem* item : chart.scene()->items()) {
        auto* note = dynamic_cast<QGraphicsSimpleTextItem*>(item);
        if (note && note->isVisible() && note->text() == text)
            return note->font().pointSizeF();
    }
    return 0;
}

// A fixed window of 10 per second with a count in each window, a marker and the admitted burst.
void drawNotes(TimelineChart& chart) {
    const LimiterSpec spec = fixedWindow(10, 1, CalendarUnit::Seconds);
    chart.setLimiter(spec, 1, 100, kStart);
    LimiterState state;
    state.nowMs = kStart + 5000;
    for (qint64 k = 0; k < 6; ++k) {
        LimiterState::WindowCount w;
        w.startMs = kStart + k * 1000;
        w.endMs = w.startMs + 1000;
        w.count = 7;
        state.windows << w;
    }
    chart.updateFrom(makeRun(spec, 100, 5000), 0, &state);
    chart.addMarker(2.0, QStringLiteral("config changed"));
    BusiestInterval burst;
    burst.windowMs = 1000;
    burst.permits = 17;
    burst.fromMs = kStart + 1500;
    burst.firstMs = burst.fromMs;
    burst.lastMs = burst.fromMs + 900;
    chart.setBusiestIntervals({burst});
}

// The three axes: time, requests, permits.
QList<QValueAxis*> axes(const TimelineChart& chart) {
    QList<QValueAxis*> list;
    for (QAbstractAxis* axis : chart.chart()->axes())
        list << qobject_cast<QValueAxis*>(axis);
    return list;
}

}  // namespace

class TestTimelinePresentation : public QObject {
    Q_OBJECT

private slots:
    // The window counts, the admitted burst's "17 accepted in 1000 ms here" and the markers
    // stayed at 8.5 pt while everything else grew by half.
    void notesGrow() {
        TimelineChart chart;
        QVERIFY(show(chart));
        drawNotes(chart);
        const QString notes[] = {QStringLiteral("7/10"),
                                 QStringLiteral("17 accepted in 1000 ms here"),
                                 QStringLiteral("config changed")};
        for (const QString& note : notes)
            QCOMPARE(noteSize(chart, note), 8.5);
        chart.setPresentation(true);
        for (const QString& note : notes)
            QCOMPARE(noteSize(chart, note), 8.5 * style::kPresentationScale);
        chart.setPresentation(false);
        for (const QString& note : notes)
            QCOMPARE(noteSize(chart, note), 8.5);
    }

    // Presentation mode hid every axis title: the permits' axis on the right then said nothing
    // of what it counts. It keeps its title; the time and request axes drop theirs.
    void rightAxisKeepsItsTitle() {
        TimelineChart chart;
        QVERIFY(show(chart));
        const LimiterSpec spec = tokenBucket(10, 1000);
        chart.setLimiter(spec, 1, 100, kStart);
        const LimiterState state = tokenState(kStart + 3000, {{QString(), 4}});
        chart.updateFrom(makeRun(spec, 100, 3000), 0, &state);
        chart.setPresentation(true);
        QValueAxis* permits = nullptr;
        for (QValueAxis* axis : axes(chart)) {
            if (axis->alignment() == Qt::AlignRight)
                permits = axis;
            else
                QVERIFY(!axis->isTitleVisible());
        }
        QVERIFY(permits && permits->isVisible());
        QVERIFY(permits->isTitleVisible());
        QCOMPARE(permits->titleText(), QStringLiteral("permits"));  // whole along the plot
        chart.setPresentation(false);
        QCOMPARE(permits->titleText(), QStringLiteral("permits available"));
    }

    void leavingGivesTheNormalLookBack_data() {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }

    // After leaving presentation mode the charts kept its large legend and axis labels (the
    // chart theme, set again unchanged, resets nothing), and the request axis' title was cut,
    // until the scenario was loaded again. Now a chart that was in presentation mode looks as
    // one that never was: the same fonts, titles and plot area.
    void leavingGivesTheNormalLookBack() {
        QFETCH(bool, dark);
        const QPalette palette = dark ? darkPalette() : QPalette();
        TimelineChart was;
        TimelineChart never;
        for (TimelineChart* chart : {&was, &never}) {
            chart->setPalette(palette);
            QVERIFY(show(*chart));
            drawNotes(*chart);
        }
        was.setPresentation(true);
        QVERIFY(was.chart()->legend()->font().pointSizeF() >
                never.chart()->legend()->font().pointSizeF());
        was.setPresentation(false);
        QCoreApplication::processEvents();
        QCOMPARE(was.chart()->titleFont(), never.chart()->titleFont());
        QCOMPARE(was.chart()->legend()->font(), never.chart()->legend()->font());
        const QList<QValueAxis*> wasAxes = axes(was);
        const QList<QValueAxis*> neverAxes = axes(never);
        QCOMPARE(wasAxes.size(), neverAxes.size());
        for (int i = 0; i < wasAxes.size(); ++i) {
            QCOMPARE(wasAxes[i]->labelsFont(), neverAxes[i]->labelsFont());
            QCOMPARE(wasAxes[i]->titleFont(), neverAxes[i]->titleFont());
            QCOMPARE(wasAxes[i]->isTitleVisible(), neverAxes[i]->isTitleVisible());
        }
        QCOMPARE(was.chart()->plotArea(), never.chart()->plotArea());
    }
};

QTEST_MAIN(TestTimelinePresentation)
#include "tst_timeline_presentation.moc"
