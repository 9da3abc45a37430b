#include "panels/latency_chart.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QEvent>
#include <QGraphicsLayout>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

#include "panels/latency_bars.h"
#include "panels/table_cells.h"
#include "style/palette_colors.h"

namespace ratelab {

LatencyChart::LatencyChart(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    combo_ = panel::addLimiterRow(this, layout);
    view_ = new QChartView(this);  // creates and owns its chart
    view_->setObjectName(QStringLiteral("latencyChart"));
    view_->setRenderHint(QPainter::Antialiasing);
    layout->addWidget(view_, 1);

    QChart* chart = view_->chart();
    chart->legend()->hide();
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setLocalizeNumbers(true);
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    series_ = new QBarSeries(chart);
    series_->setBarWidth(0.9);
    set_ = new QBarSet(tr("requests"), series_);
    series_->append(set_);
    chart->addSeries(series_);
    axisX_ = new QBarCategoryAxis(chart);
    axisX_->setTitleText(tr("latency, ms (bar start)"));
    axisX_->setTruncateLabels(false);  // rotated labels would otherwise become "..."
    axisY_ = new QValueAxis(chart);
    axisY_->setTitleText(tr("requests"));
    axisY_->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(axisX_, Qt::AlignBottom);
    chart->addAxis(axisY_, Qt::AlignLeft);
    series_->attachAxis(axisX_);
    series_->attachAxis(axisY_);
    applyPalette();
    render();

    connect(combo_, &QComboBox::currentIndexChanged, this, [this] { render(); });
}

void LatencyChart::updateFrom(const RunSnapshot& run) {
    run_ = run;
    panel::syncLimiterCombo(combo_, run);
    render();
}

QString LatencyChart::titleText() const {
    return view_->chart()->title();
}

int LatencyChart::barCount() const {
    return int(set_->count());
}

void LatencyChart::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange && set_)
        applyPalette();
    QWidget::changeEvent(event);
}

void LatencyChart::render() {
    const int index = combo_->currentIndex();
    const bool have = index >= 0 && index < run_.limiters.size();
    const LatencyHistogram::Snapshot empty;
    const LatencyHistogram::Snapshot& latency = have ? run_.limiters[index].latency : empty;
    QChart* chart = view_->chart();

    const LatencyBars bars = latencyBars(latency);
    if (set_->count() != bars.counts.size()) {
        set_->remove(0, set_->count());
        set_->append(bars.counts);
    } else {
        for (int i = 0; i < bars.counts.size(); ++i) {
            if (set_->at(i) != bars.counts[i])
                set_->replace(i, bars.counts[i]);
        }
    }
    if (axisX_->categories() != bars.labels) {
        axisX_->setCategories(bars.labels);
        axisX_->setLabelsAngle(bars.labels.size() > 12 ? -90 : 0);
    }
    const double top = niceCeiling(
        bars.counts.isEmpty() ? 1 : *std::max_element(bars.counts.begin(), bars.counts.end()));
    if (top != yMax_) {
        yMax_ = top;
        axisY_->setRange(0, top);
        axisY_->applyNiceNumbers();
    }

    QString title;
    if (latency.total == 0) {
        title = tr("No latencies yet");
    } else {
        title = tr("p50 %1 ms \u00b7 p90 %2 ms \u00b7 p99 %3 ms \u00b7 p99.9 %4 ms "
                   "\u00b7 max %5 ms")
                    .arg(panel::formatMs(latency.percentile(50)),
                         panel::formatMs(latency.percentile(90)),
                         panel::formatMs(latency.percentile(99)),
                         panel::formatMs(latency.percentile(99.9)), panel::formatMs(latency.max));
    }
    if (chart->title() != title)
        chart->setTitle(title);
}

void LatencyChart::applyPalette() {
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::Text);
    QChart* chart = view_->chart();
    view_->setBackgroundBrush(pal.color(QPalette::Base));
    chart->setBackgroundBrush(pal.color(QPalette::Base));
    chart->setBackgroundPen(Qt::NoPen);
    chart->setTitleBrush(text);
    for (QAbstractAxis* axis :
         {static_cast<QAbstractAxis*>(axisX_), static_cast<QAbstractAxis*>(axisY_)}) {
        axis->setLabelsBrush(text);
        axis->setTitleBrush(text);
        axis->setLinePenColor(pal.color(QPalette::Mid));
        axis->setGridLineColor(style::withAlpha(text, 40));
    }
    const QColor bar = pal.color(QPalette::Highlight);
    set_->setColor(bar);
    set_->setBorderColor(bar.darker(130));
}

}  // namespace ratelab
