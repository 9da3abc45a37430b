#pragma once

#include <QJsonArray>
#include <QPlainTextEdit>

namespace ratelab {

// A list of a script limiter's templates (its keys, arguments or reset patterns), one per line
// as a person writes them: "a\nb" is ["a", "b"], a last newline ends a line rather than adding
// an empty one ("a\n" is ["a"]), an empty line inside is an empty template, one newline alone
// is one empty template and no text is none. A few lines tall, in a fixed-width font.
class TemplateLines : public QPlainTextEdit {
    Q_OBJECT

public:
    TemplateLines(const QString& objectName, const QString& toolTip, int lines,
                  QWidget* parent = nullptr);

    QJsonArray templates() const;
    // Shows `templates` (a non-string element as its JSON text) without announcing an edit.
    void setTemplates(const QJsonArray& templates);

signals:
    void edited();     // every keystroke
    void committed();  // focus left it: the edit may apply to a run

protected:
    void focusOutEvent(QFocusEvent* event) override;
};

}  // namespace ratelab
