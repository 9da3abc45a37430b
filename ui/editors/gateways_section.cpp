#include "editors/gateways_section.h"

#include <QComboBox>
#include <QFormLayout>
#include <QJsonArray>
#include <QLineEdit>
#include <QSpinBox>
#include <QStringList>

#include "input_limits.h"

namespace ratelab {
namespace {

const QLatin1String kGateways("gateways"), kCount("count"), kBalance("balance"),
    kClockSkewMs("clock_skew_ms");

}  // namespace

GatewaysSection::GatewaysSection(QWidget* parent) : TrafficSection(tr("Gateways"), parent) {
    count_ = new QSpinBox(this);
    count_->setObjectName(QStringLiteral("gatewayCount"));
    count_->setRange(1, scenario_limits::kMaxGateways);
    connect(count_, &QSpinBox::valueChanged, this, &TrafficSection::edited);
    balance_ = new QComboBox(this);
    balance_->setObjectName(QStringLiteral("balance"));
    traffic_form::letNarrow(balance_);
    balance_->addItem(tr("round robin"), QStringLiteral("round_robin"));
    balance_->addItem(tr("sticky (by client)"), QStringLiteral("sticky"));
    connect(balance_, &QComboBox::currentIndexChanged, this, &TrafficSection::edited);
    skews_ = lineEdit(QStringLiteral("gatewaySkews"), tr("ms per gateway, e.g. 0, 40, -30"), this);
    form_->addRow(tr("Count"), count_);
    form_->addRow(tr("Balance"), balance_);
    form_->addRow(tr("Clock skews (ms)"), skews_);
}

void GatewaysSection::writeJson(QJsonObject& traffic) const {
    const QString skewText = skews_->text().trimmed();
    if (count_->value() == 1 && skewText.isEmpty())
        return;  // the default: one gateway, on the run's clock
    QJsonObject gateways{{kCount, count_->value()}, {kBalance, balance_->currentData().toString()}};
    if (!skewText.isEmpty()) {
        QJsonArray skews;
        for (const QString& part : skewText.split(QLatin1Char(',')))
            skews.append(traffic_form::numberValue(part));
        gateways.insert(kClockSkewMs, skews);
    }
    traffic.insert(kGateways, gateways);
}

void GatewaysSection::load(const GatewaysSpec& gateways) {
    count_->setValue(gateways.count);
    balance_->setCurrentIndex(gateways.balance == GatewaysSpec::Balance::Sticky ? 1 : 0);
    QStringList skews;
    for (const qint64 skew : gateways.clockSkewMs)
        skews << QString::number(skew);
    skews_->setText(skews.join(QLatin1String(", ")));
}

void GatewaysSection::updateEnabled() {
    // One gateway takes every request, whatever the balance.
    balance_->setEnabled(count_->value() > 1);
}

QWidget* GatewaysSection::fieldFor(const QString& where) const {
    return matchField(where, {
                                 {"$.traffic.gateways.count", count_},
                                 {"$.traffic.gateways.balance", balance_},
                                 {"$.traffic.gateways.clock_skew_ms", skews_},
                                 {"$.traffic.gateways", count_},
                             });
}

}  // namespace ratelab
