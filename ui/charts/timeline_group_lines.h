#pragma once

#include <QCoreApplication>
#include <QList>
#include <QPointF>
#include <QStringList>
#include <QVector>

QT_BEGIN_NAMESPACE
class QChart;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace ratelab {

// The traffic groups' lines on a timeline: one line per group, its accepted requests per step,
// over the stacked areas. The areas stack the limiter's whole decisions, the lines say who got
// the accepted ones (users beside an attacker). Not stacked: each line is its group's own
// count, and together they add up to the accepted area. Lines are made on first use and owned
// by the chart; a line whose group the run no longer has is hidden with its legend entry.
class TimelineGroupLines {
    Q_DECLARE_TR_FUNCTIONS(TimelineGroupLines)

public:
    TimelineGroupLines(QChart* chart, QValueAxis* axisX, QValueAxis* axisY);

    // Each group's accepted line (counts.groupAccepted) named after its group.
    void update(const QVector<QList<QPointF>>& lines, const QStringList& names);
    // The groups' pens for a dark or a light background.
    void setDark(bool dark);

    // Group i's line; null before the run had that group.
    QLineSeries* line(int i) const { return lines_.value(i); }
    const QVector<QLineSeries*>& lines() const { return lines_; }
    // "users accepted": a group's line in the legend.
    static QString lineName(const QString& group);

private:
    QChart* chart_;
    QValueAxis* axisX_;
    QValueAxis* axisY_;
    bool dark_ = false;
    QVector<QLineSeries*> lines_;
};

}  // namespace ratelab
