#pragma once

#include <QObject>
#include <QPointF>
#include <functional>
#include <utility>

QT_BEGIN_NAMESPACE
class QAbstractSeries;
class QChart;
class QChartView;
class QMouseEvent;
class QWheelEvent;
QT_END_NAMESPACE

namespace ratelab {

class TimeAxis;
class TimelineModel;

// Where a timeline looks and how a person moves it: following the run, or paused with the mouse
// wheel zooming around the cursor and a drag panning; the TimeAxis it shares with the other
// timelines (each writes its zoom, pan and pause there and shows what the axis holds) and the
// plot alignment through it (one second at one x in every chart, with a permits axis on the right
// or without). While following, the range is the model's follow range (the whole planned run,
// or the last windowSeconds). The chart calls the event handlers and redraws on `redraw`.
class TimelineNavigation : public QObject {
    Q_OBJECT

public:
    // `view` shows `chart`; x values map through `reference`, a series on the time axis. The
    // model gives the run's elapsed time and duration (zoom limits, the follow range).
    TimelineNavigation(QChartView* view, QChart* chart, QAbstractSeries* reference,
                       const TimelineModel& model, std::function<void()> redraw);

    // The chart's margins around its plot before the alignment adds to them.
    static constexpr int kChartMargin = 6;
    static constexpr int kChartMarginV = 2;

    bool following() const { return following_; }
    // False: zoom and pan. Set on the axis: every chart bound to it follows or pauses.
    void setFollowing(bool following);
    double windowSeconds() const { return windowSeconds_; }
    void setWindowSeconds(double seconds) { windowSeconds_ = seconds; }
    // The visible x range (seconds); while following, derive it from the run first (followRun).
    std::pair<double, double> range() const { return {viewMin_, viewMax_}; }
    void followRun();
    // The paused view [lo, hi]; through the axis also every chart bound to it.
    void setViewRange(double lo, double hi);

    // The shared time axis (null: one of the chart's own); not owned.
    void setTimeAxis(TimeAxis* axis);
    TimeAxis* timeAxis() const { return axis_; }
    // The plot area moved or resized: reports the room the chart's axes take to the time axis
    // and lines the plot up with the others.
    void plotChanged();

    // The x value (seconds) under a viewport position.
    double valueAt(const QPointF& viewportPos) const;

    // Mouse handling; false: not taken, the view's own handling goes on.
    bool wheel(QWheelEvent* event);
    bool press(QMouseEvent* event);
    bool move(QMouseEvent* event);
    bool release(QMouseEvent* event);

signals:
    // A click (the button released where it went down) on the plot at run time `seconds`.
    void plotClicked(double seconds);

private:
    double clampSpan(double span) const;
    void setView(double lo, double span);
    void applyView(double lo, double hi);
    void bindAxis(TimeAxis* axis);
    void showFollowing(bool following);
    void applyFollowing(bool following);
    void applyAxisRange(double lo, double hi);
    void alignPlot(int left, int right);

    QChartView* view_;
    QChart* chart_;
    QAbstractSeries* reference_;
    const TimelineModel& model_;
    std::function<void()> redraw_;

    bool following_ = true;
    double windowSeconds_ = 30;
    // The visible x range (seconds); while following it is derived from the run time.
    double viewMin_ = 0;
    double viewMax_ = 30;

    TimeAxis* ownAxis_ = nullptr;  // a child: the axis while no shared one is bound
    TimeAxis* axis_ = nullptr;     // ownAxis_ or the shared axis
    // The room left and right of the plot without padding, and what is added to line the plot
    // up with the other charts of the axis (the room their axes take).
    int naturalLeft_ = 0;
    int naturalRight_ = 0;
    int padLeft_ = 0;
    int padRight_ = 0;

    bool dragging_ = false;
    QPointF pressPos_;  // where the left button went down (a click explains)
    double dragStartX_ = 0;
    double dragMin_ = 0;
    double dragMax_ = 0;
};

}  // namespace ratelab
