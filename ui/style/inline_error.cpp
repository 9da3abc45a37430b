#include "style/inline_error.h"

#include <QEvent>

#include "style/palette_colors.h"

namespace ratelab {
namespace {

// The roles a label, line edit, combo box or table draws its text with.
constexpr QPalette::ColorRole kTextRoles[] = {QPalette::WindowText, QPalette::Text,
                                              QPalette::ButtonText};

// Paints the text roles on top of the roles set on the widget itself; every other role stays
// inherited, so the base colour the red is derived from still follows the parent.
void paintText(QWidget* widget, const QColor& color) {
    QPalette palette = widget->palette();
    bool changed = false;
    for (const QPalette::ColorRole role : kTextRoles) {
        if (palette.color(role) != color) {
            palette.setColor(role, color);
            changed = true;
        }
    }
    if (changed)
        widget->setPalette(palette);
}

}  // namespace

InlineError::InlineError(QWidget* parent) : QLabel(parent) {
    setTextFormat(Qt::PlainText);  // messages may quote names holding '<'
    setWordWrap(true);
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    applyColor();
    hide();
}

void InlineError::showMessage(const QString& message) {
    setText(message);
    setVisible(!message.isEmpty());
}

QColor InlineError::color() const {
    return palette().color(QPalette::WindowText);
}

void InlineError::markInvalid(QWidget* field, bool invalid) {
    markInvalid(field, invalid, field->palette());
}

void InlineError::markInvalid(QWidget* field, bool invalid, const QPalette& palette) {
    const bool was = field->property("invalid").toBool();
    if (invalid) {
        field->setProperty("invalid", true);
        paintText(field, style::errorColor(palette));  // again after a palette change
    } else if (was) {
        field->setProperty("invalid", false);
        field->setPalette(QPalette());  // back to the inherited palette
    }
}

void InlineError::changeEvent(QEvent* event) {
    // A new theme: the red must stay readable on the new base colour. Painting the text roles
    // sends one more PaletteChange, which then finds nothing to change.
    if (event->type() == QEvent::PaletteChange)
        applyColor();
    QLabel::changeEvent(event);
}

void InlineError::applyColor() {
    paintText(this, style::errorColor(palette()));
}

}  // namespace ratelab
