#include "charts/timeline_chart.h"

#include <QAreaSeries>
#include <QChart>
#include <QEvent>
#include <QGraphicsScene>
#include <QHelpEvent>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QScopedValueRollback>
#include <QToolTip>
#include <QValueAxis>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "algorithms/algorithm_view.h"
#include "charts/chart_cost.h"
#include "charts/nice_axis.h"
#include "charts/nice_scale.h"
#include "charts/series_update.h"
#include "charts/time_axis.h"
#include "style/palette_colors.h"
#include "style/series_style.h"

namespace ratelab {

TimelineChart::TimelineChart(QWidget* parent)
    : QChartView(parent), chart_(chart()), overlay_(chart_) {
    const int m = TimelineNavigation::kChartMargin, mv = TimelineNavigation::kChartMarginV;
    chart_->setMargins(QMargins(m, mv, m, mv));
    chart_->legend()->setAlignment(Qt::AlignBottom);
    chart_->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);  // a line's swatch a line
    axisX_ = addAxis(Qt::AlignBottom, tr("run time (s)"));
    axisY_ = addAxis(Qt::AlignLeft, tr("requests"));
    axisTokens_ = addAxis(Qt::AlignRight, tr("permits available"));
    acceptedArea_ = addArea(tr("accepted"), &accepted_, nullptr);
    rejectedArea_ = addArea(tr("rejected"), &rejected_, &rejectedBase_);
    errorsArea_ = addArea(tr("errors"), &errors_, &errorsBase_);
    limit_ = addLine(tr("limit (steady state)"));
    tokens_ = addLine(tr("available permits"));
    baselineAccepted_ = addLine(tr("baseline accepted"));
    baselineRejected_ = addLine(tr("baseline rejected"));
    disagree_ = new QScatterSeries(chart_);
    disagree_->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    disagree_->setMarkerSize(9);
    chart_->addSeries(disagree_);
    for (QAbstractSeries* s : chart_->series()) {
        s->attachAxis(axisX_);
        s->attachAxis(s == tokens_ ? axisTokens_ : axisY_);
    }
    axisX_->setTickType(QValueAxis::TicksDynamic);
    axisX_->setTickAnchor(0);
    groupLines_ = std::make_unique<TimelineGroupLines>(chart_, axisX_, axisY_);
    tokenLine_ = std::make_unique<TimelineTokenLine>(chart_, axisX_, axisTokens_, tokens_);
    inFlight_ = std::make_unique<TimelineInFlight>(chart_, axisX_, axisY_, axisTokens_);
    navigation_ =
        new TimelineNavigation(this, chart_, acceptedArea_, model_, [this] { refresh(); });
    connect(navigation_, &TimelineNavigation::plotClicked, this, [this](double seconds) {
        if (explainable_)
            emit explainRequested(seconds);
    });

    // No antialiasing: the steps, bands and the limit are all horizontal and vertical lines,
    // which it only blurs, and antialiased fills of the stacked areas were most of the window's
    // painting at high request rates (bench/results/2026-11-23-window-painting.md). Text
    // stays smooth.
    setRenderHint(QPainter::Antialiasing, false);
    // Items move on every redraw: a BSP index would be rebuilt each time for nothing.
    scene()->setItemIndexMethod(QGraphicsScene::NoIndex);
    chart_->setTheme(QChart::ChartThemeLight);
    themeFonts_.legend = chart_->legend()->font();
    themeFonts_.labels = axisX_->labelsFont();
    applyTheme();
    connect(chart_, &QChart::plotAreaChanged, this, [this](const QRectF& plot) {
        // Resized by more than a tenth: one step per pixel column again. Not from inside a
        // refresh, nor for the few pixels the axis labels take or give back as the counts
        // change (those would refresh, relabel and resize in a loop).
        const int columns = plotColumns(plot);
        if (!refreshing_ && std::abs(columns - columns_) > columns_ / 10)
            refresh();
        else
            layoutOverlay(true);
        navigation_->plotChanged();  // the timelines' plots line up
    });
}

QValueAxis* TimelineChart::addAxis(Qt::Alignment alignment, const QString& title) {
    auto* axis = new QValueAxis(chart_);
    axis->setTitleText(title);
    chart_->addAxis(axis, alignment);
    return axis;
}

QAreaSeries* TimelineChart::addArea(const QString& name, QLineSeries** upper, QLineSeries** lower) {
    auto* area = new QAreaSeries(chart_);
    *upper = new QLineSeries(area);
    area->setUpperSeries(*upper);
    if (lower) {
        *lower = new QLineSeries(area);
        area->setLowerSeries(*lower);
    }
    area->setName(name);
    chart_->addSeries(area);
    return area;
}

QLineSeries* TimelineChart::addLine(const QString& name) {
    auto* line = new QLineSeries(chart_);
    line->setName(name);
    chart_->addSeries(line);
    return line;
}

void TimelineChart::setDisagreements(const QVector<qint64>& perBucket, const QString& other) {
    model_.setDisagreements(perBucket, other);
    disagree_->setName(tr("decided differently from %1").arg(other));
    refresh();
}

void TimelineChart::setLimiter(const LimiterSpec& spec, int clients, qint64 bucketMs,
                               qint64 startEpochMs) {
    model_.setLimiter(spec, clients, bucketMs, startEpochMs);
    chart_->setTitle(model_.title());
    refresh();
}

void TimelineChart::updateFrom(const RunSnapshot& run, int index, const LimiterState* state) {
    ChartCost& cost = ChartCost::global();
    const ChartCostScope timed(&cost.updateCpuNs, &cost.updateWallNs, &cost.updates);
    if (!model_.update(run, index, state))
        return;
    // The run's last snapshot is always drawn: exports and readers of the series see the end.
    if (!run.finished && offScreen()) {
        stale_ = true;  // drawn when shown again (see viewportEvent)
        return;
    }
    const QString title = model_.title();
    if (chart_->title() != title)
        chart_->setTitle(title);
    refresh();
}

void TimelineChart::setBusiestIntervals(const QVector<BusiestInterval>& intervals,
                                        const QVector<BusiestInterval>& runClock) {
    model_.setBusiestIntervals(intervals, runClock);
    layoutOverlay();
}

void TimelineChart::setBaseline(std::shared_ptr<const RunBaseline> baseline) {
    model_.setBaseline(std::move(baseline));
    if (const RunBaseline* b = model_.baseline()) {
        baselineAccepted_->setName(tr("baseline %1 accepted").arg(b->label));
        baselineRejected_->setName(tr("baseline %1 rejected").arg(b->label));
    }
    chart_->setTitle(model_.title());
    refresh();
}

void TimelineChart::addMarker(double runSeconds, const QString& label) {
    model_.addMarker(runSeconds, label);
    layoutOverlay();
}

void TimelineChart::setWindowSeconds(double seconds) {
    if (!(seconds > 0))
        return;
    navigation_->setWindowSeconds(seconds);
    if (following())
        refresh();
}

void TimelineChart::setDurationSeconds(double seconds) {
    model_.setDurationSeconds(seconds);
    if (following())
        refresh();
}

void TimelineChart::setTimeAxis(TimeAxis* axis) {
    navigation_->setTimeAxis(axis);
}

void TimelineChart::setViewRange(double lo, double hi) {
    navigation_->setViewRange(lo, hi);
}

void TimelineChart::setFollowing(bool following) {
    navigation_->setFollowing(following);
}

void TimelineChart::setExplainable(bool on) {
    explainable_ = on;
    viewport()->setToolTip(on ? tr("Click a request to see why it was granted or refused")
                              : QString());
}

QVector<QLineSeries*> TimelineChart::tokenSegments() const {
    return tokenLine_->segments();
}

int TimelineChart::windowBandCount() const {
    return drawing_.bands.size();
}

QStringList TimelineChart::windowLabels() const {
    return drawing_.windowLabels();
}

QStringList TimelineChart::spanLabels() const {
    return drawing_.spanLabels();
}

// QChartView makes its minimum size the chart's at every resize and never lowers it again; a
// chart laid out wide once reported a minimum near that width (887 px of 1101), and the
// timelines then stayed that wide in a narrower window, cut behind a scroll bar. Their least
// width is their own.
void TimelineChart::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    if (minimumWidth() > kMinimumWidth)
        setMinimumWidth(kMinimumWidth);
}

void TimelineChart::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange)
        applyTheme();
    QChartView::changeEvent(event);
}

// Colours and fonts; the chart theme follows the palette.
void TimelineChart::applyTheme() {
    const QPalette pal = palette();
    dark_ = style::isDark(pal);
    const style::SeriesColors colors = style::seriesColors(dark_);
    chart_->setTheme(dark_ ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    // The theme resets what follows, but only when it changes: the fonts are set every time
    // (leaving presentation mode brings them back to these).
    chart_->setBackgroundBrush(pal.color(QPalette::Base));
    chart_->setBackgroundRoundness(0);
    chart_->setDropShadowEnabled(false);
    QFont titleFont = chart_->titleFont();
    titleFont.setPointSizeF(10);
    chart_->setTitleFont(titleFont);
    chart_->legend()->setFont(themeFonts_.legend);
    for (QValueAxis* axis : {axisX_, axisY_, axisTokens_})
        axis->setLabelsFont(themeFonts_.labels);
    setBackgroundBrush(pal.color(QPalette::Base));

    // Stacked areas never overlap: each fill is opaque, its own colour (errors hatched).
    const QPair<QAreaSeries*, QColor> areas[] = {{acceptedArea_, colors.accepted},
                                                 {rejectedArea_, colors.rejected},
                                                 {errorsArea_, colors.errors}};
    for (const auto& [area, color] : areas) {
        area->setPen(style::seriesPen(color.darker(dark_ ? 100 : 120), 1.0));
        area->setBrush(style::areaBrush(color, area == errorsArea_));
        for (QLegendMarker* marker : chart_->legend()->markers(area))
            marker->setShape(QLegend::MarkerShapeRectangle);  // filled: its shape is hollow
    }
    limit_->setPen(style::seriesPen(colors.limit, 2.0, Qt::DashLine));
    tokenLine_->setPen(style::seriesPen(colors.tokens, 2.0));
    disagree_->setColor(colors.marker);
    disagree_->setBorderColor(colors.marker.darker(dark_ ? 100 : 140));
    // Thin and dashed over the run's areas: a shade apart from the fills of the same colour
    // (darker on a light background, lighter on a dark one).
    for (const auto& [line, color] : {std::pair{baselineAccepted_, colors.accepted},
                                      std::pair{baselineRejected_, colors.rejected}}) {
        line->setPen(
            style::seriesPen(dark_ ? color.lighter(150) : color.darker(190), 1.5, Qt::DashLine));
    }
    groupLines_->setDark(dark_);
    inFlight_->setDark(dark_);
    for (QValueAxis* axis : {axisX_, axisY_, axisTokens_}) {
        QFont font = axis->titleFont();
        font.setPointSizeF(9);
        font.setBold(false);
        axis->setTitleFont(font);
        if (!dark_)
            axis->setGridLineColor(colors.grid);
    }
    axisTokens_->setGridLineVisible(false);
    refresh();  // hides the legend entries of hidden series again
}

// A chart on a hidden tab or scrolled out of view in a shown window: updating its series would
// only cost time. A chart whose window is not shown (tests, exports) is always up to date.
bool TimelineChart::offScreen() const {
    const QWidget* top = window();
    return top != this && top->isVisible() &&
           (!isVisible() || viewport()->visibleRegion().isEmpty());
}

int TimelineChart::plotColumns(const QRectF& plot) {
    return plot.width() >= 1 ? int(std::ceil(plot.width())) : 0;
}

// Redraws everything for the current view.
void TimelineChart::refresh() {
    const QScopedValueRollback<bool> inRefresh(refreshing_, true);
    stale_ = false;
    navigation_->followRun();
    const auto [viewMin, viewMax] = navigation_->range();
    const double step = niceStep(viewMax - viewMin, 8);
    axisX_->setRange(viewMin, viewMax);
    if (axisX_->tickInterval() != step)
        axisX_->setTickInterval(step);
    const QString format = step >= 1      ? QStringLiteral("%.0f")
                           : step >= 0.1  ? QStringLiteral("%.1f")
                           : step >= 0.01 ? QStringLiteral("%.2f")
                                          : QStringLiteral("%.3f");
    if (axisX_->labelFormat() != format)
        axisX_->setLabelFormat(format);
    updateSeries();
    updateTokens();
    drawing_.bands = model_.bands(viewMin, viewMax);
    drawing_.spans = model_.spans();
    layoutOverlay();
}

void TimelineChart::updateSeries() {
    const auto [viewMin, viewMax] = navigation_->range();
    columns_ = plotColumns(chart_->plotArea());
    drawing_.counts = model_.counts(viewMin, viewMax, columns_);
    const TimelineModel::Counts& counts = drawing_.counts;
    replaceIfChanged(accepted_, counts.accepted);
    replaceIfChanged(rejectedBase_, counts.accepted);
    replaceIfChanged(rejected_, counts.rejectedTop);
    replaceIfChanged(errorsBase_, counts.showErrors ? counts.rejectedTop : QList<QPointF>());
    replaceIfChanged(errors_, counts.errorsTop);
    showSeries(chart_, errorsArea_, counts.showErrors);
    replaceIfChanged(limit_, counts.limit);
    showSeries(chart_, limit_, !counts.limit.isEmpty());
    // Named as its algorithm means it; a limit far above the counts is said, not drawn.
    const QString limitName = algorithmView(model_.spec()).limitLineLabel(model_.spec()) +
                              (counts.limitAbove ? tr(", above the plot") : QString());
    if (limit_->name() != limitName)
        limit_->setName(limitName);
    drawing_.limitName = limitName;
    const bool baseline = model_.baselineLimiter() != nullptr;
    replaceIfChanged(baselineAccepted_, counts.baselineAccepted);
    replaceIfChanged(baselineRejected_, counts.baselineRejected);
    showSeries(chart_, baselineAccepted_, baseline);
    showSeries(chart_, baselineRejected_, baseline);
    drawing_.baselineShown = baseline;
    groupLines_->update(counts.groupAccepted, counts.groupNames);
    // Disagreements: a triangle at the top of each step that has any (the count's tooltip).
    QList<QPointF> marks = model_.disagreements(viewMin, viewMax, counts.groupMs);
    for (QPointF& mark : marks)
        mark.setY(counts.yMax * 1.05);
    replaceIfChanged(disagree_, marks);
    showSeries(chart_, disagree_, !model_.disagreementOther().isEmpty());
    const QString title = tr("requests per %1").arg(TimelineReadout::durationText(counts.groupMs));
    if (axisY_->titleText() != title)
        axisY_->setTitleText(title);
    drawing_.inFlight = model_.inFlight(viewMin, viewMax, counts.groupMs);
    drawing_.barsTop = counts.yMax;  // the releases per step too; scaled by layoutOverlay
    for (const QPointF& p : drawing_.inFlight.released)
        drawing_.barsTop = std::max(drawing_.barsTop, p.y());
}

// The permits line, in pieces where decisions failed, or requests in flight, on the right axis.
void TimelineChart::updateTokens() {
    const auto [viewMin, viewMax] = navigation_->range();
    drawing_.tokenPieces = tokenLine_->update(model_.tokens(viewMin, viewMax, columns_));
    inFlight_->update(drawing_.inFlight);
    const QString title = TimelineInFlight::axisTitle(drawing_.inFlight.shown, presentation_);
    if (axisTokens_->titleText() != title)
        axisTokens_->setTitleText(title);
}

double TimelineChart::toPixelX(double seconds) const {
    return chart_->mapToPosition(QPointF(seconds, 0), acceptedArea_).x();
}

void TimelineChart::layoutOverlay(bool plotResized) {
    const QPalette pal = palette();
    TimelineOverlay::Look look;
    look.text = pal.color(QPalette::Text);
    look.labelBack = style::withAlpha(pal.color(QPalette::Base), 190);
    const style::SeriesColors colors = style::seriesColors(dark_);
    look.span = colors.span;
    look.marker = colors.marker;
    look.burst = pal.color(QPalette::Highlight);
    look.font = font();
    look.font.setPointSizeF(8.5 * (presentation_ ? style::kPresentationScale : 1.0));
    look.dark = dark_;
    const auto [viewMin, viewMax] = navigation_->range();
    const QRectF plot = chart_->plotArea();
    const auto toPixel = [this](double seconds) { return toPixelX(seconds); };
    const TimelineLabelRows rows =
        overlay_.layout(plot, toPixel, viewMin, viewMax, drawing_.bands, drawing_.spans,
                        model_.markers(), model_.burst(), look);
    // No bar under the labels; a resize alone frees no row (the axis would swing to and fro).
    labelRows_ = plotResized ? std::max(labelRows_, rows.rowsUsed()) : rows.rowsUsed();
    setNiceRange(axisY_, rows.axisTop(drawing_.barsTop, labelRows_));
    overlay_.layoutHighlight(plot, toPixel, highlight_, look);
}

void TimelineChart::setHighlight(double fromSeconds, double toSeconds, const QString& label) {
    TimelineModel::Burst span;
    span.x0 = fromSeconds;
    span.x1 = toSeconds;
    span.label = label;
    highlight_ = span;
    layoutOverlay();
}

void TimelineChart::clearHighlight() {
    highlight_.reset();
    layoutOverlay();
}

void TimelineChart::setPresentation(bool on) {
    presentation_ = on;
    applyTheme();  // the normal look: fonts, pens, the notes' size
    // Fewer labels: the chart title names the limiter and the left axis counts requests; the
    // right axis keeps its title, or nothing would say what its scale is.
    for (QValueAxis* axis : {axisX_, axisY_})
        axis->setTitleVisible(!on);
    axisTokens_->setTitleVisible(true);
    if (!on)
        return;
    const double scale = style::kPresentationScale;
    for (QAbstractSeries* series : chart_->series()) {
        if (auto* area = qobject_cast<QAreaSeries*>(series)) {
            QPen pen = area->pen();
            pen.setWidthF(pen.widthF() * 2);
            area->setPen(pen);
        } else if (auto* line = qobject_cast<QLineSeries*>(series)) {
            QPen pen = line->pen();
            pen.setWidthF(pen.widthF() * 2);
            line->setPen(pen);
        }
    }
    QFont title = chart_->titleFont();
    title.setPointSizeF(title.pointSizeF() * scale);
    chart_->setTitleFont(title);
    QFont legend = chart_->legend()->font();
    legend.setPointSizeF(legend.pointSizeF() * scale);
    chart_->legend()->setFont(legend);
    for (QValueAxis* axis : {axisX_, axisY_, axisTokens_}) {
        QFont labels = axis->labelsFont();
        labels.setPointSizeF(labels.pointSizeF() * scale);
        axis->setLabelsFont(labels);
    }
    QFont axisTitle = axisTokens_->titleFont();
    axisTitle.setPointSizeF(axisTitle.pointSizeF() * scale);
    axisTokens_->setTitleFont(axisTitle);
}

QString TimelineChart::toolTipAt(double seconds) const {
    // Markers within a few pixels of the cursor.
    const auto [viewMin, viewMax] = navigation_->range();
    const double near = 4 * (viewMax - viewMin) / std::max(chart_->plotArea().width(), 1.0);
    return TimelineReadout::at(model_, drawing_, seconds, near);
}

bool TimelineChart::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::Paint) {
        if (stale_)
            refresh();  // shown again (tab switched, scrolled into view): catch up first
        ChartCost& cost = ChartCost::global();
        const ChartCostScope timed(&cost.paintCpuNs, &cost.paintWallNs, &cost.paints);
        return QChartView::viewportEvent(event);
    }
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QPointF inChart = chart_->mapFromScene(mapToScene(help->pos()));
        const QString text = chart_->plotArea().contains(inChart)
                                 ? toolTipAt(navigation_->valueAt(help->pos()))
                                 : QString();
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, viewport());
        return true;
    }
    return QChartView::viewportEvent(event);
}

void TimelineChart::wheelEvent(QWheelEvent* event) {
    navigation_->wheel(event);
}

void TimelineChart::mousePressEvent(QMouseEvent* event) {
    if (!navigation_->press(event))
        QChartView::mousePressEvent(event);
}

void TimelineChart::mouseMoveEvent(QMouseEvent* event) {
    if (!navigation_->move(event))
        QChartView::mouseMoveEvent(event);
}

void TimelineChart::mouseReleaseEvent(QMouseEvent* event) {
    if (!navigation_->release(event))
        QChartView::mouseReleaseEvent(event);
}

}  // namespace ratelab