#include "algorithms/script_reference_box.h"

#include <QComboBox>
#include <QEvent>
#include <QFontDatabase>
#include <QJsonDocument>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "algorithms/algorithm_view.h"
#include "json_input.h"
#include "limiters/limiter_spec.h"

namespace ratelab {
namespace {

const QLatin1String kType("type");

// The fields of a reference as the box edits them: everything but its type, on one line.
QString fieldsText(QJsonObject object) {
    object.remove(kType);
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

// A built-in type's defaults as a reference's fields (no name or scope: the script limiter's).
QString defaultFields(const Algorithm& algorithm) {
    QJsonObject object = limiterSpecToJson(algorithm.defaults(QStringLiteral("reference")));
    object.remove(QLatin1String("name"));
    object.remove(QLatin1String("scope"));
    return fieldsText(object);
}

}  // namespace

ScriptReferenceBox::ScriptReferenceBox(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    type_ = new QComboBox(this);
    type_->setObjectName(QStringLiteral("referenceType"));
    type_->setToolTip(
        tr("The built-in limiter your script claims to implement: every request is decided by "
           "it too, on its own keys, and each decision it makes otherwise is a disagreement"));
    type_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    type_->setMinimumContentsLength(16);
    type_->addItem(tr("None (no comparison)"), QString());
    for (const AlgorithmView* view : algorithmViews()) {
        if (view->type() != LimiterType::Script)
            type_->addItem(view->selectorLabel(), view->algorithm().name());
    }
    layout->addWidget(type_);
    fields_ = new QPlainTextEdit(this);
    fields_->setObjectName(QStringLiteral("referenceFields"));
    fields_->setToolTip(
        tr("The reference's fields as JSON, as in a scenario file, without type, name and "
           "scope (the script limiter's): {\"rules\": [{\"limit\": 10, \"window_ms\": 1000}]}"));
    fields_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    fields_->setTabChangesFocus(true);
    fields_->setFixedHeight(fields_->fontMetrics().lineSpacing() * 3 + 2 * fields_->frameWidth() +
                            8);
    fields_->installEventFilter(this);
    layout->addWidget(fields_);
    connect(type_, &QComboBox::currentIndexChanged, this, &ScriptReferenceBox::typeChosen);
    connect(fields_, &QPlainTextEdit::textChanged, this, &ScriptReferenceBox::edited);
}

void ScriptReferenceBox::typeChosen() {
    const QString name = type_->currentData().toString();
    fields_->setEnabled(!name.isEmpty());
    {
        const QSignalBlocker blocker(fields_);  // one edit: the choice
        const Algorithm* algorithm = algorithmNamed(name);
        fields_->setPlainText(algorithm ? defaultFields(*algorithm) : QString());
    }
    emit edited();
    emit committed();
}

void ScriptReferenceBox::writeJson(QJsonObject& json) const {
    const QString type = type_->currentData().toString();
    if (type.isEmpty())
        return;
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(fields_->toPlainText().toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        json.insert(QLatin1String("reference"), fields_->toPlainText());  // the parser refuses it
        return;
    }
    QJsonObject reference = document.object();
    reference.insert(kType, type);
    json.insert(QLatin1String("reference"), reference);
}

void ScriptReferenceBox::fill(const QJsonValue& reference) {
    const QSignalBlocker typeBlocker(type_);
    const QSignalBlocker fieldsBlocker(fields_);
    const QJsonObject object = reference.toObject();
    const int index = reference.isObject() ? type_->findData(object.value(kType).toString()) : 0;
    type_->setCurrentIndex(std::max(0, index));
    fields_->setEnabled(type_->currentIndex() > 0);
    fields_->setPlainText(reference.isObject() ? fieldsText(object) : QString());
}

QString ScriptReferenceBox::parseProblem() const {
    if (type_->currentData().toString().isEmpty())
        return QString();
    const QByteArray text = fields_->toPlainText().toUtf8();
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError)
        return tr("its fields are not JSON: %1 at %2")
            .arg(error.errorString(), json_input::lineColumn(text, error));
    if (!document.isObject())
        return tr("its fields must be a JSON object {\"…\": …}");
    return QString();
}

bool ScriptReferenceBox::eventFilter(QObject* watched, QEvent* event) {
    if (watched == fields_ && event->type() == QEvent::FocusOut)
        emit committed();
    return QWidget::eventFilter(watched, event);
}

}  // namespace ratelab
