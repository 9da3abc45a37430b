#include "editors/acquire_section.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>

namespace ratelab {

AcquireSection::AcquireSection(QWidget* parent) : TrafficSection(tr("Acquire"), parent) {
    mode_ = new QComboBox(this);
    mode_->setObjectName(QStringLiteral("mode"));
    mode_->addItem(tr("try (tryAcquire)"), QStringLiteral("try"));
    mode_->addItem(tr("wait (acquire)"), QStringLiteral("wait"));
    connect(mode_, &QComboBox::currentIndexChanged, this, &TrafficSection::edited);
    timeout_ = lineEdit(QStringLiteral("timeout"), tr("ms"), this);
    form_->addRow(tr("Mode"), mode_);
    form_->addRow(tr("Timeout (ms)"), timeout_);
    timeout_->setText(QStringLiteral("1000"));
}

void AcquireSection::writeJson(QJsonObject& traffic) const {
    const QString mode = mode_->currentData().toString();
    traffic.insert(QLatin1String("mode"), mode);
    if (mode == QLatin1String("wait"))
        traffic_form::insertRequired(traffic, QLatin1String("timeout_ms"), timeout_->text());
}

void AcquireSection::load(const TrafficSpec& traffic) {
    const bool wait = traffic.mode == AcquireMode::Wait;
    mode_->setCurrentIndex(wait ? 1 : 0);
    if (wait)
        timeout_->setText(QString::number(traffic.timeoutMs));
}

void AcquireSection::updateEnabled() {
    timeout_->setEnabled(mode_->currentData().toString() == QLatin1String("wait"));
}

QWidget* AcquireSection::fieldFor(const QString& where) const {
    return matchField(where, {{"$.traffic.mode", mode_}, {"$.traffic.timeout_ms", timeout_}});
}

}  // namespace ratelab
