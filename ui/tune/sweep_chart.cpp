#include "tune/sweep_chart.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "charts/nice_scale.h"
#include "output/sweep_files.h"
#include "style/palette_colors.h"

namespace ratelab {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ratelab::SweepChart", text);
}

constexpr double kPad = 8;
constexpr double kScaleWidth = 14;

// Black or white, whichever reads on `fill`.
QColor inkOn(const QColor& fill) {
    return style::contrastRatio(fill, Qt::black) >= style::contrastRatio(fill, Qt::white)
               ? QColor(Qt::black)
               : QColor(Qt::white);
}

}  // namespace

QColor objectiveColor(double fraction) {
    // viridis at 0, 0.25, 0.5, 0.75 and 1
    static const QColor stops[] = {QColor(68, 1, 84), QColor(59, 82, 139), QColor(33, 145, 140),
                                   QColor(94, 201, 98), QColor(253, 231, 37)};
    const double f = std::clamp(std::isnan(fraction) ? 0.0 : fraction, 0.0, 1.0) * 4;
    const int i = std::min(3, int(f));
    const double t = f - i;
    const QColor& a = stops[i];
    const QColor& b = stops[i + 1];
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

SweepChart::SweepChart(const SweepTable& table, const SweepGrid& grid, const QRectF& area,
                       const QFont& font)
    : table_(table), grid_(grid), area_(area), font_(font) {
    const QFontMetricsF fm(font_);
    const double line = fm.height();
    titleRect_ = QRectF(area.left() + kPad, area.top() + kPad, area.width() - 2 * kPad, 2 * line);
    // Tick labels: the widest value on the y axis (heatmap rows or the objective's ticks).
    double yLabels = 0;
    if (grid_.isLine()) {
        low_ = std::isnan(grid_.minObjective()) ? 0 : grid_.minObjective();
        high_ = std::isnan(grid_.maxObjective()) ? 1 : grid_.maxObjective();
        if (high_ <= low_) {
            high_ = low_ + 1;
        }
        step_ = niceStep(high_ - low_, 5);
        low_ = std::floor(low_ / step_) * step_;
        high_ = std::ceil(high_ / step_) * step_;
        for (double v = low_; v <= high_ + step_ / 2; v += step_) {
            yLabels = std::max(yLabels, fm.horizontalAdvance(sweepFigureText(v)));
        }
    } else {
        for (qint64 v : grid_.yValues()) {
            yLabels = std::max(yLabels, fm.horizontalAdvance(QString::number(v)));
        }
    }
    const double left = area.left() + kPad + line + 4 + yLabels + 6;
    double right = area.right() - kPad;
    if (!grid_.isLine()) {
        const double scaleLabels =
            std::max(fm.horizontalAdvance(sweepFigureText(grid_.minObjective())),
                     fm.horizontalAdvance(sweepFigureText(grid_.maxObjective())));
        scale_ = QRectF(right - scaleLabels - 6 - kScaleWidth, 0, kScaleWidth, 0);
        right = scale_.left() - 2 * kPad;
    }
    const double top = titleRect_.bottom() + line * 0.5;
    const double bottom = area.bottom() - kPad - 2 * line - 6;
    plot_ =
        QRectF(QPointF(left, top), QPointF(std::max(left + 1, right), std::max(top + 1, bottom)));
    if (!grid_.isLine()) {
        scale_.setTop(plot_.top());
        scale_.setBottom(plot_.bottom());
    }
}

QString SweepChart::title() const {
    const QString objective =
        (table_.maximize ? tr("%1, maximized") : tr("%1, minimized")).arg(table_.objective);
    if (grid_.xKey().isEmpty()) {
        return objective;
    }
    QString over = grid_.isLine()
                       ? tr("%1 over %2").arg(objective, grid_.xKey())
                       : tr("%1 over %2 and %3").arg(objective, grid_.xKey(), grid_.yKey());
    if (!grid_.otherKeys().isEmpty()) {
        over +=
            tr(" (each cell the best over %1)").arg(grid_.otherKeys().join(QStringLiteral(", ")));
    }
    return over;
}

QRectF SweepChart::cellRect(int column, int row) const {
    const double w = plot_.width() / std::max(1, grid_.columns());
    if (grid_.isLine()) {
        return QRectF(plot_.left() + column * w, plot_.top(), w, plot_.height());
    }
    const double h = plot_.height() / std::max(1, grid_.rows());
    // Row 0 at the bottom: the second key's values rise upwards.
    return QRectF(plot_.left() + column * w, plot_.bottom() - (row + 1) * h, w, h);
}

bool SweepChart::cellAt(const QPointF& point, int* column, int* row) const {
    if (!plot_.contains(point) || grid_.columns() == 0) {
        return false;
    }
    *column = std::clamp(int((point.x() - plot_.left()) / plot_.width() * grid_.columns()), 0,
                         grid_.columns() - 1);
    *row = grid_.isLine()
               ? 0
               : std::clamp(int((plot_.bottom() - point.y()) / plot_.height() * grid_.rows()), 0,
                            grid_.rows() - 1);
    return true;
}

double SweepChart::fractionOf(double objective) const {
    const double lo = grid_.minObjective(), hi = grid_.maxObjective();
    if (std::isnan(objective) || std::isnan(lo) || hi <= lo) {
        return 0.5;
    }
    return (objective - lo) / (hi - lo);
}

double SweepChart::yOf(double objective) const {
    return plot_.bottom() - (objective - low_) / (high_ - low_) * plot_.height();
}

void SweepChart::paint(QPainter& painter, const QPalette& palette, int hoverColumn,
                       int hoverRow) const {
    painter.save();
    painter.setFont(font_);
    painter.fillRect(area_, palette.color(QPalette::Base));
    painter.setPen(palette.color(QPalette::Text));
    const QFontMetricsF fm(font_);
    painter.drawText(QRectF(titleRect_.topLeft(), QSizeF(titleRect_.width(), fm.height())),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     fm.elidedText(title(), Qt::ElideRight, titleRect_.width()));
    painter.setPen(style::withAlpha(palette.color(QPalette::Text), 200));
    const QString legend =
        grid_.isLine()
            ? tr("hatched: a constraint fails · ringed: the best feasible · no point: not run yet")
            : tr("hatched: a constraint fails · framed: the best feasible · empty: not run yet");
    painter.drawText(
        QRectF(titleRect_.left(), titleRect_.top() + fm.height(), titleRect_.width(), fm.height()),
        Qt::AlignLeft | Qt::AlignVCenter,
        fm.elidedText(legend, Qt::ElideRight, titleRect_.width()));
    if (grid_.isLine()) {
        paintLine(painter, palette);
    } else {
        paintHeatmap(painter, palette);
        paintScale(painter, palette);
    }
    paintAxes(painter, palette);
    paintMarks(painter, palette, hoverColumn, hoverRow);
    painter.restore();
}

void SweepChart::paintHeatmap(QPainter& painter, const QPalette& palette) const {
    const QFontMetricsF fm(font_);
    const QColor empty = style::withAlpha(palette.color(QPalette::Text), 40);
    for (int r = 0; r < grid_.rows(); ++r) {
        for (int c = 0; c < grid_.columns(); ++c) {
            const QRectF cell = cellRect(c, r);
            const int i = grid_.at(c, r);
            if (i < 0) {
                painter.setPen(QPen(empty, 1));
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(cell.adjusted(0.5, 0.5, -0.5, -0.5));
                continue;
            }
            const SweepCombination& combination = table_.combinations[i];
            const QColor fill = std::isnan(combination.objective)
                                    ? palette.color(QPalette::Mid)
                                    : objectiveColor(fractionOf(combination.objective));
            const QColor ink = inkOn(fill);
            painter.fillRect(cell, fill);
            if (!combination.feasible()) {
                painter.fillRect(cell, QBrush(style::withAlpha(ink, 150), Qt::BDiagPattern));
            }
            const QString text = sweepFigureText(combination.objective);
            if (fm.horizontalAdvance(text) + 6 <= cell.width() &&
                fm.height() + 2 <= cell.height()) {
                // A plate under the number keeps it legible over the hatching.
                if (!combination.feasible()) {
                    const QRectF plate(0, 0, fm.horizontalAdvance(text) + 6, fm.height());
                    painter.fillRect(QRectF(cell.center() - plate.center(), plate.size()), fill);
                }
                painter.setPen(ink);
                painter.drawText(cell, Qt::AlignCenter, text);
            }
        }
    }
}

void SweepChart::paintLine(QPainter& painter, const QPalette& palette) const {
    const QColor text = palette.color(QPalette::Text);
    painter.setPen(QPen(style::withAlpha(text, 50), 1));
    for (double v = low_; v <= high_ + step_ / 2; v += step_) {
        painter.drawLine(QPointF(plot_.left(), yOf(v)), QPointF(plot_.right(), yOf(v)));
    }
    QPainterPath path;
    bool started = false;
    for (int c = 0; c < grid_.columns(); ++c) {
        const int i = grid_.at(c, 0);
        const QRectF band = cellRect(c, 0);
        if (i >= 0 && !table_.combinations[i].feasible()) {
            painter.fillRect(band, QBrush(style::withAlpha(text, 90), Qt::BDiagPattern));
        }
        const double v = i >= 0 ? table_.combinations[i].objective : std::nan("");
        if (std::isnan(v)) {
            started = false;
            continue;
        }
        const QPointF point(band.center().x(), yOf(v));
        started ? path.lineTo(point) : path.moveTo(point);
        started = true;
    }
    const QColor line = objectiveColor(0.3);
    painter.setPen(QPen(style::isDark(palette) ? objectiveColor(0.75) : line, 2));
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(path);
    for (int c = 0; c < grid_.columns(); ++c) {
        const int i = grid_.at(c, 0);
        if (i < 0 || std::isnan(table_.combinations[i].objective)) {
            continue;
        }
        const QPointF point(cellRect(c, 0).center().x(), yOf(table_.combinations[i].objective));
        painter.setPen(QPen(text, 1.5));
        painter.setBrush(table_.combinations[i].feasible() ? QBrush(text)
                                                           : QBrush(palette.color(QPalette::Base)));
        painter.drawEllipse(point, 4, 4);
    }
}

void SweepChart::paintAxes(QPainter& painter, const QPalette& palette) const {
    const QFontMetricsF fm(font_);
    const QColor text = palette.color(QPalette::Text);
    painter.setPen(text);
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(plot_);
    // x: the first key's values under their columns, the key under them.
    double lastRight = -1e9;
    for (int c = 0; c < grid_.columns(); ++c) {
        const QString label = QString::number(grid_.xValues()[c]);
        const double w = fm.horizontalAdvance(label);
        const double x = cellRect(c, 0).center().x();
        if (x - w / 2 > lastRight + 4) {  // labels that would overlap are left out
            painter.drawText(QRectF(x - w / 2, plot_.bottom() + 3, w, fm.height()), Qt::AlignCenter,
                             label);
            lastRight = x + w / 2;
        }
    }
    painter.drawText(
        QRectF(plot_.left(), plot_.bottom() + 3 + fm.height(), plot_.width(), fm.height()),
        Qt::AlignHCenter | Qt::AlignVCenter, grid_.xKey());
    // y: the second key's values (or the objective's ticks) and the axis' name, turned.
    const double labelRight = plot_.left() - 6;
    const auto yLabel = [&](double y, const QString& label) {
        painter.drawText(
            QRectF(area_.left(), y - fm.height() / 2, labelRight - area_.left(), fm.height()),
            Qt::AlignRight | Qt::AlignVCenter, label);
    };
    if (grid_.isLine()) {
        for (double v = low_; v <= high_ + step_ / 2; v += step_) {
            yLabel(yOf(v), sweepFigureText(v));
        }
    } else {
        double lastTop = 1e9;
        for (int r = 0; r < grid_.rows(); ++r) {
            const double y = cellRect(0, r).center().y();
            if (y + fm.height() / 2 < lastTop) {
                yLabel(y, QString::number(grid_.yValues()[r]));
                lastTop = y - fm.height() / 2;
            }
        }
    }
    painter.save();
    painter.translate(area_.left() + kPad, plot_.center().y());
    painter.rotate(-90);
    const QString yName = grid_.isLine() ? table_.objective : grid_.yKey();
    painter.drawText(QRectF(-plot_.height() / 2, 0, plot_.height(), fm.height()), Qt::AlignCenter,
                     fm.elidedText(yName, Qt::ElideRight, plot_.height()));
    painter.restore();
}

void SweepChart::paintScale(QPainter& painter, const QPalette& palette) const {
    if (scale_.isEmpty() || std::isnan(grid_.minObjective())) {
        return;
    }
    const int steps = 32;
    for (int s = 0; s < steps; ++s) {
        const double h = scale_.height() / steps;
        painter.fillRect(
            QRectF(scale_.left(), scale_.bottom() - (s + 1) * h, scale_.width(), h + 0.5),
            objectiveColor((s + 0.5) / steps));
    }
    const QFontMetricsF fm(font_);
    painter.setPen(palette.color(QPalette::Text));
    painter.drawRect(scale_);
    const double x = scale_.right() + 4;
    painter.drawText(QRectF(x, scale_.top(), area_.right() - x, fm.height()), Qt::AlignLeft,
                     sweepFigureText(grid_.maxObjective()));
    painter.drawText(QRectF(x, scale_.bottom() - fm.height(), area_.right() - x, fm.height()),
                     Qt::AlignLeft, sweepFigureText(grid_.minObjective()));
}

void SweepChart::paintMarks(QPainter& painter, const QPalette& palette, int hoverColumn,
                            int hoverRow) const {
    const QColor text = palette.color(QPalette::Text);
    const QColor base = palette.color(QPalette::Base);
    painter.setBrush(Qt::NoBrush);
    if (grid_.bestColumn() >= 0) {
        if (grid_.isLine()) {
            const int i = grid_.at(grid_.bestColumn(), 0);
            const QPointF point(cellRect(grid_.bestColumn(), 0).center().x(),
                                yOf(table_.combinations[i].objective));
            painter.setPen(QPen(text, 2.5));
            painter.drawEllipse(point, 9, 9);
        } else {
            // A dark and a light frame: it shows on any cell colour and in grayscale.
            const QRectF cell = cellRect(grid_.bestColumn(), grid_.bestRow());
            painter.setPen(QPen(text, 4));
            painter.drawRect(cell.adjusted(2, 2, -2, -2));
            painter.setPen(QPen(base, 1.5));
            painter.drawRect(cell.adjusted(4.5, 4.5, -4.5, -4.5));
        }
    }
    if (hoverColumn >= 0 && hoverRow >= 0) {
        painter.setPen(QPen(palette.color(QPalette::Highlight), 2, Qt::DashLine));
        painter.drawRect(cellRect(hoverColumn, hoverRow).adjusted(1, 1, -1, -1));
    }
}

}  // namespace ratelab
