#include "charts/overlay_label.h"

#include <QBrush>
#include <QFont>
#include <QGraphicsSimpleTextItem>
#include <QPen>

namespace ratelab {

OverlayLabel::OverlayLabel(QGraphicsItem* parent)
    : QGraphicsRectItem(parent), text_(new QGraphicsSimpleTextItem(this)) {
    setPen(Qt::NoPen);
    text_->setPos(3, 1);
    // The text is laid out again on every paint otherwise; the cache keeps it as pixels until
    // the text changes (moving the label does not count).
    text_->setCacheMode(QGraphicsItem::DeviceCoordinateCache);
}

QSizeF OverlayLabel::set(const QString& content, const QFont& font, const QColor& color,
                         const QColor& back) {
    // Qt's setters repaint even when nothing changed: set only what did (labels are set again
    // on every redraw).
    if (text_->font() != font)
        text_->setFont(font);
    if (text_->text() != content)
        text_->setText(content);
    if (text_->brush().color() != color)
        text_->setBrush(color);
    if (brush().color() != back)
        setBrush(back);
    const QSizeF size = text_->boundingRect().size() + QSizeF(6, 2);
    setRect(QRectF(QPointF(0, 0), size));
    return size;
}

void OverlayLabel::showAt(const QPointF& topLeft) {
    setPos(topLeft);
    setVisible(true);
}

}  // namespace ratelab
