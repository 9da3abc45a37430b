#include "charts/timeline_navigation.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QMouseEvent>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "charts/time_axis.h"
#include "charts/timeline_model.h"

namespace ratelab {
namespace {

// Zoom limits of the paused view, in seconds.
constexpr double kMinViewSpan = 0.01;
constexpr double kMaxViewSpan = 366.0 * 24 * 3600;

}  // namespace

TimelineNavigation::TimelineNavigation(QChartView* view, QChart* chart, QAbstractSeries* reference,
                                       const TimelineModel& model, std::function<void()> redraw)
    : QObject(view),
      view_(view),
      chart_(chart),
      reference_(reference),
      model_(model),
      redraw_(std::move(redraw)) {
    ownAxis_ = new TimeAxis(this);
    bindAxis(ownAxis_);
}

void TimelineNavigation::followRun() {
    if (following_)
        std::tie(viewMin_, viewMax_) = model_.followRange(windowSeconds_);
}

void TimelineNavigation::setViewRange(double lo, double hi) {
    if (!(hi > lo))
        return;
    setView(lo, clampSpan(hi - lo));
}

void TimelineNavigation::setTimeAxis(TimeAxis* axis) {
    if (axis == nullptr)
        axis = ownAxis_;
    if (axis == axis_)
        return;
    axis_->forgetInsets(view_);
    disconnect(axis_, nullptr, this, nullptr);
    bindAxis(axis);
    // The shared axis decides: pause or follow with it, and paused, show its range.
    showFollowing(axis->following());
    if (!following_) {
        viewMin_ = axis->lo();
        viewMax_ = axis->hi();
    }
    redraw_();
}

void TimelineNavigation::bindAxis(TimeAxis* axis) {
    axis_ = axis;
    connect(axis, &TimeAxis::followingChanged, this, &TimelineNavigation::applyFollowing);
    connect(axis, &TimeAxis::rangeChanged, this, &TimelineNavigation::applyAxisRange);
    connect(axis, &TimeAxis::insetsChanged, this, &TimelineNavigation::alignPlot);
    plotChanged();
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
void TimelineNavigation::plotChanged() {
    const QRectF plot = chart_->plotArea();
    if (plot.width() < 1)
        return;  // not laid out yet
    naturalLeft_ = qRound(plot.left()) - padLeft_;
    naturalRight_ = qRound(chart_->size().width() - plot.right()) - padRight_;
    axis_->reportInsets(view_, naturalLeft_, naturalRight_);
    const auto [left, right] = axis_->insets();
    alignPlot(left, right);
}

// Margins that put the plot `left` and `right` pixels in from the chart's edges, as on every
// chart of the axis (a permits axis on the right no longer narrows one plot alone).
void TimelineNavigation::alignPlot(int left, int right) {
    const int padLeft = std::max(0, left - naturalLeft_);
    const int padRight = std::max(0, right - naturalRight_);
    if (padLeft == padLeft_ && padRight == padRight_)
        return;
    padLeft_ = padLeft;
    padRight_ = padRight;
    chart_->setMargins(
        QMargins(kChartMargin + padLeft_, kChartMarginV, kChartMargin + padRight_, kChartMarginV));
}

void TimelineNavigation::setFollowing(bool following) {
    if (axis_->following() != following)
        axis_->setFollowing(following);  // every chart on the axis, this one too
    else
        applyFollowing(following);
}

void TimelineNavigation::showFollowing(bool following) {
    following_ = following;
    dragging_ = false;
    if (following)
        view_->viewport()->unsetCursor();
    else
        view_->viewport()->setCursor(Qt::OpenHandCursor);
}

void TimelineNavigation::applyFollowing(bool following) {
    showFollowing(following);
    redraw_();  // following again snaps back to the last windowSeconds
    if (!following)
        axis_->setRange(viewMin_, viewMax_);  // paused where it was: the axis's range
}

// How wide the paused view may be (seconds).
double TimelineNavigation::clampSpan(double span) const {
    const double widest = std::min(
        kMaxViewSpan,
        std::max({model_.elapsedSeconds(), model_.durationSeconds(), windowSeconds_, 1.0}) * 1.5);
    return std::clamp(span, kMinViewSpan, widest);
}

// The paused view: [lo, lo + span], kept at or after run time 0 and showing some data; the
// other timelines on the axis show it too.
void TimelineNavigation::setView(double lo, double span) {
    lo = std::min(lo, std::max(0.0, model_.elapsedSeconds() - span * 0.1));
    lo = std::max(lo, 0.0);
    applyView(lo, lo + span);
    axis_->setRange(lo, lo + span);
}

void TimelineNavigation::applyAxisRange(double lo, double hi) {
    if (!following_ && (lo != viewMin_ || hi != viewMax_))
        applyView(lo, hi);
}

void TimelineNavigation::applyView(double lo, double hi) {
    viewMin_ = lo;
    viewMax_ = hi;
    redraw_();
}

double TimelineNavigation::valueAt(const QPointF& viewportPos) const {
    const QPointF inChart = chart_->mapFromScene(view_->mapToScene(viewportPos.toPoint()));
    return chart_->mapToValue(inChart, reference_).x();
}

bool TimelineNavigation::wheel(QWheelEvent* event) {
    if (following_) {
        event->ignore();  // let an enclosing scroll area scroll
        return true;
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
    return true;
}

bool TimelineNavigation::press(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton)
        pressPos_ = event->position();
    if (following_ || event->button() != Qt::LeftButton)
        return false;
    dragging_ = true;
    dragStartX_ = event->position().x();
    dragMin_ = viewMin_;
    dragMax_ = viewMax_;
    view_->viewport()->setCursor(Qt::ClosedHandCursor);
    event->accept();
    return true;
}

bool TimelineNavigation::move(QMouseEvent* event) {
    if (following_ || !dragging_)
        return false;
    const double width = std::max(chart_->plotArea().width(), 1.0);
    const double shift = (event->position().x() - dragStartX_) / width * (dragMax_ - dragMin_);
    setView(dragMin_ - shift, dragMax_ - dragMin_);
    event->accept();
    return true;
}

bool TimelineNavigation::release(QMouseEvent* event) {
    const bool click =
        event->button() == Qt::LeftButton &&
        (event->position() - pressPos_).manhattanLength() < QApplication::startDragDistance();
    if (click && chart_->plotArea().contains(event->position()))
        emit plotClicked(chart_->mapToValue(event->position()).x());
    if (following_ || !dragging_)
        return false;
    dragging_ = false;
    view_->viewport()->setCursor(Qt::OpenHandCursor);
    event->accept();
    return true;
}

}  // namespace ratelab
