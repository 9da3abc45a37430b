#include "charts/timeline_chart.h"

// The timeline's tooltip (what is drawn under the cursor) and its viewport events.

#include <QAreaSeries>
#include <QChart>
#include <QEvent>
#include <QHelpEvent>
#include <QLineSeries>
#include <QLocale>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <optional>

#include "charts/chart_cost.h"

namespace ratelab {
namespace {

// The value of a step outline (pairs of points [x0, y], [x1, y]) over `x`; -1 outside it.
double stepValueAt(const QList<QPointF>& points, double x) {
    for (int i = 0; i + 1 < points.size(); i += 2) {
        if (x >= points[i].x() && x < points[i + 1].x())
            return points[i].y();
    }
    return -1;
}

// The last point of a line at or before `x`.
std::optional<QPointF> lastPointAt(const QList<QPointF>& points, double x) {
    std::optional<QPointF> found;
    for (const QPointF& p : points) {
        if (p.x() > x)
            break;
        found = p;
    }
    return found;
}

}  // namespace

// What is drawn at run time `seconds`: the step's counts (stacked, so each is told apart), the
// limit in force and the permits last read. Empty outside the data.
QString TimelineChart::toolTipAt(double seconds) const {
    const QList<QPointF> accepted = accepted_->points();
    const double a = stepValueAt(accepted, seconds);
    QStringList lines;
    double x0 = seconds;  // the step under the cursor
    double x1 = seconds;
    if (a >= 0) {
        for (int i = 0; i + 1 < accepted.size(); i += 2) {
            if (seconds >= accepted[i].x() && seconds < accepted[i + 1].x()) {
                x0 = accepted[i].x();
                x1 = accepted[i + 1].x();
                break;
            }
        }
        const double top = stepValueAt(rejected_->points(), seconds);
        const double r = std::max(0.0, top - a);
        const double e = errorsArea_->isVisible()
                             ? std::max(0.0, stepValueAt(errors_->points(), seconds) - top)
                             : 0.0;
        const QLocale locale;
        lines
            << tr("<b>%1 – %2 s</b>").arg(locale.toString(x0, 'f', 2), locale.toString(x1, 'f', 2));
        lines << tr("fired %1 = accepted %2 + rejected %3 + errors %4")
                     .arg(qint64(a + r + e))
                     .arg(qint64(a))
                     .arg(qint64(r))
                     .arg(qint64(e));
        // Who got the accepted ones: each traffic group's line.
        QStringList groups;
        for (const QLineSeries* line : groupLines_) {
            const double g = line->isVisible() ? stepValueAt(line->points(), seconds) : -1;
            if (g >= 0)
                groups << tr("%1 %2").arg(line->name().toHtmlEscaped()).arg(qint64(g));
        }
        if (!groups.isEmpty())
            lines << groups.join(QStringLiteral(", "));
    }
    if (baselineAccepted_->isVisible()) {
        const double ba = stepValueAt(baselineAccepted_->points(), seconds);
        const double br = stepValueAt(baselineRejected_->points(), seconds);
        const QString label = model_.baseline() ? model_.baseline()->label : QString();
        if (ba >= 0) {
            lines << (baselineGroupMs_ == groupMs_
                          ? tr("baseline %1: accepted %2, rejected %3 (dashed lines)")
                                .arg(label.toHtmlEscaped())
                                .arg(qint64(ba))
                                .arg(qint64(std::max(br, 0.0)))
                          : tr("baseline %1: accepted %2, rejected %3 per %4 (its buckets; "
                               "dashed lines)")
                                .arg(label.toHtmlEscaped())
                                .arg(qint64(ba))
                                .arg(qint64(std::max(br, 0.0)))
                                .arg(durationText(baselineGroupMs_)));
        } else if (a >= 0) {  // this run has data here, the baseline none
            lines << tr("baseline %1: no data here (its run ended before)")
                         .arg(label.toHtmlEscaped());
        }
    }
    if (const qint64 n = model_.disagreementsAt(seconds, groupMs_); n > 0) {
        lines << tr("%1 decided differently from %2 (the triangle)")
                     .arg(n)
                     .arg(model_.disagreementOther().toHtmlEscaped());
    }
    const double limit = stepValueAt(limit_->points(), seconds);
    if (limit_->isVisible() && limit >= 0) {
        lines << tr("%1: %2 per %3")
                     .arg(limit_->name().toHtmlEscaped(), QLocale().toString(limit, 'g', 4),
                          durationText(groupMs_));
    }
    if (tokens_->isVisible()) {
        // The piece of the line over `seconds`; between two pieces the line is broken.
        const QVector<QLineSeries*> pieces = tokenSegments();
        for (int i = 0; i < pieces.size(); ++i) {
            const QList<QPointF> points = pieces[i]->points();
            if (points.isEmpty() || seconds < points.first().x())
                continue;
            const bool last = i + 1 == pieces.size() || pieces[i + 1]->count() == 0;
            if (seconds > points.last().x() && !last) {
                if (seconds < pieces[i + 1]->at(0).x())
                    lines << tr("permits available: unknown (decisions failed, Redis unreachable)");
                continue;
            }
            if (const std::optional<QPointF> p = lastPointAt(points, seconds)) {
                lines << tr("permits available: %1 (read at %2 s)")
                             .arg(qint64(p->y()))
                             .arg(QLocale().toString(p->x(), 'f', 2));
            }
            break;
        }
    }
    for (const TimelineModel::Band& band : bands_) {
        if (seconds >= band.x0 && seconds < band.x1) {
            lines << (band.label.isEmpty()
                          ? tr("calendar window %1 – %2 s: count not read")
                                .arg(QLocale().toString(band.x0, 'f', 2),
                                     QLocale().toString(band.x1, 'f', 2))
                          : tr("calendar window %1 – %2 s: %3 granted (its Redis counter)")
                                .arg(QLocale().toString(band.x0, 'f', 2),
                                     QLocale().toString(band.x1, 'f', 2), band.label));
        }
    }
    // The spans are the limiter's state at its last reading (its window ending then, a level
    // then): said as such, not as this step's (a past step showed the run's end's totals).
    for (const TimelineModel::Span& span : spans_) {
        if (seconds < span.x0 || seconds > span.x1)
            continue;
        const QString when = QLocale().toString(span.x1, 'f', 2);
        const bool thisStep = span.x1 >= x0 && span.x1 <= x1;
        lines << (thisStep ? tr("Redis at %1 s (the last reading): %2")
                           : tr("Redis at %1 s (the last reading, not this step): %2"))
                     .arg(when, span.label.toHtmlEscaped());
    }
    if (const std::optional<TimelineModel::Burst> burst = model_.burst()) {
        if (seconds >= burst->x0 && seconds < burst->x1)
            lines << burst->toolTip;
    }
    // Markers within a few pixels of the cursor.
    const double near = 4 * (viewMax_ - viewMin_) / std::max(chart_->plotArea().width(), 1.0);
    for (const TimelineModel::Marker& marker : model_.markers()) {
        if (std::abs(marker.x - seconds) <= near) {
            lines << tr("at %1 s: %2")
                         .arg(QLocale().toString(marker.x, 'f', 2), marker.label.toHtmlEscaped());
        }
    }
    return lines.join(QStringLiteral("<br>"));
}

bool TimelineChart::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::Paint) {
        if (stale_)
            refresh();  // shown again (tab switched, scrolled into view): catch up first
        ChartCost& cost = ChartCost::global();
        const ChartCostScope timed(&cost.paintCpuNs, &cost.paintWallNs, &cost.paints);
        return QChartView::viewportEvent(event);
    }
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QPointF inChart = chart_->mapFromScene(mapToScene(help->pos()));
        const QString text =
            chart_->plotArea().contains(inChart) ? toolTipAt(valueAt(help->pos())) : QString();
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, viewport());
        return true;
    }
    return QChartView::viewportEvent(event);
}

}  // namespace ratelab
