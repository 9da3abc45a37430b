#include "algorithms/limiter_page.h"

#include <QFormLayout>
#include <QLineEdit>
#include <QLocale>
#include <cmath>

#include "algorithms/flavor_box.h"

namespace ratelab {

QJsonValue numberOrText(const QString& text) {
    bool ok = false;
    const double number = text.toDouble(&ok);
    return ok ? QJsonValue(number) : QJsonValue(text);
}

QString textOf(const QJsonValue& value) {
    if (!value.isDouble())
        return value.toString();
    const double number = value.toDouble();
    if (number == std::trunc(number) && std::fabs(number) < 9007199254740992.0)
        return QString::number(static_cast<qint64>(number));
    return QString::number(number, 'g', QLocale::FloatingPointShortest);
}

LimiterPage::LimiterPage(QWidget* parent) : QWidget(parent), form_(new QFormLayout(this)) {
    form_->setContentsMargins(0, 0, 0, 0);
    form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
}

bool LimiterPage::showProblem(const QString& where, const QString& message) {
    return errors_.show(where, message);
}

void LimiterPage::repaintProblem(const QPalette& palette) {
    errors_.repaint(palette);
}

QLineEdit* LimiterPage::addLineEdit(const QString& objectName, const QString& toolTip) {
    auto* edit = new QLineEdit(this);
    edit->setObjectName(objectName);
    edit->setToolTip(toolTip);
    connect(edit, &QLineEdit::textChanged, this, &LimiterPage::edited);
    connect(edit, &QLineEdit::editingFinished, this, &LimiterPage::committed);
    return edit;
}

FlavorBox* LimiterPage::addFlavorBox(const std::vector<Flavor>& flavors) {
    if (flavors.empty()) {
        return nullptr;
    }
    auto* box = new FlavorBox(flavors, this);
    connect(box, &QComboBox::currentIndexChanged, this, &LimiterPage::edited);
    connect(box, &QComboBox::currentIndexChanged, this, &LimiterPage::committed);  // a choice
    form_->addRow(tr("&Flavor"), box);
    errors_.add(form_, this, QStringLiteral("$.flavor"), box, QStringLiteral("flavor"));
    return box;
}

}  // namespace ratelab
