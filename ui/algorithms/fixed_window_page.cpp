#include "algorithms/fixed_window_page.h"

#include <QComboBox>
#include <QCompleter>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTimeZone>
#include <algorithm>

#include "limiters/limiter_spec.h"

namespace ratelab {
namespace {

constexpr CalendarUnit kUnits[] = {CalendarUnit::Milliseconds, CalendarUnit::Seconds,
                                   CalendarUnit::Minutes,      CalendarUnit::Hours,
                                   CalendarUnit::Days,         CalendarUnit::Months};

}  // namespace

FixedWindowPage::FixedWindowPage(QWidget* parent) : LimiterPage(parent) {
    interval_ = addLineEdit(QStringLiteral("interval"),
                            tr("Units per window, at most the units in the enclosing unit "
                               "(1000 ms, 60 s, 60 min, 24 h, 31 days, 12 months)"));
    unit_ = new QComboBox(this);
    unit_->setObjectName(QStringLiteral("unit"));
    for (const CalendarUnit unit : kUnits)
        unit_->addItem(calendarUnitName(unit), calendarUnitName(unit));
    unit_->setToolTip(tr("The calendar unit of the window; windows start at its boundaries"));
    connect(unit_, &QComboBox::currentIndexChanged, this, &LimiterPage::edited);
    connect(unit_, &QComboBox::currentIndexChanged, this, &LimiterPage::committed);
    auto* window = new QHBoxLayout;
    window->addWidget(interval_, 1);
    window->addWidget(unit_, 1);
    auto* windowLabel = new QLabel(tr("&Window"), this);
    windowLabel->setBuddy(interval_);
    form_->addRow(windowLabel, window);
    errors_.add(form_, this, QStringLiteral("$.interval"), interval_, QStringLiteral("interval"));
    errors_.add(form_, this, QStringLiteral("$.unit"), unit_, QStringLiteral("unit"));

    timezone_ = new QComboBox(this);
    timezone_->setObjectName(QStringLiteral("timezone"));
    timezone_->setToolTip(tr("IANA time zone of the calendar; empty = the system zone"));
    timezone_->setEditable(true);
    timezone_->setInsertPolicy(QComboBox::NoInsert);
    QStringList zones;
    for (const QByteArray& id : QTimeZone::availableTimeZoneIds())
        zones << QString::fromUtf8(id);
    timezone_->addItems(zones);
    timezone_->lineEdit()->setPlaceholderText(
        tr("system zone (%1)").arg(QString::fromUtf8(QTimeZone::systemTimeZoneId())));
    // "berlin" finds Europe/Berlin among some 600 ids.
    auto* completer = new QCompleter(timezone_->model(), timezone_);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    completer->setFilterMode(Qt::MatchContains);
    timezone_->setCompleter(completer);
    connect(timezone_, &QComboBox::editTextChanged, this, &LimiterPage::edited);
    connect(timezone_->lineEdit(), &QLineEdit::editingFinished, this, &LimiterPage::committed);
    connect(timezone_, &QComboBox::activated, this, &LimiterPage::committed);
    form_->addRow(tr("Time &zone"), timezone_);
    errors_.add(form_, this, QStringLiteral("$.timezone"), timezone_, QStringLiteral("timezone"));
}

void FixedWindowPage::writeJson(QJsonObject& json) const {
    json.insert(limiter_keys::kInterval, numberOrText(interval_->text()));
    json.insert(limiter_keys::kUnit, unit_->currentData().toString());
    if (!timezone_->currentText().isEmpty())  // empty = the system zone
        json.insert(limiter_keys::kTimezone, timezone_->currentText());
}

void FixedWindowPage::fill(const QJsonObject& values) {
    interval_->setText(textOf(values.value(limiter_keys::kInterval)));
    unit_->setCurrentIndex(
        std::max(0, unit_->findData(values.value(limiter_keys::kUnit).toString())));
    timezone_->setEditText(values.value(limiter_keys::kTimezone).toString());
}

}  // namespace ratelab
