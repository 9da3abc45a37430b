#pragma once

#include <QWidget>
#include <optional>

#include "scenario/scenario.h"

namespace ratelab {

// Form for a scenario's traffic: every shape of the scenario format with its fields, duration,
// clients (and weights), threads, pipeline, permits (fixed or range), try/wait mode with
// timeout, real or virtual clock (start time, speed slider from 0.05x to 100x, or "as fast as
// possible"), seed, bucket width. Validated on every edit by the scenario parser itself
// (parseScenario on the JSON the form stands for); errors are shown inline at their field.
class TrafficEditor : public QWidget {
    Q_OBJECT

public:
    explicit TrafficEditor(QWidget* parent = nullptr);

    void setTraffic(const TrafficSpec& traffic, qint64 bucketMs);
    std::optional<TrafficSpec> traffic() const;  // nullopt while invalid
    qint64 bucketMs() const;
    bool isValid() const;
    QString errorText() const;
    // The speed slider's value (virtual clock), which may change while a run goes.
    double speed() const;

signals:
    void trafficChanged();
    void validityChanged(bool valid);
    void speedChanged(double speed);
};

}  // namespace ratelab
