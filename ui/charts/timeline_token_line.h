#pragma once

#include <QList>
#include <QPointF>
#include <QVector>

#include "charts/timeline_model.h"

QT_BEGIN_NAMESPACE
class QChart;
class QLineSeries;
class QPen;
class QValueAxis;
QT_END_NAMESPACE

namespace ratelab {

// The token bucket's permits line on its own axis (right), broken into pieces where the run's
// decisions failed (nothing is known there). The first piece is the line with the legend entry;
// the others are made on first use, without one, and owned by the chart.
class TimelineTokenLine {
public:
    TimelineTokenLine(QChart* chart, QValueAxis* axisX, QValueAxis* axis, QLineSeries* first);

    // Draws `tokens` (the model's line for the view); the pieces drawn, empty when hidden.
    QVector<QList<QPointF>> update(const TimelineModel::Tokens& tokens);
    void setPen(const QPen& pen);
    // The pieces drawn; first() is the line with the legend entry.
    QVector<QLineSeries*> segments() const;

    // Pieces at most (more outages than this join the last pieces).
    static constexpr int kMaxPieces = 64;

private:
    QLineSeries* piece(int i);

    QChart* chart_;
    QValueAxis* axisX_;
    QValueAxis* axis_;
    QLineSeries* first_;
    QVector<QLineSeries*> pieces_;  // after first_
    int shown_ = 1;
};

}  // namespace ratelab
