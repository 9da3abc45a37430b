#include "panels/cumulative_chart.h"

#include <QChart>
#include <QEvent>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>

#include "charts/nice_axis.h"
#include "charts/nice_scale.h"
#include "style/palette_colors.h"
#include "style/series_style.h"

namespace ratelab {
namespace {

// The running total of `counts` (each bucket's count, or three of them added) at the end of
// every group of buckets up to `buckets`, from (0, 0).
template <typename CountAt>
QList<QPointF> runningTotal(qint64 buckets, qint64 bucketMs, CountAt countAt) {
    QList<QPointF> points{QPointF(0, 0)};
    const qint64 group = std::max<qint64>(
        1, (buckets + CumulativeChart::kMaxPoints - 1) / CumulativeChart::kMaxPoints);
    qint64 total = 0;
    for (qint64 i = 0; i < buckets; ++i) {
        total += countAt(int(i));
        if ((i + 1) % group == 0 || i + 1 == buckets)
            points << QPointF(double((i + 1) * bucketMs) / 1000.0, double(total));
    }
    return points;
}

}  // namespace

CumulativeChart::CumulativeChart(QWidget* parent) : QChartView(parent), chart_(chart()) {
    setObjectName(QStringLiteral("cumulativeChart"));
    setRenderHint(QPainter::Antialiasing);
    chart_->setAnimationOptions(QChart::NoAnimation);
    chart_->setLocalizeNumbers(true);
    chart_->layout()->setContentsMargins(0, 0, 0, 0);
    chart_->setBackgroundRoundness(0);
    chart_->legend()->setAlignment(Qt::AlignBottom);
    // Each legend swatch drawn as its series is: a line as a line with its dash, an area as a
    // square (Qt's default draws every series as a square, so two black lines looked alike).
    chart_->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    chart_->setTitle(tr("Accepted so far, per limiter (the grey line: requests fired)"));
    axisX_ = new QValueAxis(chart_);
    axisX_->setTitleText(tr("run time (s)"));
    axisX_->setTickType(QValueAxis::TicksDynamic);
    axisX_->setTickAnchor(0);
    axisY_ = new QValueAxis(chart_);
    axisY_->setTitleText(tr("requests"));
    axisY_->setLabelFormat(QStringLiteral("%.0f"));
    chart_->addAxis(axisX_, Qt::AlignBottom);
    chart_->addAxis(axisY_, Qt::AlignLeft);
    fired_ = new QLineSeries(chart_);
    fired_->setName(tr("fired"));
    chart_->addSeries(fired_);
    fired_->attachAxis(axisX_);
    fired_->attachAxis(axisY_);
    setMinimumHeight(fontMetrics().height() * 16);
    applyLook();
}

void CumulativeChart::updateFrom(const RunSnapshot& run) {
    run_ = run;
    if (!isVisible()) {
        stale_ = true;  // drawn when shown
        return;
    }
    draw();
}

// QChartView raises its minimum to the chart's at each resize and never lowers it: kept to
// the chart's own least width, so the tab can narrow again (as TimelineChart does).
void CumulativeChart::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    const int least = fontMetrics().averageCharWidth() * 40;
    if (minimumWidth() > least)
        setMinimumWidth(least);
}

void CumulativeChart::showEvent(QShowEvent* event) {
    QChartView::showEvent(event);
    if (stale_)
        draw();
}

void CumulativeChart::draw() {
    stale_ = false;
    while (lines_.size() > run_.limiters.size()) {
        QLineSeries* gone = lines_.takeLast();
        chart_->removeSeries(gone);
        delete gone;
    }
    const bool dark = style::isDark(palette());
    while (lines_.size() < run_.limiters.size()) {
        auto* line = new QLineSeries(chart_);
        chart_->addSeries(line);
        line->attachAxis(axisX_);
        line->attachAxis(axisY_);
        line->setPen(style::limiterPen(int(lines_.size()), dark));
        lines_ << line;
    }
    const qint64 bucketMs = std::max<qint64>(run_.bucketMs, 1);
    // The buckets the run has reached (all of them once it is over).
    const qint64 reached =
        run_.finished ? qint64(1) << 40 : (run_.elapsedUs / 1000 + bucketMs - 1) / bucketMs;
    double top = 1;
    for (int i = 0; i < run_.limiters.size(); ++i) {
        const LimiterSnapshot& l = run_.limiters[i];
        const qint64 buckets = std::min<qint64>(reached, l.bucketAccepted.size());
        const QList<QPointF> points =
            runningTotal(buckets, bucketMs, [&l](int b) { return l.bucketAccepted[b]; });
        if (lines_[i]->name() != l.spec.name)
            lines_[i]->setName(l.spec.name);
        lines_[i]->replace(points);
        if (i == 0) {
            const auto value = [](const QVector<qint64>& v, int b) {
                return b < v.size() ? v[b] : 0;
            };
            const QList<QPointF> fired = runningTotal(buckets, bucketMs, [&](int b) {
                return value(l.bucketAccepted, b) + value(l.bucketRejected, b) +
                       value(l.bucketErrors, b);
            });
            fired_->replace(fired);
            top = std::max(top, fired.last().y());
        }
        top = std::max(top, points.last().y());
    }
    if (run_.limiters.isEmpty())
        fired_->clear();
    const double duration = double(run_.durationUs) / 1e6;
    const double end =
        std::max({duration, fired_->count() > 0 ? fired_->points().last().x() : 0.0, 1.0});
    // Ticks on round seconds, as on the timelines.
    const double step = niceStep(end, 8);
    axisX_->setRange(0, end);
    if (axisX_->tickInterval() != step)
        axisX_->setTickInterval(step);
    axisX_->setLabelFormat(step >= 1 ? QStringLiteral("%.0f") : QStringLiteral("%.1f"));
    setNiceRange(axisY_, top * 1.05);
}

void CumulativeChart::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        applyLook();
    QChartView::changeEvent(event);
}

// The palette's theme and the widget's font (larger in presentation mode) on every text.
void CumulativeChart::applyLook() {
    const QPalette pal = palette();
    const bool dark = style::isDark(pal);
    chart_->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart_->setBackgroundBrush(pal.color(QPalette::Base));
    chart_->setBackgroundRoundness(0);
    chart_->setDropShadowEnabled(false);
    setBackgroundBrush(pal.color(QPalette::Base));
    QFont title = font();
    title.setBold(true);
    chart_->setTitleFont(title);
    chart_->legend()->setFont(font());
    for (QValueAxis* axis : {axisX_, axisY_}) {
        axis->setLabelsFont(font());
        QFont axisTitle = font();
        axisTitle.setPointSizeF(font().pointSizeF() * 0.9);
        axis->setTitleFont(axisTitle);
        if (!dark)
            axis->setGridLineColor(style::seriesColors(false).grid);
    }
    QColor firedColor = style::seriesColors(dark).errors;
    fired_->setPen(style::seriesPen(firedColor, 1.5));
    for (int i = 0; i < lines_.size(); ++i)
        lines_[i]->setPen(style::limiterPen(i, dark));
    setMinimumHeight(fontMetrics().height() * 16);
}

}  // namespace ratelab
