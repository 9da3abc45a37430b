#pragma once

#include <QColor>
#include <QFont>
#include <QVector>
#include <functional>
#include <optional>

#include "charts/timeline_label_rows.h"
#include "charts/timeline_model.h"

QT_BEGIN_NAMESPACE
class QChart;
class QGraphicsLineItem;
class QGraphicsPathItem;
class QGraphicsRectItem;
QT_END_NAMESPACE

namespace ratelab {

class OverlayLabel;

// The timeline's drawings over the chart's plot area, as graphics items owned by the chart:
// fixed-window bands with their counts, sliding-window spans with theirs, and markers with
// labels, the labels in the rows of TimelineLabelRows above the bars. Bands and spans lie above
// the plot background but under the grid and the series; the labels and markers over
// everything in the plot area. Both layers clip to the plot area. Items are pooled: a redraw
// moves them rather than making new ones.
class TimelineOverlay {
public:
    explicit TimelineOverlay(QChart* chart);

    struct Look {
        QColor text;       // band shades and label text
        QColor labelBack;  // behind the labels
        QColor span;
        QColor marker;
        QColor burst;  // the admitted burst's box (the palette's highlight)
        QFont font;
        bool dark = false;
    };
    // An overlay label's height in `font`: what TimelineLabelRows needs.
    static double labelHeight(const QFont& font);

    // Places everything for the plot area `plot` (`toPixelX` maps run seconds to x in the
    // chart): the bands, spans and markers, and the admitted burst, a box over the busiest
    // interval with its label ("20 accepted in 1000 ms here"; none hides it). Returns the rows
    // its labels took, in this order: the counts, the spans, the burst's label, the markers'.
    TimelineLabelRows layout(const QRectF& plot, const std::function<double(double)>& toPixelX,
                             double viewMin, double viewMax,
                             const QVector<TimelineModel::Band>& bands,
                             const QVector<TimelineModel::Span>& spans,
                             const QVector<TimelineModel::Marker>& markers,
                             const std::optional<TimelineModel::Burst>& burst, const Look& look);

    // A span the chart is asked to point at (a lesson's beat): a box over [x0, x1) as the
    // admitted burst's, its label at the plot's foot; none hides it.
    void layoutHighlight(const QRectF& plot, const std::function<double(double)>& toPixelX,
                         const std::optional<TimelineModel::Burst>& highlight, const Look& look);

private:
    // A marked interval's box and label, made on first use. The box's tint lies under the
    // series (the opaque accepted and rejected fills keep their colours, and so their contrast,
    // inside it); its outline and label over them.
    struct Mark {
        QGraphicsRectItem* tint = nullptr;
        QGraphicsRectItem* box = nullptr;
        OverlayLabel* label = nullptr;
    };
    // `labelY` gives the label's top for its box at the top of the plot.
    void layoutMark(Mark& mark, const QRectF& plot, const std::function<double(double)>& toPixelX,
                    const std::optional<TimelineModel::Burst>& span, const Look& look,
                    const std::function<double(const QRectF&)>& labelY);
    void layoutBands(const QRectF& plot, const std::function<double(double)>& toPixelX,
                     const QVector<TimelineModel::Band>& bands, TimelineLabelRows& rows,
                     const Look& look);
    void layoutSpans(const QRectF& plot, const std::function<double(double)>& toPixelX,
                     const QVector<TimelineModel::Span>& spans, TimelineLabelRows& rows,
                     const Look& look);
    void layoutMarkers(const QRectF& plot, const std::function<double(double)>& toPixelX,
                       double viewMin, double viewMax,
                       const QVector<TimelineModel::Marker>& markers, TimelineLabelRows& rows,
                       const Look& look);
    QGraphicsRectItem* rectAt(QVector<QGraphicsRectItem*>& pool, int i);
    OverlayLabel* labelAt(QVector<OverlayLabel*>& pool, int i);

    // Clip containers holding the overlays, each the size of the plot area.
    QGraphicsRectItem* under_ = nullptr;
    QGraphicsRectItem* over_ = nullptr;
    // Item pools (owned by the chart through under_/over_).
    QGraphicsPathItem* bandShades_[2] = {};  // the even and the odd calendar windows
    QVector<QGraphicsRectItem*> spanRects_;
    QVector<QGraphicsLineItem*> markerLines_;
    QVector<OverlayLabel*> bandLabels_;
    QVector<OverlayLabel*> spanLabels_;
    QVector<OverlayLabel*> markerLabels_;
    Mark burst_;
    Mark highlight_;
};

}  // namespace ratelab
