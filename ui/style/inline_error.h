#pragma once

#include <QLabel>

namespace ratelab {

// The one way ratelab shows an error inline (the window's banner, the editors' field errors):
// a selectable, word-wrapped plain-text label in the palette's error colour (style::errorColor),
// hidden while it has no text. The colour follows palette changes.
class InlineError : public QLabel {
    Q_OBJECT

public:
    explicit InlineError(QWidget* parent = nullptr);

    // Shows `message`, or hides the label when it is empty.
    void showMessage(const QString& message);
    QColor color() const;  // the error colour in use now

    // The same colour on a field the error is about (its text roles), and the "invalid"
    // property tests look for; `invalid` false restores the inherited look. The colour is
    // derived from `palette` (a parent's new palette during its PaletteChange, which reaches the
    // parent before its children), else from the field's.
    static void markInvalid(QWidget* field, bool invalid);
    static void markInvalid(QWidget* field, bool invalid, const QPalette& palette);

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyColor();
};

}  // namespace ratelab
