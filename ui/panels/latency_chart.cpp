#include "panels/latency_chart.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QEvent>
#include <QFontMetrics>
#include <QGraphicsLayout>
#include <QResizeEvent>
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
    set_ = new QBarSet(tr("script calls"), series_);
    series_->append(set_);
    chart->addSeries(series_);
    axisX_ = new QBarCategoryAxis(chart);
    axisX_->setTitleText(tr("ms per script call (bar start)"));
    axisX_->setTruncateLabels(false);  // labels are thinned out to fit instead
    axisX_->setLabelsAngle(0);
    axisY_ = new QValueAxis(chart);
    // Wait mode retries: one request can be several calls, so these are not requests.
    axisY_->setTitleText(tr("script calls"));
    axisY_->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(axisX_, Qt::AlignBottom);
    chart->addAxis(axisY_, Qt::AlignLeft);
    series_->attachAxis(axisX_);
    series_->attachAxis(axisY_);
    applyPalette();
    render();

    connect(combo_, &QComboBox::currentIndexChanged, this, [this] { render(); });
    connect(set_, &QBarSet::hovered, this,
            [this](bool on, int bar) { view_->setToolTip(on ? barToolTip(bar) : QString()); });
    view_->setToolTip(QString());
}

QStringList LatencyChart::axisLabels() const {
    return axisX_->categories();
}

QString LatencyChart::barToolTip(int bar) const {
    if (bar < 0 || bar >= counts_.size())
        return QString();
    return tr("%1 \u2013 %2 ms: %3 script calls")
        .arg(panel::formatMs(fromUs_[bar]), panel::formatMs(toUs_[bar] + 1),
             panel::count(qint64(counts_[bar])));
}

void LatencyChart::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    render();  // as many labels as the new width holds
}

// How many of the widest sample label fit side by side across the plot.
int LatencyChart::readableLabels(const QStringList& samples) const {
    const QFontMetrics metrics(axisX_->labelsFont());
    int widest = metrics.horizontalAdvance(QStringLiteral("0.000"));
    for (const QString& s : samples)
        widest = std::max(widest, metrics.horizontalAdvance(s));
    const double plot = view_->chart()->plotArea().width() > 0 ? view_->chart()->plotArea().width()
                                                               : double(view_->width()) - 80;
    return std::max(2, int(plot / double(widest + metrics.averageCharWidth() * 3)));
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

    // Labels as wide as the widest possible one (the last bar's) decide how many fit.
    const LatencyBars all = latencyBars(latency, LatencyBars::kMaxBars);
    const LatencyBars bars = latencyBars(latency, readableLabels(all.labels));
    fromUs_ = bars.fromUs;
    toUs_ = bars.toUs;
    counts_ = bars.counts;
    if (set_->count() != bars.counts.size()) {
        set_->remove(0, set_->count());
        set_->append(bars.counts);
    } else {
        for (int i = 0; i < bars.counts.size(); ++i) {
            if (set_->at(i) != bars.counts[i])
                set_->replace(i, bars.counts[i]);
        }
    }
    if (axisX_->categories() != bars.labels)
        axisX_->setCategories(bars.labels);
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
    } else if (latency.max == 0) {
        title = tr("All %1 calls took 0 ms: a virtual clock as fast<br>as possible decides at "
                   "the scheduled time,<br>without waiting for Redis: no latency to show")
                    .arg(panel::count(qint64(latency.total)));
    } else {
        // Short lines: the histogram may get a third of a 1024 px window.
        title = tr("p50 %1 · p90 %2 · p99 %3 ms<br>p99.9 %4 · max %5 ms")
                    .arg(panel::formatMs(latency.percentile(50)),
                         panel::formatMs(latency.percentile(90)),
                         panel::formatMs(latency.percentile(99)),
                         panel::formatMs(latency.percentile(99.9)), panel::formatMs(latency.max));
        const LatencyHistogram::Snapshot& waited = have ? run_.limiters[index].waited : empty;
        if (waited.total > 0) {
            // Wait mode: a request waits over several calls; its wait is another quantity.
            title +=
                QStringLiteral("<br>") +
                tr("waited for a grant (%1 granted):<br>p50 %2 · p99 %3 · mean %4 ms")
                    .arg(panel::count(qint64(waited.total)), panel::formatMs(waited.percentile(50)),
                         panel::formatMs(waited.percentile(99)),
                         panel::formatMs(qint64(waited.mean())));
        }
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
