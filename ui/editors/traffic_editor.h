#pragma once

#include <QPointer>
#include <QWidget>
#include <optional>

#include "scenario/scenario.h"

namespace ratelab {

class AcquireSection;
class ClientsSection;
class ClockSection;
class GatewaysSection;
class GroupsSection;
class InlineError;
class ReleaseSection;
class RunSection;
class ShapeSection;
class TrafficSection;

// Form for a scenario's traffic: every shape of the scenario format with its fields, duration,
// clients (and weights), threads, pipeline, permits (fixed or range), try/wait mode with
// timeout, real or virtual clock (start time, speed slider from 0.05x to the parser's maximum,
// or "as fast as possible"), seed, bucket width. Validated on every edit by the scenario parser
// itself (parseScenario on the JSON the form stands for); errors are shown inline at their
// field. One section (group box) per part: shape, clients, groups (users beside an attacker:
// they replace the shape and the client count), acquire, release (hold and leaks), gateways,
// clock, run.
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

protected:
    void changeEvent(QEvent* event) override;

private:
    static TrafficSpec withoutGroups(const TrafficSpec& traffic);
    void alignLabels();
    void edited();
    void updateEnabled();
    bool replayShape() const;
    QJsonObject scenarioJson() const;
    QWidget* fieldFor(const QString& where) const;
    void revalidate();

    ShapeSection* shape_ = nullptr;
    ClientsSection* clients_ = nullptr;
    GroupsSection* groups_ = nullptr;
    AcquireSection* acquire_ = nullptr;
    ReleaseSection* release_ = nullptr;
    GatewaysSection* gateways_ = nullptr;
    ClockSection* clock_ = nullptr;
    RunSection* run_ = nullptr;
    QList<TrafficSection*> sections_;
    InlineError* error_ = nullptr;

    bool loading_ = false;  // setTraffic is filling the fields: edits are not judged one by one
    std::optional<Scenario> parsed_;
    QString errorText_;
    QPointer<QWidget> marked_;  // the field the error names (a group's cell may go)
    int labelWidth_ = 0;        // of every form's label column
};

}  // namespace ratelab
