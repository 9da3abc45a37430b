#include "charts/timeline_token_line.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>

#include "charts/nice_axis.h"
#include "charts/series_update.h"

namespace ratelab {

TimelineTokenLine::TimelineTokenLine(QChart* chart, QValueAxis* axisX, QValueAxis* axis,
                                     QLineSeries* first)
    : chart_(chart), axisX_(axisX), axis_(axis), first_(first) {}

QVector<QList<QPointF>> TimelineTokenLine::update(const TimelineModel::Tokens& tokens) {
    showSeries(chart_, first_, tokens.shown);
    if (axis_->isVisible() != tokens.shown)
        axis_->setVisible(tokens.shown);
    QVector<QList<QPointF>> pieces = tokens.segments;
    while (pieces.size() > kMaxPieces) {
        pieces[pieces.size() - 2] << pieces.last();
        pieces.removeLast();
    }
    if (!tokens.shown)
        pieces.clear();
    replaceIfChanged(first_, pieces.value(0));
    for (int i = 1; i < pieces.size(); ++i)
        replaceIfChanged(piece(i - 1), pieces[i]);
    for (int i = std::max<int>(pieces.size(), 1); i < shown_; ++i)
        pieces_[i - 1]->clear();
    shown_ = std::max<int>(pieces.size(), 1);
    if (tokens.shown)
        setNiceRange(axis_, tokens.axisTop * 1.05);
    return pieces;
}

void TimelineTokenLine::setPen(const QPen& pen) {
    first_->setPen(pen);
    for (QLineSeries* p : pieces_)
        p->setPen(pen);
}

QVector<QLineSeries*> TimelineTokenLine::segments() const {
    QVector<QLineSeries*> shown{first_};
    for (int i = 0; i + 1 < shown_ && i < pieces_.size(); ++i)
        shown << pieces_[i];
    return shown;
}

// Piece i + 1 of the line (made on first use, without a legend entry).
QLineSeries* TimelineTokenLine::piece(int i) {
    while (pieces_.size() <= i) {
        auto* line = new QLineSeries(chart_);
        chart_->addSeries(line);
        line->attachAxis(axisX_);
        line->attachAxis(axis_);
        line->setPen(first_->pen());
        for (QLegendMarker* marker : chart_->legend()->markers(line))
            marker->setVisible(false);
        pieces_.append(line);
    }
    return pieces_[i];
}

}  // namespace ratelab
