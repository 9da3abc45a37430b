#pragma once

#include <QHash>
#include <QObject>
#include <utility>

namespace ratelab {

// One time axis for the timelines side by side (x is run time in seconds). It holds whether the
// view follows the run and, while it does not (paused), the visible range [lo, hi] that wheel
// zoom and drag pan set. Every TimelineChart bound to it (TimelineChart::setTimeAxis) writes its
// zoom, pan and pause here and shows what the axis holds, so zooming or panning one chart moves
// them all. While following, each chart derives its range from its own run (the whole planned
// run, or the last seconds of one without a duration). Their plot areas line up (the largest
// room any chart's axes take on either side). A chart bound to no shared axis keeps one of its
// own.
class TimeAxis : public QObject {
    Q_OBJECT

public:
    explicit TimeAxis(QObject* parent = nullptr);

    bool following() const { return following_; }
    // True (the default): the charts follow the run; false: the paused view, zoomed and panned.
    void setFollowing(bool following);

    // The paused view's range; an empty or reversed range is ignored.
    void setRange(double lo, double hi);
    std::pair<double, double> range() const { return {lo_, hi_}; }
    double lo() const { return lo_; }
    double hi() const { return hi_; }

    // The charts bound to the axis line their plots up, so that one second sits at one x in
    // all of them: each reports the room its own axes take left and right of its plot (whole
    // pixels), the axis holds the largest of each, and every chart keeps that much. A chart's
    // report goes with the chart (or forgetInsets, when it binds another axis).
    void reportInsets(QObject* chart, int left, int right);
    void forgetInsets(QObject* chart);
    std::pair<int, int> insets() const { return {left_, right_}; }

signals:
    // Each emitted only when the value changed.
    void followingChanged(bool following);
    void rangeChanged(double lo, double hi);
    void insetsChanged(int left, int right);

private:
    void updateInsets();

    bool following_ = true;
    double lo_ = 0;
    double hi_ = 30;
    QHash<QObject*, std::pair<int, int>> reported_;
    int left_ = 0;
    int right_ = 0;
};

}  // namespace ratelab
