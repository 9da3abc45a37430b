#include "editors/traffic_section.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <cmath>

namespace ratelab {

TrafficSection::TrafficSection(const QString& title, QWidget* parent)
    : QGroupBox(title, parent), form_(traffic_form::formLayout(this)) {}

QList<QFormLayout*> TrafficSection::forms() const {
    return {form_};
}

QLineEdit* TrafficSection::lineEdit(const QString& name, const QString& placeholder,
                                    QWidget* parent) {
    auto* edit = new QLineEdit(parent);
    edit->setObjectName(name);
    edit->setPlaceholderText(placeholder);
    connect(edit, &QLineEdit::textChanged, this, &TrafficSection::edited);
    return edit;
}

QWidget* TrafficSection::matchField(
    const QString& where, std::initializer_list<std::pair<const char*, QWidget*>> fields) {
    for (const auto& [prefix, field] : fields) {
        const QLatin1String path(prefix);
        if (where.startsWith(path) &&
            (where.size() == path.size() || where.at(path.size()) == u'.' ||
             where.at(path.size()) == u'[')) {
            return field;
        }
    }
    return nullptr;
}

namespace traffic_form {

QFormLayout* formLayout(QWidget* widget) {
    auto* layout = new QFormLayout(widget);
    layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    return layout;
}

void letNarrow(QComboBox* box) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(12);
}

QWidget* rowOf(QWidget* parent, std::initializer_list<QWidget*> widgets) {
    auto* row = new QWidget(parent);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    for (QWidget* widget : widgets) {
        widget->setParent(row);
        const bool fixed = qobject_cast<QAbstractButton*>(widget) || qobject_cast<QLabel*>(widget);
        layout->addWidget(widget, fixed ? 0 : 1);
    }
    return row;
}

QWidget* buttonRow(QWidget* parent, std::initializer_list<QWidget*> buttons) {
    auto* row = new QWidget(parent);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    for (QWidget* button : buttons)
        layout->addWidget(button);
    layout->addStretch(1);
    return row;
}

QString numberText(double value) {
    if (value == std::trunc(value) && std::fabs(value) < 9007199254740992.0)
        return QString::number(static_cast<qint64>(value));
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

QJsonValue numberValue(const QString& text) {
    bool ok = false;
    const double number = text.trimmed().toDouble(&ok);
    return ok ? QJsonValue(number) : QJsonValue(text.trimmed());
}

void insertRequired(QJsonObject& object, QLatin1String key, const QString& text) {
    if (!text.trimmed().isEmpty())
        object.insert(key, numberValue(text));
}

}  // namespace traffic_form
}  // namespace ratelab
