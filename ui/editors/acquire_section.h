#pragma once

#include "editors/traffic_section.h"
#include "scenario/scenario.h"

QT_BEGIN_NAMESPACE
class QComboBox;
QT_END_NAMESPACE

namespace ratelab {

// How requests acquire: try (tryAcquire) or wait (acquire) with a timeout.
class AcquireSection : public TrafficSection {
    Q_OBJECT

public:
    explicit AcquireSection(QWidget* parent = nullptr);

    void writeJson(QJsonObject& traffic) const;
    void load(const TrafficSpec& traffic);
    void updateEnabled();
    QWidget* fieldFor(const QString& where) const override;

private:
    QComboBox* mode_ = nullptr;
    QLineEdit* timeout_ = nullptr;
};

}  // namespace ratelab
