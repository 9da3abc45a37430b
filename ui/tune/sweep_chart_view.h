#pragma once

#include <QWidget>

#include "output/sweep_table.h"
#include "tune/sweep_grid.h"

namespace ratelab {

// The Tune tab's chart: the sweep's heatmap (or line) as SweepChart paints it, filled in as
// combinations finish. Hovering a cell frames it and shows its figures as a tool tip; clicking
// a finished cell emits its combination.
class SweepChartView : public QWidget {
    Q_OBJECT

public:
    explicit SweepChartView(QWidget* parent = nullptr);

    void setTable(const SweepTable& table);
    const SweepTable& table() const { return table_; }
    const SweepGrid& grid() const { return grid_; }
    // Where cell (column, row) is drawn in the widget's coordinates (empty without a sweep).
    QRectF cellRect(int column, int row) const;
    // The tool tip of cell (column, row): its values, objective, constraints and figures;
    // empty for a cell with no finished combination.
    QString cellText(int column, int row) const;

    QSize sizeHint() const override { return {640, 420}; }

signals:
    // A finished cell was clicked: its combination (an index into table().combinations).
    void combinationClicked(int combination);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    bool event(QEvent* event) override;

private:
    bool cellUnder(const QPointF& point, int* column, int* row) const;

    SweepTable table_;
    SweepGrid grid_;
    int hoverColumn_ = -1;
    int hoverRow_ = -1;
};

}  // namespace ratelab
