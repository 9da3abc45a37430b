#pragma once

#include <QWidget>

#include "stats/run_snapshot.h"

QT_BEGIN_NAMESPACE
class QBarCategoryAxis;
class QBarSeries;
class QBarSet;
class QChartView;
class QComboBox;
class QValueAxis;
QT_END_NAMESPACE

namespace ratelab {

// Latency histogram of one selectable limiter (Qt Charts bar chart over log-spaced buckets of
// the LatencyHistogram snapshot, ms), with p50/p90/p99/p99.9 marked in the title.
class LatencyChart : public QWidget {
    Q_OBJECT

public:
    explicit LatencyChart(QWidget* parent = nullptr);
    void updateFrom(const RunSnapshot& run);
    QString titleText() const;  // for tests
    int barCount() const;       // for tests

protected:
    void changeEvent(QEvent* event) override;

private:
    void render();
    void applyPalette();

    QComboBox* combo_ = nullptr;
    QChartView* view_ = nullptr;
    QBarSeries* series_ = nullptr;
    QBarSet* set_ = nullptr;
    QBarCategoryAxis* axisX_ = nullptr;
    QValueAxis* axisY_ = nullptr;
    RunSnapshot run_;
    double yMax_ = -1;
};

}  // namespace ratelab
