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
#include <QToolTip>
#include <QValueAxis>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <optional>

#include "charts/chart_cost.h"
#include "charts/nice_axis.h"
#include "charts/nice_scale.h"
#include "style/palette_colors.h"
#include "style/series_style.h"

namespace ratelab {
namespace {

// Zoom limits of the paused view, in seconds.
constexpr double kMinViewSpan = 0.01;
constexpr double kMaxViewSpan = 366.0 * 24 * 3600;
// Pieces of the token line at most (more outages than this join the last pieces).
constexpr int kMaxTokenPieces = 64;

// "200 ms", "1 s", "5 min".
QString durationText(qint64 ms) {
    if (ms >= 60000 && ms % 60000 == 0)
        return TimelineChart::tr("%1 min").arg(ms / 60000);
    if (ms >= 1000 && ms % 1000 == 0)
        return TimelineChart::tr("%1 s").arg(ms / 1000);
    return TimelineChart::tr("%1 ms").arg(ms);
}

// The value of a step outline (pairs of points [x0, y], [x1, y]) over `x`; -1 outside it.
double stepValueAt(const QList<QPointF>& points, double x) {
    for (int i = 0; i + 1 < points.size(); i += 2) {
        if (x >= points[i].x() && x < points[i + 1].x())
            return points[i].y();
    }
    return -1;
}

// Replaces a series' points only when they differ: every replace makes Qt Charts map all the
// points again and repaint the plot.
void replaceIfChanged(QLineSeries* series, const QList<QPointF>& points) {
    if (series->count() != points.size() || series->points() != points)
        series->replace(points);
}

// The last point of a line at or before `x`.
std::optional<QPointF> lastPointAt(const QList<QPointF>& points, double x) {
    std::optional<QPointF> found;
    for (const QPointF& p : points) {
        if (p.x() > x)
            break;
        found = p;
    }
    return found;
}

}  // namespace

TimelineChart::TimelineChart(QWidget* parent)
    : QChartView(parent), chart_(chart()), overlay_(chart_) {
    chart_->setMargins(QMargins(6, 2, 6, 2));
    chart_->legend()->setAlignment(Qt::AlignBottom);
    axisX_ = addAxis(Qt::AlignBottom, tr("run time (s)"));
    axisY_ = addAxis(Qt::AlignLeft, tr("requests"));
    axisTokens_ = addAxis(Qt::AlignRight, tr("permits available"));
    acceptedArea_ = addArea(tr("accepted"), &accepted_, nullptr);
    rejectedArea_ = addArea(tr("rejected"), &rejected_, &rejectedBase_);
    errorsArea_ = addArea(tr("errors"), &errors_, &errorsBase_);
    limit_ = addLine(tr("limit (steady state)"));
    tokens_ = addLine(tr("available permits"));
    for (QAbstractSeries* s : chart_->series()) {
        s->attachAxis(axisX_);
        s->attachAxis(s == tokens_ ? axisTokens_ : axisY_);
    }
    axisX_->setTickType(QValueAxis::TicksDynamic);
    axisX_->setTickAnchor(0);

    // No antialiasing: the steps, bands and the limit are all horizontal and vertical lines,
    // which it only blurs, and antialiased fills of the stacked areas were most of the window's
    // painting at high request rates (bench/README.md, "The window"). Text stays smooth.
    setRenderHint(QPainter::Antialiasing, false);
    // Items move on every redraw: a BSP index would be rebuilt each time for nothing.
    scene()->setItemIndexMethod(QGraphicsScene::NoIndex);
    applyTheme();
    connect(chart_, &QChart::plotAreaChanged, this, [this](const QRectF& plot) {
        if (plotColumns(plot) != columns_)
            refresh();  // the series hold one step per pixel column at most
        else
            layoutOverlay();
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
    if (offScreen()) {
        stale_ = true;  // drawn when shown again (see viewportEvent)
        return;
    }
    const QString title = model_.title();
    if (chart_->title() != title)
        chart_->setTitle(title);
    refresh();
}

void TimelineChart::addMarker(double runSeconds, const QString& label) {
    model_.addMarker(runSeconds, label);
    layoutOverlay();
}

void TimelineChart::setWindowSeconds(double seconds) {
    if (!(seconds > 0))
        return;
    windowSeconds_ = seconds;
    if (following_)
        refresh();
}

void TimelineChart::setDurationSeconds(double seconds) {
    model_.setDurationSeconds(seconds);
    if (following_)
        refresh();
}

void TimelineChart::setViewRange(double lo, double hi) {
    if (!(hi > lo))
        return;
    setView(lo, clampSpan(hi - lo));
}

void TimelineChart::setFollowing(bool following) {
    following_ = following;
    dragging_ = false;
    if (following)
        viewport()->unsetCursor();
    else
        viewport()->setCursor(Qt::OpenHandCursor);
    refresh();  // following again snaps back to the last windowSeconds
}

QVector<QLineSeries*> TimelineChart::tokenSegments() const {
    QVector<QLineSeries*> shown{tokens_};
    for (int i = 0; i + 1 < tokenPiecesShown_ && i < tokenPieces_.size(); ++i)
        shown << tokenPieces_[i];
    return shown;
}

int TimelineChart::windowBandCount() const {
    return bands_.size();
}

QStringList TimelineChart::windowLabels() const {
    QStringList labels;
    for (const TimelineModel::Band& band : bands_) {
        if (!band.label.isEmpty())
            labels << band.label;
    }
    return labels;
}

QStringList TimelineChart::spanLabels() const {
    QStringList labels;
    for (const TimelineModel::Span& span : spans_)
        labels << span.label;
    return labels;
}

void TimelineChart::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange)
        applyTheme();
    QChartView::changeEvent(event);
}

// Shows or hides a series with its legend entry (only when that changes: a legend change lays
// the chart out again).
void TimelineChart::setShown(QAbstractSeries* series, bool shown) {
    if (series->isVisible() != shown)
        series->setVisible(shown);
    for (QLegendMarker* marker : chart_->legend()->markers(series)) {
        if (marker->isVisible() != shown)
            marker->setVisible(shown);
    }
}

// Colours and fonts; the chart theme follows the palette.
void TimelineChart::applyTheme() {
    const QPalette pal = palette();
    dark_ = style::isDark(pal);
    const style::SeriesColors colors = style::seriesColors(dark_);
    chart_->setTheme(dark_ ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    // The theme resets what follows.
    chart_->setBackgroundBrush(pal.color(QPalette::Base));
    chart_->setBackgroundRoundness(0);
    chart_->setDropShadowEnabled(false);
    QFont titleFont = chart_->titleFont();
    titleFont.setPointSizeF(10);
    chart_->setTitleFont(titleFont);
    setBackgroundBrush(pal.color(QPalette::Base));

    // Stacked areas never overlap: each fill is nearly opaque, its own colour.
    const QPair<QAreaSeries*, QColor> areas[] = {{acceptedArea_, colors.accepted},
                                                 {rejectedArea_, colors.rejected},
                                                 {errorsArea_, colors.errors}};
    for (const auto& [area, color] : areas) {
        area->setPen(style::seriesPen(color.darker(dark_ ? 100 : 120), 1.0));
        area->setBrush(style::withAlpha(color, colors.areaAlpha));
    }
    limit_->setPen(style::seriesPen(colors.limit, 2.0, Qt::DashLine));
    tokens_->setPen(style::seriesPen(colors.tokens, 2.0));
    for (QLineSeries* piece : tokenPieces_)
        piece->setPen(tokens_->pen());
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
    stale_ = false;
    if (following_)
        std::tie(viewMin_, viewMax_) = model_.followRange(windowSeconds_);
    const double step = niceStep(viewMax_ - viewMin_, 8);
    axisX_->setRange(viewMin_, viewMax_);
    if (axisX_->tickInterval() != step)
        axisX_->setTickInterval(step);
    const QString format = step >= 1      ? QStringLiteral("%.0f")
                           : step >= 0.1  ? QStringLiteral("%.1f")
                           : step >= 0.01 ? QStringLiteral("%.2f")
                                          : QStringLiteral("%.3f");
    if (axisX_->labelFormat() != format)
        axisX_->setLabelFormat(format);
    updateSeries();
    bands_ = model_.bands(viewMin_, viewMax_);
    spans_ = model_.spans();
    layoutOverlay();
}

void TimelineChart::updateSeries() {
    columns_ = plotColumns(chart_->plotArea());
    const TimelineModel::Counts counts = model_.counts(viewMin_, viewMax_, columns_);
    groupMs_ = counts.groupMs;
    replaceIfChanged(accepted_, counts.accepted);
    replaceIfChanged(rejectedBase_, counts.accepted);
    replaceIfChanged(rejected_, counts.rejectedTop);
    replaceIfChanged(errorsBase_, counts.showErrors ? counts.rejectedTop : QList<QPointF>());
    replaceIfChanged(errors_, counts.errorsTop);
    setShown(errorsArea_, counts.showErrors);
    replaceIfChanged(limit_, counts.limit);
    setShown(limit_, !counts.limit.isEmpty());
    const QString title = tr("requests per %1").arg(durationText(counts.groupMs));
    if (axisY_->titleText() != title)
        axisY_->setTitleText(title);
    setNiceRange(axisY_, counts.yMax * 1.1);

    const TimelineModel::Tokens tokens = model_.tokens(viewMin_, viewMax_, columns_);
    setShown(tokens_, tokens.shown);
    if (axisTokens_->isVisible() != tokens.shown)
        axisTokens_->setVisible(tokens.shown);
    QVector<QList<QPointF>> pieces = tokens.segments;
    while (pieces.size() > kMaxTokenPieces) {
        pieces[pieces.size() - 2] << pieces.last();
        pieces.removeLast();
    }
    if (!tokens.shown)
        pieces.clear();
    replaceIfChanged(tokens_, pieces.value(0));
    for (int i = 1; i < pieces.size(); ++i)
        replaceIfChanged(tokenSegment(i - 1), pieces[i]);
    for (int i = std::max<int>(pieces.size(), 1); i < tokenPiecesShown_; ++i)
        tokenPieces_[i - 1]->clear();
    tokenPiecesShown_ = std::max<int>(pieces.size(), 1);
    if (tokens.shown)
        setNiceRange(axisTokens_, tokens.axisTop * 1.05);
}

// Piece i + 1 of the token line (made on first use, without a legend entry).
QLineSeries* TimelineChart::tokenSegment(int i) {
    while (tokenPieces_.size() <= i) {
        auto* piece = new QLineSeries(chart_);
        chart_->addSeries(piece);
        piece->attachAxis(axisX_);
        piece->attachAxis(axisTokens_);
        piece->setPen(tokens_->pen());
        for (QLegendMarker* marker : chart_->legend()->markers(piece))
            marker->setVisible(false);
        tokenPieces_.append(piece);
    }
    return tokenPieces_[i];
}

double TimelineChart::toPixelX(double seconds) const {
    return chart_->mapToPosition(QPointF(seconds, 0), acceptedArea_).x();
}

void TimelineChart::layoutOverlay() {
    const QPalette pal = palette();
    TimelineOverlay::Look look;
    look.text = pal.color(QPalette::Text);
    look.labelBack = style::withAlpha(pal.color(QPalette::Base), 190);
    const style::SeriesColors colors = style::seriesColors(dark_);
    look.span = colors.span;
    look.marker = colors.marker;
    look.font = font();
    look.font.setPointSizeF(8.5);
    look.dark = dark_;
    overlay_.layout(
        chart_->plotArea(), [this](double seconds) { return toPixelX(seconds); }, viewMin_,
        viewMax_, bands_, spans_, model_.markers(), look);
}

// How wide the paused view may be (seconds).
double TimelineChart::clampSpan(double span) const {
    const double widest = std::min(
        kMaxViewSpan,
        std::max({model_.elapsedSeconds(), model_.durationSeconds(), windowSeconds_, 1.0}) * 1.5);
    return std::clamp(span, kMinViewSpan, widest);
}

// The paused view: [lo, lo + span], kept at or after run time 0 and showing some data.
void TimelineChart::setView(double lo, double span) {
    lo = std::min(lo, std::max(0.0, model_.elapsedSeconds() - span * 0.1));
    lo = std::max(lo, 0.0);
    applyView(lo, lo + span);
    // One time axis for all the timelines side by side.
    if (QWidget* parent = parentWidget()) {
        const auto siblings =
            parent->findChildren<TimelineChart*>(QString(), Qt::FindDirectChildrenOnly);
        for (TimelineChart* other : siblings) {
            if (other != this && !other->following_)
                other->applyView(lo, lo + span);
        }
    }
}

void TimelineChart::applyView(double lo, double hi) {
    viewMin_ = lo;
    viewMax_ = hi;
    refresh();
}

// What is drawn at run time `seconds`: the step's counts (stacked, so each is told apart), the
// limit in force and the permits last read. Empty outside the data.
QString TimelineChart::toolTipAt(double seconds) const {
    const QList<QPointF> accepted = accepted_->points();
    const double a = stepValueAt(accepted, seconds);
    QStringList lines;
    if (a >= 0) {
        double x0 = seconds;
        double x1 = seconds;
        for (int i = 0; i + 1 < accepted.size(); i += 2) {
            if (seconds >= accepted[i].x() && seconds < accepted[i + 1].x()) {
                x0 = accepted[i].x();
                x1 = accepted[i + 1].x();
                break;
            }
        }
        const double top = stepValueAt(rejected_->points(), seconds);
        const double r = std::max(0.0, top - a);
        const double e = errorsArea_->isVisible()
                             ? std::max(0.0, stepValueAt(errors_->points(), seconds) - top)
                             : 0.0;
        const QLocale locale;
        lines
            << tr("<b>%1 – %2 s</b>").arg(locale.toString(x0, 'f', 2), locale.toString(x1, 'f', 2));
        lines << tr("fired %1 = accepted %2 + rejected %3 + errors %4")
                     .arg(qint64(a + r + e))
                     .arg(qint64(a))
                     .arg(qint64(r))
                     .arg(qint64(e));
    }
    const double limit = stepValueAt(limit_->points(), seconds);
    if (limit_->isVisible() && limit >= 0) {
        lines << tr("limit (steady state): %1 per %2")
                     .arg(QLocale().toString(limit, 'g', 4), durationText(groupMs_));
    }
    if (tokens_->isVisible()) {
        // The piece of the line over `seconds`; between two pieces the line is broken.
        const QVector<QLineSeries*> pieces = tokenSegments();
        for (int i = 0; i < pieces.size(); ++i) {
            const QList<QPointF> points = pieces[i]->points();
            if (points.isEmpty() || seconds < points.first().x())
                continue;
            const bool last = i + 1 == pieces.size() || pieces[i + 1]->count() == 0;
            if (seconds > points.last().x() && !last) {
                if (seconds < pieces[i + 1]->at(0).x())
                    lines << tr("permits available: unknown (decisions failed, Redis unreachable)");
                continue;
            }
            if (const std::optional<QPointF> p = lastPointAt(points, seconds)) {
                lines << tr("permits available: %1 (read at %2 s)")
                             .arg(qint64(p->y()))
                             .arg(QLocale().toString(p->x(), 'f', 2));
            }
            break;
        }
    }
    for (const TimelineModel::Band& band : bands_) {
        if (seconds >= band.x0 && seconds < band.x1) {
            lines << (band.label.isEmpty()
                          ? tr("calendar window %1 – %2 s: count not read")
                                .arg(QLocale().toString(band.x0, 'f', 2),
                                     QLocale().toString(band.x1, 'f', 2))
                          : tr("calendar window %1 – %2 s: %3 granted (its Redis counter)")
                                .arg(QLocale().toString(band.x0, 'f', 2),
                                     QLocale().toString(band.x1, 'f', 2), band.label));
        }
    }
    for (const TimelineModel::Span& span : spans_) {
        if (seconds >= span.x0 && seconds <= span.x1)
            lines << tr("sliding window %1").arg(span.label.toHtmlEscaped());
    }
    // Markers within a few pixels of the cursor.
    const double near = 4 * (viewMax_ - viewMin_) / std::max(chart_->plotArea().width(), 1.0);
    for (const TimelineModel::Marker& marker : model_.markers()) {
        if (std::abs(marker.x - seconds) <= near) {
            lines << tr("at %1 s: %2")
                         .arg(QLocale().toString(marker.x, 'f', 2), marker.label.toHtmlEscaped());
        }
    }
    return lines.join(QStringLiteral("<br>"));
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
        const QString text =
            chart_->plotArea().contains(inChart) ? toolTipAt(valueAt(help->pos())) : QString();
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, viewport());
        return true;
    }
    return QChartView::viewportEvent(event);
}

// The x value (seconds) under a viewport position.
double TimelineChart::valueAt(const QPointF& viewportPos) const {
    const QPointF inChart = chart_->mapFromScene(mapToScene(viewportPos.toPoint()));
    return chart_->mapToValue(inChart, acceptedArea_).x();
}

void TimelineChart::wheelEvent(QWheelEvent* event) {
    if (following_) {
        event->ignore();  // let an enclosing scroll area scroll
        return;
    }
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0) {
        // Zoom around the value under the cursor: it keeps its place on the axis.
        const double oldSpan = viewMax_ - viewMin_;
        const double span = clampSpan(oldSpan * std::pow(0.8, steps));  // forward zooms in
        const double anchor = std::clamp(valueAt(event->position()), viewMin_, viewMax_);
        const double ratio = oldSpan > 0 ? (anchor - viewMin_) / oldSpan : 0.5;
        setView(anchor - ratio * span, span);
    }
    event->accept();
}

void TimelineChart::mousePressEvent(QMouseEvent* event) {
    if (following_ || event->button() != Qt::LeftButton) {
        QChartView::mousePressEvent(event);
        return;
    }
    dragging_ = true;
    dragStartX_ = event->position().x();
    dragMin_ = viewMin_;
    dragMax_ = viewMax_;
    viewport()->setCursor(Qt::ClosedHandCursor);
    event->accept();
}

void TimelineChart::mouseMoveEvent(QMouseEvent* event) {
    if (following_ || !dragging_) {
        QChartView::mouseMoveEvent(event);
        return;
    }
    const double width = std::max(chart_->plotArea().width(), 1.0);
    const double shift = (event->position().x() - dragStartX_) / width * (dragMax_ - dragMin_);
    setView(dragMin_ - shift, dragMax_ - dragMin_);
    event->accept();
}

void TimelineChart::mouseReleaseEvent(QMouseEvent* event) {
    if (following_ || !dragging_) {
        QChartView::mouseReleaseEvent(event);
        return;
    }
    dragging_ = false;
    viewport()->setCursor(Qt::OpenHandCursor);
    event->accept();
}

void TimelineChart::setPresentation(bool on) {
    applyTheme();  // the normal look (the theme resets fonts and pens)
    for (QValueAxis* axis : {axisX_, axisY_, axisTokens_})
        axis->setTitleVisible(!on);  // fewer labels: the chart title names the limiter
    if (!on)
        return;
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
    title.setPointSizeF(title.pointSizeF() * 1.5);
    chart_->setTitleFont(title);
    QFont legend = chart_->legend()->font();
    legend.setPointSizeF(legend.pointSizeF() * 1.5);
    chart_->legend()->setFont(legend);
    for (QValueAxis* axis : {axisX_, axisY_, axisTokens_}) {
        QFont labels = axis->labelsFont();
        labels.setPointSizeF(labels.pointSizeF() * 1.5);
        axis->setLabelsFont(labels);
    }
}

}  // namespace ratelab
