#include "style/form_error_rows.h"

#include <QFormLayout>
#include <QLabel>

#include "style/inline_error.h"

namespace ratelab {

void FormErrorRows::add(QFormLayout* form, QWidget* parent, const QString& path, QWidget* field,
                        const QString& name) {
    auto* label = new InlineError(parent);
    label->setObjectName(name + QStringLiteral("Error"));
    // An (empty) label widget: without one QFormLayout wraps the text for a wrong width.
    form->addRow(new QLabel(parent), label);
    form->setRowVisible(label, false);  // a hidden row takes no space, a hidden widget would
    rows_.append({path, name, field, label, form});
}

bool FormErrorRows::show(const QString& path, const QString& message) {
    bool shown = false;
    for (const Row& row : rows_) {
        const bool active = !path.isEmpty() && row.path == path && !shown;
        shown = shown || active;
        row.label->setObjectName(active ? QStringLiteral("error")
                                        : row.name + QStringLiteral("Error"));
        row.label->setText(active ? message : QString());
        row.form->setRowVisible(row.label, active);
        if (row.field)
            InlineError::markInvalid(row.field, active);
    }
    return shown;
}

void FormErrorRows::repaint(const QPalette& palette) {
    for (const Row& row : rows_) {
        if (row.field && row.field->property("invalid").toBool())
            InlineError::markInvalid(row.field, true, palette);
    }
}

}  // namespace ratelab
