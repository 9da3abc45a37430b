#pragma once

#include <QChartView>
#include <QVector>

#include "stats/run_snapshot.h"

QT_BEGIN_NAMESPACE
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace ratelab {

// Every limiter's accepted requests so far over run time, one line each on one axis (each its
// own colour and dash, apart in grayscale too: style::limiterPen), and the requests fired as a
// thin grey line over them: where a limiter's line leaves the fired one it starts refusing, and
// the lines' slopes are the rates each lets through. X is run time over the planned duration,
// as on the timelines. Fonts follow the widget's (presentation mode), colours its palette.
class CumulativeChart : public QChartView {
    Q_OBJECT

public:
    // Points per line at most (the counts summed into as many groups of buckets).
    static constexpr int kMaxPoints = 400;

    explicit CumulativeChart(QWidget* parent = nullptr);
    void updateFrom(const RunSnapshot& run);

    // For tests.
    int lineCount() const { return int(lines_.size()); }
    QLineSeries* limiterLine(int i) const { return lines_.value(i); }
    QLineSeries* firedLine() const { return fired_; }

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void draw();
    void applyLook();

    QChart* chart_ = nullptr;  // the view's
    QValueAxis* axisX_ = nullptr;
    QValueAxis* axisY_ = nullptr;
    QLineSeries* fired_ = nullptr;
    QVector<QLineSeries*> lines_;
    RunSnapshot run_;
    bool stale_ = false;  // a snapshot came while hidden
};

}  // namespace ratelab
