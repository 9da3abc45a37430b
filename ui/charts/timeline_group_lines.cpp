#include "charts/timeline_group_lines.h"

#include <QChart>
#include <QLineSeries>
#include <QValueAxis>

#include "charts/series_update.h"
#include "style/series_style.h"

namespace ratelab {

TimelineGroupLines::TimelineGroupLines(QChart* chart, QValueAxis* axisX, QValueAxis* axisY)
    : chart_(chart), axisX_(axisX), axisY_(axisY) {}

QString TimelineGroupLines::lineName(const QString& group) {
    return tr("%1 accepted").arg(group);
}

void TimelineGroupLines::update(const QVector<QList<QPointF>>& lines, const QStringList& names) {
    while (lines_.size() < lines.size()) {
        auto* line = new QLineSeries(chart_);
        chart_->addSeries(line);
        line->attachAxis(axisX_);
        line->attachAxis(axisY_);
        line->setPen(style::groupPen(int(lines_.size()), dark_));
        lines_.append(line);
    }
    for (int i = 0; i < lines_.size(); ++i) {
        QLineSeries* line = lines_[i];
        const bool shown = i < lines.size();
        if (shown) {
            const QString name = lineName(names.value(i));
            if (line->name() != name)
                line->setName(name);
            replaceIfChanged(line, lines[i]);
        } else if (line->count() > 0) {
            line->clear();
        }
        showSeries(chart_, line, shown);
    }
}

void TimelineGroupLines::setDark(bool dark) {
    dark_ = dark;
    for (int i = 0; i < lines_.size(); ++i)
        lines_[i]->setPen(style::groupPen(i, dark_));
}

}  // namespace ratelab
