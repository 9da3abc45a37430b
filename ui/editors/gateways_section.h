#pragma once

#include "editors/traffic_section.h"
#include "scenario/scenario.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QSpinBox;
QT_END_NAMESPACE

namespace ratelab {

// The gateways between the clients and Redis (traffic "gateways"): how many, how requests are
// spread over them (round robin or sticky by client), and each one's clock skew in ms, typed as
// a comma-separated list (one per gateway; empty: none).
class GatewaysSection : public TrafficSection {
    Q_OBJECT

public:
    explicit GatewaysSection(QWidget* parent = nullptr);

    // "gateways" as the scenario writer writes it (gatewaysToJson): left out for one gateway
    // without a skew.
    void writeJson(QJsonObject& traffic) const;
    void load(const GatewaysSpec& gateways);
    void updateEnabled();
    QWidget* fieldFor(const QString& where) const override;

private:
    QSpinBox* count_ = nullptr;
    QComboBox* balance_ = nullptr;
    QLineEdit* skews_ = nullptr;
};

}  // namespace ratelab
