#include "charts/timeline_readout.h"

#include <QLocale>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <optional>

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

QString TimelineReadout::durationText(qint64 ms) {
    if (ms >= 60000 && ms % 60000 == 0)
        return tr("%1 min").arg(ms / 60000);
    if (ms >= 1000 && ms % 1000 == 0)
        return tr("%1 s").arg(ms / 1000);
    return tr("%1 ms").arg(ms);
}

QString TimelineReadout::at(const TimelineModel& model, const TimelineDrawing& drawing,
                            double seconds, double markerReach) {
    const TimelineModel::Counts& counts = drawing.counts;
    const QList<QPointF>& accepted = counts.accepted;
    const double a = stepValueAt(accepted, seconds);
    const QLocale locale;
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
        const double top = stepValueAt(counts.rejectedTop, seconds);
        const double r = std::max(0.0, top - a);
        const double e =
            counts.showErrors ? std::max(0.0, stepValueAt(counts.errorsTop, seconds) - top) : 0.0;
        lines
            << tr("<b>%1 – %2 s</b>").arg(locale.toString(x0, 'f', 2), locale.toString(x1, 'f', 2));
        lines << tr("fired %1 = accepted %2 + rejected %3 + errors %4")
                     .arg(qint64(a + r + e))
                     .arg(qint64(a))
                     .arg(qint64(r))
                     .arg(qint64(e));
        // Who got the accepted ones: each traffic group's line.
        QStringList groups;
        for (int i = 0; i < counts.groupAccepted.size(); ++i) {
            const double g = stepValueAt(counts.groupAccepted[i], seconds);
            if (g >= 0) {
                groups << tr("%1 accepted %2")
                              .arg(counts.groupNames.value(i).toHtmlEscaped())
                              .arg(qint64(g));
            }
        }
        if (!groups.isEmpty())
            lines << groups.join(QStringLiteral(", "));
    }
    if (drawing.baselineShown) {
        const double ba = stepValueAt(counts.baselineAccepted, seconds);
        const double br = stepValueAt(counts.baselineRejected, seconds);
        const QString label = model.baseline() ? model.baseline()->label : QString();
        if (ba >= 0) {
            lines << (counts.baselineGroupMs == counts.groupMs
                          ? tr("baseline %1: accepted %2, rejected %3 (dashed lines)")
                                .arg(label.toHtmlEscaped())
                                .arg(qint64(ba))
                                .arg(qint64(std::max(br, 0.0)))
                          : tr("baseline %1: accepted %2, rejected %3 per %4 (its buckets; "
                               "dashed lines)")
                                .arg(label.toHtmlEscaped())
                                .arg(qint64(ba))
                                .arg(qint64(std::max(br, 0.0)))
                                .arg(durationText(counts.baselineGroupMs)));
        } else if (a >= 0) {  // this run has data here, the baseline none
            lines << tr("baseline %1: no data here (its run ended before)")
                         .arg(label.toHtmlEscaped());
        }
    }
    if (const qint64 n = model.disagreementsAt(seconds, counts.groupMs); n > 0) {
        lines << tr("%1 decided differently from %2 (the triangle)")
                     .arg(n)
                     .arg(model.disagreementOther().toHtmlEscaped());
    }
    const double limit = stepValueAt(counts.limit, seconds);
    if (limit >= 0) {
        lines << tr("%1: %2 per %3")
                     .arg(drawing.limitName.toHtmlEscaped(), locale.toString(limit, 'g', 4),
                          durationText(counts.groupMs));
    }
    if (const TimelineModel::InFlight& f = drawing.inFlight; f.shown) {
        const double most = stepValueAt(f.inFlight, seconds);
        if (most >= 0) {
            qint64 leaked = 0;
            for (int i = 0; i < f.leaked.size(); ++i) {
                if (stepValueAt(f.inFlight, f.leaked[i].x()) == most &&
                    std::abs(f.leaked[i].x() - seconds) * 2000.0 <= double(counts.groupMs))
                    leaked = f.leakedCounts.value(i);
            }
            lines << tr("in flight: at most %1 of %2 · released %3 · leaked %4")
                         .arg(qRound64(most))
                         .arg(qRound64(std::max(stepValueAt(f.limit, seconds), 0.0)))
                         .arg(qRound64(std::max(stepValueAt(f.released, seconds), 0.0)))
                         .arg(leaked);
        }
    }
    // The piece of the permits line over `seconds`; between two pieces the line is broken.
    const QVector<QList<QPointF>>& pieces = drawing.tokenPieces;
    for (int i = 0; i < pieces.size(); ++i) {
        const QList<QPointF>& points = pieces[i];
        if (points.isEmpty() || seconds < points.first().x())
            continue;
        const bool last = i + 1 == pieces.size() || pieces[i + 1].isEmpty();
        if (seconds > points.last().x() && !last) {
            if (seconds < pieces[i + 1].first().x())
                lines << tr("permits available: unknown (decisions failed, Redis unreachable)");
            continue;
        }
        if (const std::optional<QPointF> p = lastPointAt(points, seconds)) {
            lines << tr("permits available: %1 (read at %2 s)")
                         .arg(qint64(p->y()))
                         .arg(locale.toString(p->x(), 'f', 2));
        }
        break;
    }
    for (const TimelineModel::Band& band : drawing.bands) {
        if (seconds >= band.x0 && seconds < band.x1) {
            lines << (band.label.isEmpty()
                          ? tr("calendar window %1 – %2 s: count not read")
                                .arg(locale.toString(band.x0, 'f', 2),
                                     locale.toString(band.x1, 'f', 2))
                          : tr("calendar window %1 – %2 s: %3 granted (its Redis counter)")
                                .arg(locale.toString(band.x0, 'f', 2),
                                     locale.toString(band.x1, 'f', 2), band.label));
        }
    }
    // The spans are the limiter's state at its last reading (its window ending then, a level
    // then): said as such, not as this step's (a past step showed the run's end's totals).
    for (const TimelineModel::Span& span : drawing.spans) {
        if (seconds < span.x0 || seconds > span.x1)
            continue;
        const QString when = locale.toString(span.x1, 'f', 2);
        const bool thisStep = span.x1 >= x0 && span.x1 <= x1;
        lines << (thisStep ? tr("Redis at %1 s (the last reading): %2")
                           : tr("Redis at %1 s (the last reading, not this step): %2"))
                     .arg(when, span.label.toHtmlEscaped());
    }
    if (const std::optional<TimelineModel::Burst> burst = model.burst()) {
        if (seconds >= burst->x0 && seconds < burst->x1)
            lines << burst->toolTip;
    }
    for (const TimelineModel::Marker& marker : model.markers()) {
        if (std::abs(marker.x - seconds) <= markerReach) {
            lines << tr("at %1 s: %2")
                         .arg(locale.toString(marker.x, 'f', 2), marker.label.toHtmlEscaped());
        }
    }
    return lines.join(QStringLiteral("<br>"));
}

QStringList TimelineDrawing::windowLabels() const {
    QStringList labels;
    for (const TimelineModel::Band& band : bands) {
        if (!band.label.isEmpty())
            labels << band.label;
    }
    return labels;
}

QStringList TimelineDrawing::spanLabels() const {
    QStringList labels;
    for (const TimelineModel::Span& span : spans)
        labels << span.label;
    return labels;
}

}  // namespace ratelab
