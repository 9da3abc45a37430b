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
// the LatencyHistogram snapshot, ms): one count per script call (wait mode: each retry is a
// call), from the request's scheduled send time to the limiter's reply, with p50/p90/p99/p99.9
// in the title; in wait mode the title adds the time granted requests waited (a different
// quantity: first try to grant). A virtual clock has no latency: the title says so. Labels
// thin out to what the width holds; each bar's tooltip gives its range and count.
class LatencyChart : public QWidget {
    Q_OBJECT

public:
    explicit LatencyChart(QWidget* parent = nullptr);
    void updateFrom(const RunSnapshot& run);
    QString titleText() const;       // for tests
    int barCount() const;            // for tests
    QStringList axisLabels() const;  // for tests: the x labels, blanks included
    QString barToolTip(int bar) const;
    QChartView* chartView() const { return view_; }

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void render();
    void applyPalette();
    int readableLabels(const QStringList& samples) const;

    QComboBox* combo_ = nullptr;
    QChartView* view_ = nullptr;
    QBarSeries* series_ = nullptr;
    QBarSet* set_ = nullptr;
    QBarCategoryAxis* axisX_ = nullptr;
    QValueAxis* axisY_ = nullptr;
    RunSnapshot run_;
    double yMax_ = -1;
    QList<qint64> fromUs_;
    QList<qint64> toUs_;
    QList<qreal> counts_;
};

}  // namespace ratelab
