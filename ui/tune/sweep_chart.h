#pragma once

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QRectF>
#include <QString>

#include "output/sweep_table.h"
#include "tune/sweep_grid.h"

class QPainter;

namespace ratelab {

// The colour of an objective at `fraction` (0 the smallest, 1 the largest) of its range: the
// viridis scale, whose lightness rises monotonically, so that it reads in grayscale and for
// colour-blind viewers too.
QColor objectiveColor(double fraction);

// Lays out and paints a sweep's chart (the Tune tab's heatmap and sweep.png): the title and
// legend, a heatmap of the objective over the first two varied keys (infeasible cells
// hatched, the best feasible one framed, unfinished ones empty) with its colour scale, or for
// one key a line of the objective over its values (infeasible values' bands hatched, the best
// point ringed). Texts use the palette's text colour on its base colour.
class SweepChart {
public:
    SweepChart(const SweepTable& table, const SweepGrid& grid, const QRectF& area,
               const QFont& font);

    // The area of a heatmap cell, or of a line's column (its band over the whole plot).
    QRectF cellRect(int column, int row) const;
    // The cell under `point`; false outside the plot.
    bool cellAt(const QPointF& point, int* column, int* row) const;
    const QRectF& plot() const { return plot_; }
    // The chart's title: "<objective>, minimized, over <x> and <y>".
    QString title() const;

    // `hoverColumn`, `hoverRow`: the cell the pointer is over (framed), or -1.
    void paint(QPainter& painter, const QPalette& palette, int hoverColumn = -1,
               int hoverRow = -1) const;

private:
    double fractionOf(double objective) const;
    double yOf(double objective) const;  // the line's y for an objective
    void paintHeatmap(QPainter& painter, const QPalette& palette) const;
    void paintLine(QPainter& painter, const QPalette& palette) const;
    void paintAxes(QPainter& painter, const QPalette& palette) const;
    void paintScale(QPainter& painter, const QPalette& palette) const;
    void paintMarks(QPainter& painter, const QPalette& palette, int hoverColumn,
                    int hoverRow) const;

    const SweepTable& table_;
    const SweepGrid& grid_;
    QRectF area_;
    QFont font_;
    QRectF titleRect_;
    QRectF plot_;
    QRectF scale_;                          // the heatmap's colour scale (empty for a line)
    double low_ = 0, high_ = 1, step_ = 1;  // the line's y axis
};

}  // namespace ratelab
