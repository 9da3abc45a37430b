#include "tune/sweep_chart_view.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include "output/sweep_files.h"
#include "output/sweep_report.h"
#include "tune/sweep_chart.h"

namespace ratelab {

SweepChartView::SweepChartView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumSize(320, 220);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
}

void SweepChartView::setTable(const SweepTable& table) {
    table_ = table;
    grid_ = SweepGrid(table_);
    update();
}

QRectF SweepChartView::cellRect(int column, int row) const {
    if (table_.keys.isEmpty()) {
        return {};
    }
    return SweepChart(table_, grid_, rect(), font()).cellRect(column, row);
}

bool SweepChartView::cellUnder(const QPointF& point, int* column, int* row) const {
    return !table_.keys.isEmpty() &&
           SweepChart(table_, grid_, rect(), font()).cellAt(point, column, row);
}

QString SweepChartView::cellText(int column, int row) const {
    const int index = grid_.at(column, row);
    if (index < 0 || index >= table_.combinations.size()) {
        return {};
    }
    const SweepCombination& c = table_.combinations[index];
    QStringList lines{sweepValuesText(table_, c),
                      tr("%1: %2").arg(table_.objective, sweepFigureText(c.objective))};
    for (int k = 0; k < table_.constraints.size(); ++k) {
        const bool held = c.holds(k);
        lines << tr("%1: %2 (%3)")
                     .arg(table_.constraints[k], sweepFigureText(c.constraintFigure(k)),
                          held ? tr("holds") : tr("FAILED"));
    }
    for (const SweepFigures& f : c.rows) {
        const QString who =
            f.group == QLatin1String("*") ? f.limiter : tr("%1, group %2").arg(f.limiter, f.group);
        lines << tr("%1: fired %2, accepted %3, rejected %4 (%5%), errors %6")
                     .arg(who)
                     .arg(f.fired)
                     .arg(f.accepted)
                     .arg(f.rejected)
                     .arg(sweepFigureText(f.rejectedPct()))
                     .arg(f.errors);
    }
    lines << (c.feasible() ? tr("every constraint holds") : tr("infeasible"));
    lines << tr("click: load into the editor and run it");
    return lines.join(QLatin1Char('\n'));
}

void SweepChartView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    if (table_.keys.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                         tr("Pick one or two fields to vary, then Run sweep: the heatmap fills "
                            "in as combinations finish."));
        return;
    }
    SweepChart(table_, grid_, rect(), font()).paint(painter, palette(), hoverColumn_, hoverRow_);
}

void SweepChartView::mouseMoveEvent(QMouseEvent* event) {
    int column = -1, row = -1;
    if (!cellUnder(event->position(), &column, &row)) {
        column = row = -1;
    }
    if (column != hoverColumn_ || row != hoverRow_) {
        hoverColumn_ = column;
        hoverRow_ = row;
        update();
    }
}

void SweepChartView::leaveEvent(QEvent*) {
    hoverColumn_ = hoverRow_ = -1;
    update();
}

void SweepChartView::mouseReleaseEvent(QMouseEvent* event) {
    int column = -1, row = -1;
    if (event->button() != Qt::LeftButton || !cellUnder(event->position(), &column, &row)) {
        return;
    }
    const int index = grid_.at(column, row);
    if (index >= 0) {
        emit combinationClicked(index);
    }
}

bool SweepChartView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        int column = -1, row = -1;
        const QString text =
            cellUnder(help->pos(), &column, &row) ? cellText(column, row) : QString();
        if (text.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, this);
        }
        return true;
    }
    return QWidget::event(event);
}

}  // namespace ratelab
