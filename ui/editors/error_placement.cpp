#include "editors/error_placement.h"

#include <QFormLayout>
#include <QWidget>

namespace ratelab {
namespace {

// The row of a QFormLayout that holds `widget` itself.
bool rowOfWidget(QWidget* widget, QFormLayout** form, int* row) {
    QWidget* holder = widget->parentWidget();
    auto* layout = holder ? qobject_cast<QFormLayout*>(holder->layout()) : nullptr;
    if (!layout)
        return false;
    QFormLayout::ItemRole role;
    layout->getWidgetPosition(widget, row, &role);
    *form = layout;
    return *row >= 0;
}

// The form row holding `field`: its own, or that of the row widget around it.
bool findRow(QWidget* field, QFormLayout** form, int* row) {
    for (QWidget* widget = field; widget; widget = widget->parentWidget()) {
        if (rowOfWidget(widget, form, row))
            return true;
    }
    return false;
}

}  // namespace

void placeErrorUnder(QWidget* error, QWidget* field, int labelWidth) {
    QFormLayout* form = nullptr;
    int row = -1;
    if (rowOfWidget(error, &form, &row)) {
        int fieldRow = -1;
        QFormLayout* fieldForm = nullptr;
        if (findRow(field, &fieldForm, &fieldRow) && fieldForm == form && fieldRow == row - 1)
            return;  // already there
        const QFormLayout::TakeRowResult taken = form->takeRow(row);
        delete taken.labelItem;  // the layout items, not the label
        delete taken.fieldItem;
    }
    if (findRow(field, &form, &row)) {
        error->setContentsMargins(labelWidth + form->horizontalSpacing(), 0, 0, 0);
        form->insertRow(row + 1, error);
    }
}

}  // namespace ratelab
