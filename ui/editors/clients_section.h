#pragma once

#include "editors/traffic_section.h"
#include "scenario/scenario.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
QT_END_NAMESPACE

namespace ratelab {

// Clients (count and weights), permits per request (fixed or a range), threads, pipeline (and
// whether each limiter has a round trip of its own) and the clients' clock skew.
// A replay's trace gives each request's client and permits: those fields are off then.
class ClientsSection : public TrafficSection {
    Q_OBJECT

public:
    explicit ClientsSection(QWidget* parent = nullptr);

    // Writes clients and permits (unless `replay`), threads and pipeline into the traffic JSON.
    void writeJson(QJsonObject& traffic, bool replay) const;
    void load(const TrafficSpec& traffic);
    void updateEnabled(bool replay, bool grouped);
    QWidget* fieldFor(const QString& where) const override;

private:
    QLineEdit* clients_ = nullptr;
    QLineEdit* weights_ = nullptr;
    QLineEdit* permitsMin_ = nullptr;
    QCheckBox* permitsRange_ = nullptr;
    QLineEdit* permitsMax_ = nullptr;
    QLineEdit* threads_ = nullptr;
    QLineEdit* pipeline_ = nullptr;
    QCheckBox* ownRoundTrips_ = nullptr;  // traffic "round_trips": "per_limiter"
    QLineEdit* clockSkew_ = nullptr;      // traffic "clock_skew_ms"
};

}  // namespace ratelab
