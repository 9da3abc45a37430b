// The comparison tab (ComparisonView), fed with synthetic runs (no Redis): a chart per measure
// across the limiters — the accepted share and the admitted burst as bars, the accepted requests
// over time on one axis — and the table under them, readable at 1024 x 700 and in presentation
// mode: names and headers whole, every row shown, the latency histogram given room.

#include <QHeaderView>
#include <QLineSeries>
#include <QScrollBar>
#include <QTableWidget>
#include <QTest>

#include "panels/client_table.h"
#include "panels/comparison_bars.h"
#include "panels/comparison_table.h"
#include "panels/comparison_view.h"
#include "panels/cumulative_chart.h"
#include "panels/latency_chart.h"
#include "panels/marked_burst.h"
#include "support/panel_inputs.h"
#include "support/table_checks.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// Three limiters over 30 s of 100 ms buckets: 600 requests each, those accepted spread evenly;
// the fixed window let 17 through in one second (twice its 10), the others 10.
RunSnapshot threeLimiters(bool finished) {
    RunSnapshot run;
    run.scenarioName = QStringLiteral("compare");
    run.startEpochMs = 1'700'000'040'000;
    run.bucketMs = 100;
    run.durationUs = 30'000'000;
    run.elapsedUs = finished ? 30'000'000 : 15'000'000;
    run.finished = finished;
    const QString names[] = {QStringLiteral("demo-fixed"), QStringLiteral("demo-sliding"),
                             QStringLiteral("demo-bucket")};
    const LimiterType types[] = {LimiterType::FixedWindow, LimiterType::SlidingWindow,
                                 LimiterType::TokenBucket};
    const qint64 perBucket[] = {1, 0, 1};
    for (int i = 0; i < 3; ++i) {
        LimiterSnapshot l = limiterSnapshot(names[i], 0, 0, 0, 0);
        l.spec.type = types[i];
        l.spec.rate = 10;
        l.spec.intervalMs = 1000;
        l.spec.interval = 1;
        l.spec.unit = CalendarUnit::Seconds;
        l.spec.timezone = "UTC";
        l.spec.rules = {{10, 1000}};
        for (int b = 0; b < 300; ++b) {
            const qint64 accepted = i == 1 ? (b % 5 == 0 ? 1 : 0) : perBucket[i];
            l.bucketAccepted << accepted;
            l.bucketRejected << 2 - accepted;
            l.bucketErrors << 0;
            if (!finished && b >= 150)
                continue;
            l.accepted += accepted;
            l.rejected += 2 - accepted;
        }
        l.fired = l.accepted + l.rejected;
        BusiestInterval burst;
        burst.windowMs = 1000;
        burst.permits = i == 0 ? 17 : 10;
        burst.fromMs = 5500;
        l.admittedBurst = {burst};
        run.limiters << l;
    }
    return run;
}

}  // namespace

class TestComparisonView : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    // The accepted share of each limiter as a bar (to 100 %), its admitted burst once the run is
    // over (a note until then), crossed by what its limit admits in that window.
    void barsPerMeasure() {
        ComparisonView view;
        view.resize(900, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.updateFrom(threeLimiters(false));
        const QVector<ComparisonBars::Bar> shares = view.acceptedBars()->bars();
        QCOMPARE(shares.size(), 3);
        QCOMPARE(shares[0].name, QStringLiteral("demo-fixed"));
        QCOMPARE(shares[0].text, QStringLiteral("50.0 %"));
        QCOMPARE(shares[1].text, QStringLiteral("10.0 %"));
        QVERIFY(view.acceptedBars()->barRect(0).width() > view.acceptedBars()->barRect(1).width());
        QVERIFY(view.burstBars()->bars().isEmpty());
        QVERIFY(view.burstBars()->note().contains(QStringLiteral("when the run ends")));

        view.updateFrom(threeLimiters(true));
        const QVector<ComparisonBars::Bar> bursts = view.burstBars()->bars();
        QCOMPARE(bursts.size(), 3);
        QCOMPARE(bursts[0].text, QStringLiteral("17 in 1000 ms"));
        QCOMPARE(bursts[0].reference, 10.0);  // 10 per 1 s
        QCOMPARE(bursts[2].reference, 10.0);
        QVERIFY(view.burstBars()->note().isEmpty());
        // The limit's line crosses a bar, never its value: "25 in 10|00 ms" when the limit lay
        // beyond a shorter bar.
        for (int i = 0; i < bursts.size(); ++i) {
            const int x = view.burstBars()->referenceX(i);
            QVERIFY(x >= view.burstBars()->barRect(i).left());
            QVERIFY(view.burstBars()->valueRect(i).left() > x);
        }
        QVERIFY(bursts[0].toolTip.contains(QStringLiteral("5.500")));
    }

    // A concurrency limiter whose grants release admits more in a window than its limit of
    // requests in flight (165 in 1 s is normal for 20 in flight released early): its burst is
    // not above the limit, so the table's "Max in" cell is not marked red. Without releases
    // (every grant held or leaked) the limit per lease is a ceiling again.
    void concurrencyBurstAllowedWhenGrantsRelease() {
        LimiterSnapshot l;
        l.spec.type = LimiterType::Concurrency;
        l.spec.name = QStringLiteral("pool");
        l.spec.limit = 20;
        l.spec.leaseMs = 1000;
        BusiestInterval burst;
        burst.windowMs = 1000;
        burst.permits = 165;
        l.admittedBurst = {burst};
        l.leases.released = 160;
        const std::optional<panel::MarkedBurst> released = panel::markedBurst(l);
        QVERIFY(released.has_value());
        QCOMPARE(released->limit, 20.0);
        QVERIFY(!released->aboveLimit());
        l.leases.released = 0;
        l.leases.leaked = 20;
        QVERIFY(panel::markedBurst(l)->aboveLimit());
    }

    // Every limiter's accepted requests so far on one axis, and the requests fired.
    void acceptedOverTimeOnOneAxis() {
        ComparisonView view;
        view.resize(900, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const RunSnapshot run = threeLimiters(false);
        view.updateFrom(run);
        CumulativeChart* chart = view.cumulative();
        QCOMPARE(chart->lineCount(), 3);
        for (int i = 0; i < 3; ++i) {
            const QList<QPointF> points = chart->limiterLine(i)->points();
            QCOMPARE(points.last().y(), double(run.limiters[i].accepted));
            QCOMPARE(points.last().x(), 15.0);  // the time reached, not the buckets planned
            QCOMPARE(chart->limiterLine(i)->name(), run.limiters[i].spec.name);
            QVERIFY(points.size() <= CumulativeChart::kMaxPoints + 1);
        }
        QCOMPARE(chart->firedLine()->points().last().y(), double(run.limiters[0].fired));
        // Each limiter's own dash: the lines stay apart in grayscale.
        QVERIFY(chart->limiterLine(0)->pen().style() != chart->limiterLine(1)->pen().style());
        QVERIFY(chart->limiterLine(1)->pen().style() != chart->limiterLine(2)->pen().style());
    }

    // Four limiters with long names and per-client types at 1024 x 700: the numbers read "7,3…"
    // and the latency "0 (virtu…" because every column was capped alike; now the names and types
    // give up their room first (an elided one says itself in its tooltip) and the numbers stay
    // whole.
    void numbersWholeWhenNarrow() {
        ComparisonView view;
        view.resize(560, 480);  // the tab beside the scenario dock in a 1024 x 700 window
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        RunSnapshot run = threeLimiters(true);
        run.limiters << run.limiters[1];
        const QString names[] = {QStringLiteral("counter-exact"), QStringLiteral("counter-upstash"),
                                 QStringLiteral("gcra-exact"), QStringLiteral("gcra-redis-rate")};
        for (int i = 0; i < 4; ++i) {
            LimiterSnapshot& l = run.limiters[i];
            l.spec.name = names[i];
            l.spec.scope = Scope::PerClient;
            l.fired = 7328;
            l.accepted = 5373;
            l.rejected = 1955;
            l.latency.total = 7328;  // a virtual clock as fast as possible: every latency 0
            l.latency.max = 0;
        }
        view.updateFrom(run);
        QCoreApplication::processEvents();
        auto* table = view.table()->findChild<QTableWidget*>(QStringLiteral("comparison"));
        QVERIFY(table);
        for (int c = 0; c < table->columnCount(); ++c) {
            const QString header = table->horizontalHeaderItem(c)->text();
            if (c < 2 || table->isColumnHidden(c))
                continue;  // the limiter's name and type yield
            const int width = table->horizontalHeader()->sectionSize(c);
            const int need = headerTextWidth(table->horizontalHeader()->fontMetrics(), header);
            QVERIFY2(width >= need + 6,
                     qPrintable(
                         QStringLiteral("%1: %2 px for %3").arg(header).arg(width).arg(need + 6)));
            // Each figure whole as the view draws it: "1,350" of 34.4 px read "1,3…" in a
            // column of its whole pixels and the margins.
            for (int r = 0; r < table->rowCount(); ++r) {
                const QString cut = cellCut(table, r, c);
                QVERIFY2(cut.isEmpty(), qPrintable(cut));
            }
        }
    }

    void readableWhenSmall_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<double>("fontScale");
        // The tab of a 1024 x 700 window beside the scenario dock, and in presentation mode
        // (no dock, fonts 1.5 times as large).
        QTest::newRow("1024x700") << 620 << 1.0;
        QTest::newRow("1024x700, presentation") << 1000 << 1.5;
        QTest::newRow("1600x1000, presentation") << 1580 << 1.5;
    }

    // At 1024 x 700 the names read "dem…", the headers "Rejecte", two and a half rows showed and
    // the histogram was a strip: now the names and headers are whole, every row shows without a
    // scroll bar of the table's own, the bars' names are whole, the histogram has room.
    void readableWhenSmall() {
        QFETCH(int, width);
        QFETCH(double, fontScale);
        ComparisonView view;
        QFont font = view.font();
        font.setPointSizeF(font.pointSizeF() * fontScale);
        view.setFont(font);
        view.resize(width, 480);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.updateFrom(threeLimiters(true));
        QCoreApplication::processEvents();

        auto* table = view.table()->findChild<QTableWidget*>(QStringLiteral("comparison"));
        QVERIFY(table);
        QString cut;
        QVERIFY2(columnsWhole(table, &cut), qPrintable(cut));
        QVERIFY(!table->verticalScrollBar()->isVisible());
        QVERIFY(!table->horizontalScrollBar()->isVisible());
        QVERIFY2(table->verticalHeader()->defaultSectionSize() >= table->fontMetrics().height(),
                 "rows as tall as the font");
        QVERIFY(table->height() >= table->horizontalHeader()->height() +
                                       3 * table->verticalHeader()->defaultSectionSize());
        // The accounting holds: the status bar says it, its lines go to the table here; broken,
        // it shows (in red) here too.
        QVERIFY(!view.table()->accountingShown());
        RunSnapshot broken = threeLimiters(true);
        broken.limiters[0].fired += 1;
        view.updateFrom(broken);
        QVERIFY(view.table()->accountingShown());
        for (ComparisonBars* bars : {view.acceptedBars(), view.burstBars()}) {
            for (int i = 0; i < bars->bars().size(); ++i) {
                const QString name = bars->bars()[i].name;
                QVERIFY2(bars->nameRect(i).width() >= bars->fontMetrics().horizontalAdvance(name),
                         qPrintable(name));
                QVERIFY(bars->barRect(i).right() < bars->width());
            }
            QVERIFY2(bars->width() >= bars->minimumSizeHint().width(),
                     qPrintable(QStringLiteral("%1: %2 px for %3")
                                    .arg(bars->title())
                                    .arg(bars->width())
                                    .arg(bars->minimumSizeHint().width())));
        }
        // The histogram has room: the clients go above it when they cannot share the width.
        const int lines = view.fontMetrics().height();
        QVERIFY(view.latency()->height() >= 12 * lines);
        QVERIFY2(view.latency()->width() >=
                     std::min(width - 40, 60 * view.fontMetrics().averageCharWidth()),
                 qPrintable(QString::number(view.latency()->width())));
    }
};

QTEST_MAIN(TestComparisonView)
#include "tst_comparison_view.moc"
