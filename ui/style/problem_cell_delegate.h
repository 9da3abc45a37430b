#pragma once

#include <QStyledItemDelegate>

namespace ratelab {

// Draws a table's cells as usual, and a cell an error is about (kProblemRole true) framed in
// the palette's error colour: the tint under it is what a colour screen shows, the frame what a
// grayscale print keeps (style::errorColor is at least 4.5:1 against the base).
class ProblemCellDelegate : public QStyledItemDelegate {
    Q_OBJECT

public:
    static constexpr int kProblemRole = Qt::UserRole + 40;

    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
};

}  // namespace ratelab
