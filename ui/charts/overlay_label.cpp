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
}

QSizeF OverlayLabel::set(const QString& content, const QFont& font, const QColor& color,
                         const QColor& back) {
    if (text_->font() != font)
        text_->setFont(font);  // no check inside: it would lay the text out again
    text_->setText(content);
    text_->setBrush(color);
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
