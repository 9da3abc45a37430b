#pragma once

#include <QGraphicsRectItem>

QT_BEGIN_NAMESPACE
class QGraphicsSimpleTextItem;
QT_END_NAMESPACE

namespace ratelab {

// A chart label: a text on a translucent background, so it stays readable over the series
// (the item class Qt's chart examples use for callouts). Owned by its parent item.
class OverlayLabel : public QGraphicsRectItem {
public:
    explicit OverlayLabel(QGraphicsItem* parent);

    // Sets the text and colours and returns the label's size.
    QSizeF set(const QString& content, const QFont& font, const QColor& color, const QColor& back);
    void showAt(const QPointF& topLeft);

private:
    QGraphicsSimpleTextItem* text_ = nullptr;
};

}  // namespace ratelab
