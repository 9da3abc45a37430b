#pragma once

#include "editors/traffic_section.h"
#include "scenario/scenario.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;
QT_END_NAMESPACE

namespace ratelab {

// The clock: real, or virtual with a start time and a speed (a log-scale slider from 0.05x to
// the parser's maximum, or "as fast as possible"). The speed may change while a run goes.
class ClockSection : public TrafficSection {
    Q_OBJECT

public:
    static constexpr double kMinSliderSpeed = 0.05;
    static constexpr double kMaxSliderSpeed = scenario_limits::kMaxSpeed;

    explicit ClockSection(QWidget* parent = nullptr);

    // 0 for "as fast as possible".
    double speed() const;
    void writeJson(QJsonObject& traffic) const;
    void load(const ClockSpec& clock);
    void updateEnabled();
    QWidget* fieldFor(const QString& where) const override;

signals:
    void speedChanged(double speed);

private:
    bool isVirtual() const;
    void sliderMoved(int position);

    QComboBox* clock_ = nullptr;
    QLineEdit* start_ = nullptr;
    QSlider* speed_ = nullptr;
    QLabel* speedValue_ = nullptr;
    QCheckBox* asFastAsPossible_ = nullptr;
    // The exact speed: slider positions are approximate, and a loaded scenario's speed must
    // come back unchanged (it may even lie outside the slider's range).
    double sliderSpeed_ = 1;
    bool loading_ = false;
};

}  // namespace ratelab
