#include "algorithms/template_lines.h"

#include <QFontDatabase>
#include <QJsonDocument>
#include <QSignalBlocker>

namespace ratelab {

TemplateLines::TemplateLines(const QString& objectName, const QString& toolTip, int lines,
                             QWidget* parent)
    : QPlainTextEdit(parent) {
    setObjectName(objectName);
    setToolTip(toolTip);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabChangesFocus(true);  // Tab leaves the field, as in every other field of the form
    // `lines` tall: a scroll area's own least height is taller than two lines.
    setFixedHeight(fontMetrics().lineSpacing() * lines + 2 * frameWidth() +
                   int(2 * document()->documentMargin()) + 2);
    connect(this, &QPlainTextEdit::textChanged, this, &TemplateLines::edited);
}

QJsonArray TemplateLines::templates() const {
    QStringList lines = toPlainText().split(QLatin1Char('\n'));
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();  // the newline after the last line, or no text at all
    QJsonArray out;
    for (const QString& line : lines)
        out.append(line);
    return out;
}

void TemplateLines::setTemplates(const QJsonArray& templates) {
    QStringList lines;
    for (const QJsonValue& value : templates) {
        lines << (value.isString()
                      ? value.toString()
                      : QString::fromUtf8(
                            QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact))
                            .mid(1)
                            .chopped(1));
    }
    QString text = lines.join(QLatin1Char('\n'));
    if (lines.size() == 1 && lines.first().isEmpty())
        text = QStringLiteral("\n");  // one empty template
    const QSignalBlocker blocker(this);
    if (toPlainText() != text)
        setPlainText(text);
}

void TemplateLines::focusOutEvent(QFocusEvent* event) {
    QPlainTextEdit::focusOutEvent(event);
    emit committed();
}

}  // namespace ratelab
