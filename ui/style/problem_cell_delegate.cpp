#include "style/problem_cell_delegate.h"

#include <QPainter>

#include "style/palette_colors.h"

namespace ratelab {

void ProblemCellDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                const QModelIndex& index) const {
    QStyledItemDelegate::paint(painter, option, index);
    if (!index.data(kProblemRole).toBool())
        return;
    painter->save();
    QPen pen(style::errorColor(option.palette), 2);
    pen.setJoinStyle(Qt::MiterJoin);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    painter->drawRect(QRectF(option.rect).adjusted(2, 2, -2, -2));
    painter->restore();
}

}  // namespace ratelab
