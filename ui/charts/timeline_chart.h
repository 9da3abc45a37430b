#pragma once

#include <QChartView>
#include <QPointer>
#include <QVector>

#include "limiters/limiter_state.h"
#include "stats/run_snapshot.h"

QT_BEGIN_NAMESPACE
class QAreaSeries;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace ratelab {

// The live timeline of one limiter (Qt Charts): accepted and rejected per time bucket (from the
// run's counts), the limit as a dashed line, and the limiter's state as read from Redis:
// fixed-window boundaries as alternating vertical bands with each window's count (the Redis
// counter, remembered after it expires) written inside, the token bucket's available permits as
// a line on a second axis, the sliding window's current span shaded with the count per rule.
// X is run time in seconds. While following, the last `windowSeconds` scroll by; when not
// following (paused), the mouse wheel zooms and dragging pans. Redraws use QXYSeries::replace
// with a bounded number of points per series.
class TimelineChart : public QChartView {
    Q_OBJECT

public:
    explicit TimelineChart(QWidget* parent = nullptr);

    // Starts over for a limiter (clears history).
    void setLimiter(const LimiterSpec& spec, int clients, qint64 bucketMs, qint64 startEpochMs);
    // Redraws from a snapshot (its limiter `index`) and the limiter's Redis state read at
    // state->nowMs (may be null when no state was read yet).
    void updateFrom(const RunSnapshot& run, int index, const LimiterState* state);
    // A vertical marker with a label (e.g. "config changed: counters reset").
    void addMarker(double runSeconds, const QString& label);

    void setWindowSeconds(double seconds);  // default 30
    void setFollowing(bool following);      // false: zoom and pan
    bool following() const { return following_; }

    static constexpr int kMaxPointsPerSeries = 2000;

    // For tests and exports.
    QLineSeries* acceptedSeries() const { return accepted_; }
    QLineSeries* rejectedSeries() const { return rejected_; }
    QLineSeries* limitSeries() const { return limit_; }
    QLineSeries* tokenSeries() const { return tokens_; }
    int windowBandCount() const;
    QStringList windowLabels() const;  // the counts written in the bands, oldest first
    QStringList spanLabels() const;    // "5/1000 ms: 3 of 5", one per rule

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    bool following_ = true;
    double windowSeconds_ = 30;
    QLineSeries* accepted_ = nullptr;
    QLineSeries* rejected_ = nullptr;
    QLineSeries* limit_ = nullptr;
    QLineSeries* tokens_ = nullptr;
    // The implementation adds what it needs below (helpers own this class's .cpp).
    struct Private;
    std::unique_ptr<Private> d_;

public:
    ~TimelineChart() override;
};

}  // namespace ratelab
