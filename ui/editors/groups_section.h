#pragma once

#include "editors/traffic_section.h"
#include "scenario/scenario.h"

QT_BEGIN_NAMESPACE
class QPlainTextEdit;
QT_END_NAMESPACE

namespace ratelab {

// Traffic groups (the scenario's "traffic.groups"): named client groups, each with its own
// clients and shape, as the JSON array the scenario file holds. Empty: no groups, the shape and
// clients above make the traffic. With groups, they replace the shape and the client count
// (the duration, permits and the rest still apply).
class GroupsSection : public TrafficSection {
    Q_OBJECT

public:
    explicit GroupsSection(QWidget* parent = nullptr);

    // The traffic's groups as indented JSON; empty without groups.
    void load(const TrafficSpec& traffic);
    bool hasGroups() const;
    // Writes "groups": the text's JSON array, or the text itself when it is not JSON (the
    // parser then says what it expected).
    void writeJson(QJsonObject& traffic) const;
    QWidget* fieldFor(const QString& where) const override;

private:
    QPlainTextEdit* groups_ = nullptr;
};

}  // namespace ratelab
