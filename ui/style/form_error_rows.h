#pragma once

#include <QString>
#include <QVector>

QT_BEGIN_NAMESPACE
class QFormLayout;
class QPalette;
class QWidget;
QT_END_NAMESPACE

namespace ratelab {

class InlineError;

// The error rows of a form: each field the parser can name (by JSON path) has a hidden
// InlineError row right under it. Showing a problem shows that row, marks its field invalid
// (InlineError::markInvalid) and hides and unmarks every other row. The label showing the error
// is named "error" (so tests and screenshots find it), the others "<name>Error".
class FormErrorRows {
public:
    // Adds the row for errors at `path` about `field` (may be null: no field to mark).
    void add(QFormLayout* form, QWidget* parent, const QString& path, QWidget* field,
             const QString& name);
    // Shows `message` in the row of `path` (no row has an empty path); true if a row has it.
    bool show(const QString& path, const QString& message);
    // Paints the marked field again for the owner's new `palette`.
    void repaint(const QPalette& palette);

private:
    struct Row {
        QString path;
        QString name;
        QWidget* field = nullptr;
        InlineError* label = nullptr;
        QFormLayout* form = nullptr;
    };
    QVector<Row> rows_;
};

}  // namespace ratelab
