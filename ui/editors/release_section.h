#pragma once

#include "editors/traffic_section.h"
#include "scenario/scenario.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
QT_END_NAMESPACE

namespace ratelab {

// When granted requests release what they hold (the concurrency limiter's slots): traffic
// "hold" (none, a constant or an exponential draw of a mean, in ms) and "leak_pct" (the share of
// grants that never release). Without a hold nothing releases, and the leak share is not
// written.
class ReleaseSection : public TrafficSection {
    Q_OBJECT

public:
    explicit ReleaseSection(QWidget* parent = nullptr);

    // "hold" and "leak_pct" as the scenario writer writes them (holdToJson).
    void writeJson(QJsonObject& traffic) const;
    void load(const TrafficSpec& traffic);
    void updateEnabled();
    QWidget* fieldFor(const QString& where) const override;

private:
    HoldSpec::Type holdType() const;

    QComboBox* holdType_ = nullptr;
    QSpinBox* holdMs_ = nullptr;
    QDoubleSpinBox* leakPct_ = nullptr;
    // The exact share: the box shows two decimals, and a loaded scenario's share must come back
    // unchanged (0.125 stays 0.125 until the box is edited).
    double leakExact_ = 0;
    bool loading_ = false;
};

}  // namespace ratelab
