#include <QLegendMarker>
#include <QLineSeries>

#include "charts/timeline_chart.h"
#include "style/series_style.h"

namespace ratelab {

// One line per traffic group, its accepted requests per step: the areas stack the limiter's
// whole decisions, the lines say who got the accepted ones (users beside an attacker). Not
// stacked: each line is its group's own count, and together they add up to the accepted area.
void TimelineChart::updateGroupLines(const QVector<QList<QPointF>>& lines,
                                     const QStringList& names) {
    while (groupLines_.size() < lines.size()) {
        auto* line = new QLineSeries(chart_);
        chart_->addSeries(line);
        line->attachAxis(axisX_);
        line->attachAxis(axisY_);
        line->setPen(style::groupPen(int(groupLines_.size()), dark_));
        groupLines_.append(line);
    }
    for (int i = 0; i < groupLines_.size(); ++i) {
        QLineSeries* line = groupLines_[i];
        const bool shown = i < lines.size();
        if (shown) {
            const QString name = tr("%1 accepted").arg(names.value(i));
            if (line->name() != name)
                line->setName(name);
            replaceIfChanged(line, lines[i]);
        } else if (line->count() > 0) {
            line->clear();
        }
        setShown(line, shown);
    }
}

void TimelineChart::styleGroupLines() {
    for (int i = 0; i < groupLines_.size(); ++i)
        groupLines_[i]->setPen(style::groupPen(i, dark_));
}

}  // namespace ratelab
