// The latency chart fed with synthetic RunSnapshot values (no Redis): the title's percentiles,
// the bars, the limiter switch, labels that do not overlap and a title that says what it counts.

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLocale>
#include <QRegularExpression>
#include <QTest>
#include <QValueAxis>
#include <cmath>

#include "panels/latency_chart.h"
#include "panels/table_cells.h"
#include "support/panel_inputs.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

LatencyHistogram::Snapshot histogramOf(const QString& kind) {
    LatencyHistogram histogram;
    if (kind == QLatin1String("single")) {
        for (int i = 0; i < 10; ++i)
            histogram.record(2500);
    } else if (kind == QLatin1String("exact")) {  // below 128 us every value has its bucket
        for (int v = 1; v <= 100; ++v)
            histogram.record(v);
    } else if (kind == QLatin1String("zeros")) {
        for (int i = 0; i < 5; ++i)
            histogram.record(0);
        histogram.record(700);
    } else if (kind == QLatin1String("wide")) {  // log-uniform from 10 us to 10 s
        for (int i = 0; i < 20000; ++i)
            histogram.record(std::int64_t(10 * std::pow(1e6, double(i) / 19999)));
    } else if (kind == QLatin1String("bimodal")) {
        for (int i = 0; i < 9000; ++i)
            histogram.record(300 + i % 50);
        for (int i = 0; i < 1000; ++i)
            histogram.record(2'000'000 + 997 * i);
    } else if (kind == QLatin1String("clamped")) {
        histogram.record(50);
        histogram.record(LatencyHistogram::kMaxValue * 2);
    }
    return histogram.snapshot();
}

QBarSet* barSetOf(const LatencyChart& chart) {
    auto* view = chart.findChild<QChartView*>();
    auto* series = qobject_cast<QBarSeries*>(view->chart()->series().value(0));
    return series ? series->barSets().value(0) : nullptr;
}

}  // namespace

class TestLatencyChart : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void latencyChart_data();
    void latencyChart();
    void latencyChartSwitchAndEmpty();
    void latencyLabelsDoNotOverlap_data();
    void latencyLabelsDoNotOverlap();
    void latencyTitleSaysWhatItCounts_data();
    void latencyTitleSaysWhatItCounts();
};

void TestLatencyChart::initTestCase() {
    // Expected texts use English group separators whatever the machine's locale.
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void TestLatencyChart::latencyChart_data() {
    QTest::addColumn<QString>("kind");
    QTest::newRow("single value") << "single";
    QTest::newRow("exact small values") << "exact";
    QTest::newRow("zeros") << "zeros";
    QTest::newRow("log-uniform 10 us to 10 s") << "wide";
    QTest::newRow("bimodal") << "bimodal";
    QTest::newRow("clamped") << "clamped";
}

void TestLatencyChart::latencyChart() {
    QFETCH(QString, kind);
    const LatencyHistogram::Snapshot latency = histogramOf(kind);
    RunSnapshot run;
    run.limiters.append(limiterSnapshot(QStringLiteral("api"), 0, 0, 0, 0));
    run.limiters[0].latency = latency;

    LatencyChart chart;
    chart.updateFrom(run);
    chart.updateFrom(run);

    // Each number in the title is the percentile to within half its last printed digit.
    const QRegularExpression pattern(
        QStringLiteral("^p50 ([\\d.,]+) \u00b7 p90 ([\\d.,]+) \u00b7 p99 ([\\d.,]+) ms<br>"
                       "p99.9 ([\\d.,]+) \u00b7 max ([\\d.,]+) ms$"));
    const QRegularExpressionMatch match = pattern.match(chart.titleText());
    QVERIFY2(match.hasMatch(), qPrintable(chart.titleText()));
    const double percents[] = {50, 90, 99, 99.9, 100};
    for (int i = 0; i < 5; ++i) {
        const QString text = match.captured(i + 1);
        bool ok = false;
        const double shownMs = QLocale().toDouble(text, &ok);
        QVERIFY2(ok, qPrintable(text));
        const int dot = int(text.indexOf(QLatin1Char('.')));
        const int decimals = dot < 0 ? 0 : int(text.size()) - dot - 1;
        const double expectedMs = double(latency.percentile(percents[i])) / 1000.0;
        QVERIFY2(std::fabs(shownMs - expectedMs) <= 0.5 * std::pow(10.0, -decimals) + 1e-9,
                 qPrintable(QStringLiteral("%1: %2 vs %3").arg(i).arg(text).arg(expectedMs)));
    }
    QCOMPARE(latency.percentile(100), latency.max);

    QBarSet* set = barSetOf(chart);
    QVERIFY(set);
    QCOMPARE(chart.barCount(), int(set->count()));
    QVERIFY(chart.barCount() >= 1);
    QVERIFY(chart.barCount() <= 40);
    double sum = 0;
    for (int i = 0; i < set->count(); ++i)
        sum += set->at(i);
    QCOMPARE(sum, double(latency.total));
    QVERIFY(set->at(0) > 0);
    QVERIFY(set->at(int(set->count()) - 1) > 0);
}

void TestLatencyChart::latencyChartSwitchAndEmpty() {
    LatencyChart chart;
    QCOMPARE(chart.titleText(), QStringLiteral("No latencies yet"));
    QCOMPARE(chart.barCount(), 0);

    RunSnapshot run;
    run.limiters.append(limiterSnapshot(QStringLiteral("api"), 0, 0, 0, 0));
    run.limiters.append(limiterSnapshot(QStringLiteral("login"), 0, 0, 0, 0));
    run.limiters[1].latency = histogramOf(QStringLiteral("single"));
    chart.updateFrom(run);
    QCOMPARE(chart.titleText(), QStringLiteral("No latencies yet"));
    auto* combo = chart.findChild<QComboBox*>(QStringLiteral("limiter"));
    QVERIFY(combo);
    combo->setCurrentIndex(1);
    // 2500 us sits in the bucket [2496, 2527]; percentiles report its top capped at the max.
    QCOMPARE(chart.titleText(),
             QStringLiteral("p50 2.500 \u00b7 p90 2.500 \u00b7 p99 2.500 ms<br>p99.9 "
                            "2.500 \u00b7 max 2.500 ms"));
    QCOMPARE(chart.barCount(), 1);

    run.limiters[1].latency = histogramOf(QStringLiteral("wide"));
    chart.updateFrom(run);
    QVERIFY(chart.barCount() > 20);
    QVERIFY(chart.barCount() <= 40);
    run.limiters[1].latency = histogramOf(QString());  // emptied
    chart.updateFrom(run);
    QCOMPARE(chart.barCount(), 0);
    QCOMPARE(chart.titleText(), QStringLiteral("No latencies yet"));
}

void TestLatencyChart::latencyLabelsDoNotOverlap_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("width");
    QTest::newRow("wide at 1024") << "wide" << 1024;
    QTest::newRow("wide at 600") << "wide" << 600;
    QTest::newRow("bimodal at 700") << "bimodal" << 700;
}

// The histogram's labels do not overlap, down to a 1024 x 700 window: they are horizontal and
// thinned out so that each shown label fits in the space up to the next one.
void TestLatencyChart::latencyLabelsDoNotOverlap() {
    QFETCH(QString, kind);
    QFETCH(int, width);
    RunSnapshot run;
    run.limiters.append(limiterSnapshot(QStringLiteral("api"), 0, 0, 0, 0));
    run.limiters[0].latency = histogramOf(kind);
    LatencyChart chart;
    chart.resize(width, 450);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.updateFrom(run);
    QCoreApplication::processEvents();
    chart.updateFrom(run);

    auto* axis =
        qobject_cast<QBarCategoryAxis*>(chart.chartView()->chart()->axes(Qt::Horizontal).value(0));
    QVERIFY(axis);
    QCOMPARE(axis->labelsAngle(), 0);
    const QStringList labels = chart.axisLabels();
    QCOMPARE(labels.size(), chart.barCount());
    const double pitch = chart.chartView()->chart()->plotArea().width() / double(labels.size());
    const QFontMetrics metrics(axis->labelsFont());
    int previous = -1;
    int shown = 0;
    for (int i = 0; i < labels.size(); ++i) {
        if (labels[i].trimmed().remove(QChar(0x200B)).isEmpty())
            continue;
        ++shown;
        if (previous >= 0) {
            // Centred under their bars: half of each label on either side of its centre.
            const double room = pitch * (i - previous);
            const double needed = (metrics.horizontalAdvance(labels[previous]) +
                                   metrics.horizontalAdvance(labels[i])) /
                                  2.0;
            QVERIFY2(room >= needed, qPrintable(QStringLiteral("%1 and %2: %3 px for %4")
                                                    .arg(labels[previous], labels[i])
                                                    .arg(room)
                                                    .arg(needed)));
        }
        previous = i;
    }
    QVERIFY(shown >= 2);
    // Each bar tells its range and count.
    QVERIFY2(chart.barToolTip(0).contains(QStringLiteral("script calls")),
             qPrintable(chart.barToolTip(0)));
}

void TestLatencyChart::latencyTitleSaysWhatItCounts_data() {
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("virtual clock") << "virtual" << QStringLiteral("virtual clock");
    QTest::newRow("wait mode") << "wait" << QStringLiteral("waited for a grant");
    QTest::newRow("try mode") << "try" << QStringLiteral("p50");
}

// The histogram says what it counts: script calls, on its axis too. In wait mode the title gives
// the wait for a grant (its percentiles and mean) apart from the calls' percentiles; a virtual run
// says its clock decides without waiting for Redis instead of showing 0.000 everywhere.
void TestLatencyChart::latencyTitleSaysWhatItCounts() {
    QFETCH(QString, mode);
    QFETCH(QString, mentions);
    RunSnapshot run;
    run.limiters.append(limiterSnapshot(QStringLiteral("api"), 0, 0, 0, 0));
    LatencyHistogram calls;
    LatencyHistogram waited;
    if (mode == QLatin1String("virtual")) {
        for (int i = 0; i < 7; ++i)
            calls.record(0);
    } else {
        for (int i = 0; i < 700; ++i)
            calls.record(1000 + i * 20);
    }
    if (mode == QLatin1String("wait")) {
        for (int i = 0; i < 100; ++i)
            waited.record(150'000 + i * 100);
    }
    run.limiters[0].latency = calls.snapshot();
    run.limiters[0].waited = waited.snapshot();
    LatencyChart chart;
    chart.updateFrom(run);
    QVERIFY2(chart.titleText().contains(mentions), qPrintable(chart.titleText()));
    if (mode == QLatin1String("wait")) {
        const QString mean = panel::formatMs(qint64(waited.snapshot().mean()));
        QVERIFY2(chart.titleText().contains(QStringLiteral("mean %1 ms").arg(mean)),
                 qPrintable(chart.titleText()));
    }
    auto* axisY =
        qobject_cast<QValueAxis*>(chart.chartView()->chart()->axes(Qt::Vertical).value(0));
    QVERIFY(axisY);
    QCOMPARE(axisY->titleText(), QStringLiteral("script calls"));
}

QTEST_MAIN(TestLatencyChart)
#include "tst_latency_chart.moc"
