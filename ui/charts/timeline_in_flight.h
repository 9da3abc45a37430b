#pragma once

#include <QCoreApplication>
#include <QList>
#include <QPointF>

#include "charts/timeline_model.h"

QT_BEGIN_NAMESPACE
class QChart;
class QLineSeries;
class QScatterSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace ratelab {

// The in-flight view of a limiter whose limit is on requests in flight (the concurrency
// limiter): requests in flight and the in-flight limit on the right axis, the releases per step
// beside the grants (the accepted area) on the left one, and a mark at each step with leaked
// grants. Hidden for every other limiter. The series are the chart's.
class TimelineInFlight {
    Q_DECLARE_TR_FUNCTIONS(TimelineInFlight)

public:
    TimelineInFlight(QChart* chart, QValueAxis* axisX, QValueAxis* axisY, QValueAxis* axisRight);

    // Draws `view` (the model's InFlight for the chart's view); shows the right axis when shown.
    void update(const TimelineModel::InFlight& view);
    void setDark(bool dark);
    // The right axis's title: requests in flight, or the permits a rate limiter's state has
    // (shorter in presentation mode, where the long title would be cut along a short plot).
    static QString axisTitle(bool inFlight, bool presentation);

    QLineSeries* inFlightSeries() const { return inFlight_; }
    QLineSeries* limitSeries() const { return limit_; }
    QLineSeries* releasedSeries() const { return released_; }
    QScatterSeries* leakedSeries() const { return leaked_; }

private:
    QChart* chart_;
    QValueAxis* axisRight_;
    QLineSeries* inFlight_;
    QLineSeries* limit_;
    QLineSeries* released_;
    QScatterSeries* leaked_;
};

}  // namespace ratelab
