#include "charts/timeline_overlay.h"

#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLineItem>
#include <QGraphicsPathItem>
#include <QGraphicsRectItem>
#include <QPainterPath>
#include <QPen>
#include <algorithm>
#include <cmath>

#include "charts/overlay_label.h"
#include "style/palette_colors.h"
#include "style/series_style.h"

namespace ratelab {
namespace {

// Stacking among the chart's own items (see the class comment).
constexpr qreal kUnderZ = 0.5;
constexpr qreal kOverZ = 20;

QGraphicsRectItem* clipBox(QChart* chart, qreal z) {
    auto* box = new QGraphicsRectItem(chart);  // owned by the chart
    box->setPen(Qt::NoPen);
    box->setBrush(Qt::NoBrush);
    box->setFlag(QGraphicsItem::ItemClipsChildrenToShape);
    box->setZValue(z);
    return box;
}

// Qt's setBrush repaints even when the brush is the same.
void setBrushIfChanged(QGraphicsRectItem* item, const QColor& color) {
    if (item->brush().color() != color || item->brush().style() != Qt::SolidPattern)
        item->setBrush(color);
}

template <typename T>
void hideFrom(const QVector<T*>& pool, int first) {
    for (int i = first; i < pool.size(); ++i)
        pool[i]->hide();
}

}  // namespace

TimelineOverlay::TimelineOverlay(QChart* chart)
    : under_(clipBox(chart, kUnderZ)), over_(clipBox(chart, kOverZ)) {
    for (QGraphicsPathItem*& shade : bandShades_) {
        shade = new QGraphicsPathItem(under_);
        shade->setPen(Qt::NoPen);
    }
}

QGraphicsRectItem* TimelineOverlay::rectAt(QVector<QGraphicsRectItem*>& pool, int i) {
    while (pool.size() <= i) {
        auto* rect = new QGraphicsRectItem(under_);
        rect->setPen(Qt::NoPen);
        pool.append(rect);
    }
    return pool[i];
}

OverlayLabel* TimelineOverlay::labelAt(QVector<OverlayLabel*>& pool, int i) {
    while (pool.size() <= i)
        pool.append(new OverlayLabel(over_));
    return pool[i];
}

double TimelineOverlay::labelHeight(const QFont& font) {
    return std::ceil(QFontMetricsF(font).height()) + 2;  // as OverlayLabel pads its text
}

TimelineLabelRows TimelineOverlay::layout(
    const QRectF& plot, const std::function<double(double)>& toPixelX, double viewMin,
    double viewMax, const QVector<TimelineModel::Band>& bands,
    const QVector<TimelineModel::Span>& spans, const QVector<TimelineModel::Marker>& markers,
    const std::optional<TimelineModel::Burst>& burst, const Look& look) {
    under_->setRect(plot);
    over_->setRect(plot);
    TimelineLabelRows rows(plot, labelHeight(look.font));
    layoutBands(plot, toPixelX, bands, rows, look);
    layoutSpans(plot, toPixelX, spans, rows, look);
    layoutMark(burst_, plot, toPixelX, burst, look, [&rows](const QRectF& box) {
        return rows.top(rows.place(box.left(), box.right()));
    });
    layoutMarkers(plot, toPixelX, viewMin, viewMax, markers, rows, look);
    return rows;
}

// Fixed-window bands with their counts. All labels take one form: "7/10" when every band in
// view holds its label, else the count alone ("7"). A label wider even then than its band (a
// window the view shows a sliver of, a narrow window in a long run) is still shown, centred on
// its band and kept in the plot, where it covers no other band's label: the newest first, so
// that the window a step just filled shows its count.
void TimelineOverlay::layoutBands(const QRectF& plot, const std::function<double(double)>& toPixelX,
                                  const QVector<TimelineModel::Band>& bands,
                                  TimelineLabelRows& rows, const Look& look) {
    const double top = rows.top(0);
    QVector<QRectF> rects(bands.size());
    bool longFits = true;
    const QFontMetricsF metrics(look.font);
    for (int i = 0; i < bands.size(); ++i) {
        rects[i] = QRectF(QPointF(toPixelX(bands[i].x0), plot.top()),
                          QPointF(toPixelX(bands[i].x1), plot.bottom()));
        // Bands cut by the plot's edges do not decide: they show what fits of them.
        const bool whole = rects[i].left() >= plot.left() && rects[i].right() <= plot.right();
        if (whole && !bands[i].label.isEmpty() &&
            metrics.horizontalAdvance(bands[i].label) + 6 + 2 >  // the label pads 3 a side
                rects[i].width())
            longFits = false;
    }
    // One path per shade: a single fill each, however many windows are in view (each tall
    // rectangle filled on its own cost the painter a hand-off to Qt's fill threads).
    QPainterPath shades[2];
    QVector<std::optional<QRectF>> where(bands.size());  // each label's place, none: hidden
    QVector<QRectF> placed;                              // the places taken
    QVector<int> wide;  // the bands whose label is wider than what is in view of them
    for (int i = 0; i < bands.size(); ++i) {
        const TimelineModel::Band& band = bands[i];
        const QRectF& rect = rects[i];
        shades[band.odd ? 1 : 0].addRect(rect);
        // The label is centred in the visible part of the band.
        OverlayLabel* label = labelAt(bandLabels_, i);
        const QRectF inView = rect.intersected(plot);
        const QString text = longFits ? band.label : band.label.section(QLatin1Char('/'), 0, 0);
        const QSizeF size = label->set(text, look.font, look.text, look.labelBack);
        if (text.isEmpty() || inView.width() <= 0)
            continue;
        if (size.width() + 2 > inView.width()) {
            wide.append(i);
            continue;
        }
        where[i] = QRectF(QPointF(inView.center().x() - size.width() / 2, top), size);
        placed.append(*where[i]);
    }
    for (auto i = wide.crbegin(); i != wide.crend(); ++i) {
        const QSizeF size = bandLabels_[*i]->rect().size();
        const double centre = rects[*i].intersected(plot).center().x();
        const double x = std::clamp(centre - size.width() / 2, plot.left() + 2,
                                    std::max(plot.left() + 2, plot.right() - size.width() - 2));
        const QRectF box(QPointF(x, top), size);
        const bool covers = std::any_of(placed.cbegin(), placed.cend(), [&box](const QRectF& r) {
            return r.adjusted(-2, 0, 2, 0).intersects(box);
        });
        if (!covers) {
            where[*i] = box;
            placed.append(box);
        }
    }
    for (int i = 0; i < bands.size(); ++i) {
        if (where[i]) {
            bandLabels_[i]->showAt(where[i]->topLeft());
            rows.take(0, where[i]->left(), where[i]->right());
        } else {
            bandLabels_[i]->hide();
        }
    }
    for (int odd = 0; odd < 2; ++odd) {
        QGraphicsPathItem* item = bandShades_[odd];
        if (item->path() != shades[odd])
            item->setPath(shades[odd]);
        const int alpha = odd ? (look.dark ? 40 : 28) : (look.dark ? 16 : 10);
        const QColor color = style::withAlpha(look.text, alpha);
        if (item->brush().color() != color)
            item->setBrush(color);
    }
    hideFrom(bandLabels_, bands.size());
}

// Sliding-window spans: nested translucent bands ending at the state's now, their labels
// stacked in the top rows, left of now.
void TimelineOverlay::layoutSpans(const QRectF& plot, const std::function<double(double)>& toPixelX,
                                  const QVector<TimelineModel::Span>& spans,
                                  TimelineLabelRows& rows, const Look& look) {
    for (int i = 0; i < spans.size(); ++i) {
        const TimelineModel::Span& span = spans[i];
        const double right = toPixelX(span.x1);
        QGraphicsRectItem* item = rectAt(spanRects_, i);
        item->setRect(
            QRectF(QPointF(toPixelX(span.x0), plot.top()), QPointF(right, plot.bottom())));
        setBrushIfChanged(item, style::withAlpha(look.span, look.dark ? 50 : 32));
        item->setVisible(true);
        OverlayLabel* label = labelAt(spanLabels_, i);
        const QSizeF size = label->set(span.label, look.font, look.text, look.labelBack);
        const double x =
            std::max(plot.left() + 2, std::min(right, plot.right()) - size.width() - 4);
        label->showAt(QPointF(x, rows.top(rows.place(x, x + size.width()))));
    }
    hideFrom(spanRects_, spans.size());
    hideFrom(spanLabels_, spans.size());
}

// Markers in view: dashed vertical lines, labels in the rows above the bars, each in the first
// row where it covers no label placed before it (else they take turns). A label goes
// right of its line, else left of it, else where it fits in the plot; one wider than the plot
// (steps merged into one marker) is cut in the middle, so that its first and its newest part
// show (the tooltip has it whole).
void TimelineOverlay::layoutMarkers(const QRectF& plot,
                                    const std::function<double(double)>& toPixelX, double viewMin,
                                    double viewMax, const QVector<TimelineModel::Marker>& markers,
                                    TimelineLabelRows& rows, const Look& look) {
    const QPen pen = style::seriesPen(look.marker, 1.5, Qt::DashLine);
    // The marker's colour, darkened (lightened on dark) where the label's text needs it to read.
    QColor back = look.labelBack;
    back.setAlpha(255);
    const QColor text = style::readableOn(look.marker, back);
    const QFontMetricsF metrics(look.font);
    int drawn = 0;
    for (const TimelineModel::Marker& marker : markers) {
        if (marker.x < viewMin || marker.x > viewMax)
            continue;
        const double x = toPixelX(marker.x);
        while (markerLines_.size() <= drawn)
            markerLines_.append(new QGraphicsLineItem(over_));
        QGraphicsLineItem* line = markerLines_[drawn];
        if (line->pen() != pen)
            line->setPen(pen);
        line->setLine(QLineF(x, plot.top(), x, plot.bottom()));
        line->setVisible(true);
        OverlayLabel* label = labelAt(markerLabels_, drawn);
        const QString shown =
            metrics.elidedText(marker.label, Qt::ElideMiddle, std::max(0.0, plot.width() - 12));
        const QSizeF size = label->set(shown, look.font, text, look.labelBack);
        double left = x + 2;
        if (left + size.width() > plot.right())
            left = x - size.width() - 2;
        if (left < plot.left())
            left = std::max(plot.left() + 2, plot.right() - size.width() - 2);
        const int limit = std::max(rows.maxRows(), rows.rowsUsed());
        const int row = rows.place(left, left + size.width(), limit, drawn % limit);
        label->showAt(QPointF(left, rows.top(row)));
        ++drawn;
    }
    hideFrom(markerLines_, drawn);
    hideFrom(markerLabels_, drawn);
}

void TimelineOverlay::layoutHighlight(const QRectF& plot,
                                      const std::function<double(double)>& toPixelX,
                                      const std::optional<TimelineModel::Burst>& highlight,
                                      const Look& look) {
    // Its label at the plot's foot, clear of the rows of labels at the top.
    layoutMark(highlight_, plot, toPixelX, highlight, look,
               [&](const QRectF& box) { return plot.bottom() - box.height() - 3; });
}

void TimelineOverlay::layoutMark(Mark& mark, const QRectF& plot,
                                 const std::function<double(double)>& toPixelX,
                                 const std::optional<TimelineModel::Burst>& span, const Look& look,
                                 const std::function<double(const QRectF&)>& labelY) {
    if (!span) {
        if (mark.box) {
            mark.tint->hide();
            mark.box->hide();
            mark.label->hide();
        }
        return;
    }
    if (!mark.box) {
        mark.tint = new QGraphicsRectItem(under_);
        mark.tint->setPen(Qt::NoPen);
        mark.box = new QGraphicsRectItem(over_);
        mark.label = new OverlayLabel(over_);
        mark.label->setZValue(1);  // over the box
    }
    // At least 3 pixels wide, so that a short interval in a long run is still seen.
    double left = toPixelX(span->x0);
    double right = toPixelX(span->x1);
    if (right - left < 3) {
        const double middle = (left + right) / 2;
        left = middle - 1.5;
        right = middle + 1.5;
    }
    const QRectF box(QPointF(left, plot.top()), QPointF(right, plot.bottom()));
    if (mark.box->rect() != box) {
        mark.box->setRect(box);
        mark.tint->setRect(box);
    }
    const QPen pen = style::seriesPen(look.burst, 1.5);
    if (mark.box->pen() != pen)
        mark.box->setPen(pen);
    setBrushIfChanged(mark.tint, style::withAlpha(look.burst, look.dark ? 60 : 45));
    mark.tint->setVisible(box.intersects(plot));
    mark.box->setVisible(box.intersects(plot));
    const QSizeF size = mark.label->set(span->label, look.font, look.text, look.labelBack);
    if (!box.intersects(plot) || span->label.isEmpty()) {
        mark.label->hide();  // and takes no row
        return;
    }
    const double x = std::clamp(box.center().x() - size.width() / 2, plot.left() + 2,
                                std::max(plot.left() + 2, plot.right() - size.width() - 2));
    mark.label->showAt(QPointF(x, labelY(QRectF(QPointF(x, plot.top()), size))));
}

}  // namespace ratelab
