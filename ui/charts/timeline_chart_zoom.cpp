#include "charts/timeline_chart.h"

// What the timelines side by side share through the time axis (charts/time_axis.h): the paused
// view (wheel zoom and drag pan) and plot areas that line up.

#include <QApplication>
#include <QAreaSeries>
#include <QChart>
#include <QMouseEvent>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "charts/time_axis.h"

namespace ratelab {
namespace {

// Zoom limits of the paused view, in seconds.
constexpr double kMinViewSpan = 0.01;
constexpr double kMaxViewSpan = 366.0 * 24 * 3600;

}  // namespace

void TimelineChart::setViewRange(double lo, double hi) {
    if (!(hi > lo))
        return;
    setView(lo, clampSpan(hi - lo));
}

void TimelineChart::setTimeAxis(TimeAxis* axis) {
    if (axis == nullptr)
        axis = ownAxis_;
    if (axis == axis_)
        return;
    axis_->forgetInsets(this);
    disconnect(axis_, nullptr, this, nullptr);
    bindAxis(axis);
    // The shared axis decides: pause or follow with it, and paused, show its range.
    showFollowing(axis->following());
    if (!following_) {
        viewMin_ = axis->lo();
        viewMax_ = axis->hi();
    }
    refresh();
}

void TimelineChart::bindAxis(TimeAxis* axis) {
    axis_ = axis;
    connect(axis, &TimeAxis::followingChanged, this, &TimelineChart::applyFollowing);
    connect(axis, &TimeAxis::rangeChanged, this, &TimelineChart::applyAxisRange);
    connect(axis, &TimeAxis::insetsChanged, this, &TimelineChart::alignPlot);
    reportPlot();
    if (axis != ownAxis_) {
        connect(axis, &QObject::destroyed, this, [this] {
            // Its own axis takes over where the shared one was.
            ownAxis_->setFollowing(following_);
            ownAxis_->setRange(viewMin_, viewMax_);
            bindAxis(ownAxis_);
        });
    }
}

// The room this chart's own axes take beside its plot (without what alignPlot added), to the
// axis; then its plot as wide as the axis's widest room allows.
void TimelineChart::reportPlot() {
    const QRectF plot = chart_->plotArea();
    if (plot.width() < 1)
        return;  // not laid out yet
    naturalLeft_ = qRound(plot.left()) - padLeft_;
    naturalRight_ = qRound(chart_->size().width() - plot.right()) - padRight_;
    axis_->reportInsets(this, naturalLeft_, naturalRight_);
    const auto [left, right] = axis_->insets();
    alignPlot(left, right);
}

// Margins that put the plot `left` and `right` pixels in from the chart's edges, as on every
// chart of the axis (a permits axis on the right no longer narrows one plot alone).
void TimelineChart::alignPlot(int left, int right) {
    const int padLeft = std::max(0, left - naturalLeft_);
    const int padRight = std::max(0, right - naturalRight_);
    if (padLeft == padLeft_ && padRight == padRight_)
        return;
    padLeft_ = padLeft;
    padRight_ = padRight;
    chart_->setMargins(
        QMargins(kChartMargin + padLeft_, kChartMarginV, kChartMargin + padRight_, kChartMarginV));
}

void TimelineChart::setFollowing(bool following) {
    if (axis_->following() != following)
        axis_->setFollowing(following);  // every chart on the axis, this one too
    else
        applyFollowing(following);
}

void TimelineChart::showFollowing(bool following) {
    following_ = following;
    dragging_ = false;
    if (following)
        viewport()->unsetCursor();
    else
        viewport()->setCursor(Qt::OpenHandCursor);
}

void TimelineChart::applyFollowing(bool following) {
    showFollowing(following);
    refresh();  // following again snaps back to the last windowSeconds
    if (!following)
        axis_->setRange(viewMin_, viewMax_);  // paused where it was: the axis's range
}

// How wide the paused view may be (seconds).
double TimelineChart::clampSpan(double span) const {
    const double widest = std::min(
        kMaxViewSpan,
        std::max({model_.elapsedSeconds(), model_.durationSeconds(), windowSeconds_, 1.0}) * 1.5);
    return std::clamp(span, kMinViewSpan, widest);
}

// The paused view: [lo, lo + span], kept at or after run time 0 and showing some data; the
// other timelines on the axis show it too.
void TimelineChart::setView(double lo, double span) {
    lo = std::min(lo, std::max(0.0, model_.elapsedSeconds() - span * 0.1));
    lo = std::max(lo, 0.0);
    applyView(lo, lo + span);
    axis_->setRange(lo, lo + span);
}

void TimelineChart::applyAxisRange(double lo, double hi) {
    if (!following_ && (lo != viewMin_ || hi != viewMax_))
        applyView(lo, hi);
}

void TimelineChart::applyView(double lo, double hi) {
    viewMin_ = lo;
    viewMax_ = hi;
    refresh();
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

void TimelineChart::setExplainable(bool on) {
    explainable_ = on;
    viewport()->setToolTip(on ? tr("Click a request to see why it was granted or refused")
                              : QString());
}

void TimelineChart::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        pressPos_ = event->position();
    }
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
    // A click (the button released where it went down) on the plot explains that time.
    const bool click =
        event->button() == Qt::LeftButton &&
        (event->position() - pressPos_).manhattanLength() < QApplication::startDragDistance();
    if (click && explainable_ && chart_->plotArea().contains(event->position())) {
        emit explainRequested(chart_->mapToValue(event->position()).x());
    }
    if (following_ || !dragging_) {
        QChartView::mouseReleaseEvent(event);
        return;
    }
    dragging_ = false;
    viewport()->setCursor(Qt::OpenHandCursor);
    event->accept();
}

}  // namespace ratelab
