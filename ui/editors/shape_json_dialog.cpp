#include "editors/shape_json_dialog.h"

#include <QDialogButtonBox>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

#include "style/inline_error.h"

namespace ratelab {

ShapeJsonDialog::ShapeJsonDialog(const QString& group, const QJsonObject& shape, QWidget* parent)
    : QDialog(parent), shape_(shape) {
    setObjectName(QStringLiteral("shapeJsonDialog"));
    setWindowTitle(tr("Shape of group %1").arg(group));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("The group's shape as in the scenario file, e.g. "
                                "{\"type\": \"step\", \"stages\": [{\"rate\": 5, "
                                "\"duration_s\": 10}]}"),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    text_ = new QPlainTextEdit(this);
    text_->setObjectName(QStringLiteral("shapeJson"));
    text_->setTabChangesFocus(true);
    text_->setPlainText(
        QString::fromUtf8(QJsonDocument(shape).toJson(QJsonDocument::Indented)).trimmed());
    layout->addWidget(text_, 1);
    error_ = new InlineError(this);
    error_->setObjectName(QStringLiteral("shapeJsonError"));
    layout->addWidget(error_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    const QFontMetrics metrics(text_->font());
    resize(metrics.horizontalAdvance(QLatin1Char('x')) * 50, metrics.lineSpacing() * 16);
}

QJsonObject ShapeJsonDialog::shape() const {
    return shape_;
}

void ShapeJsonDialog::accept() {
    QJsonParseError parseError;
    const QJsonDocument document =
        QJsonDocument::fromJson(text_->toPlainText().toUtf8(), &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        error_->showMessage(tr("Not JSON: %1 at character %2")
                                .arg(parseError.errorString())
                                .arg(parseError.offset + 1));
        return;
    }
    if (!document.isObject()) {
        error_->showMessage(tr("Expected one JSON object, {\"type\": ...}"));
        return;
    }
    shape_ = document.object();
    error_->showMessage(QString());
    QDialog::accept();
}

}  // namespace ratelab
