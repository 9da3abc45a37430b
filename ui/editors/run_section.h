#pragma once

#include "editors/traffic_section.h"

namespace ratelab {

// The run's seed and the timeline's bucket width.
class RunSection : public TrafficSection {
    Q_OBJECT

public:
    explicit RunSection(QWidget* parent = nullptr);

    // Writes "seed" into the traffic JSON and "bucket_ms" into the scenario JSON.
    void writeJson(QJsonObject& traffic, QJsonObject& scenario) const;
    void load(qint64 seed, qint64 bucketMs);
    // The bucket width typed, or the default when it is not a positive integer.
    qint64 typedBucketMs() const;
    QWidget* fieldFor(const QString& where) const override;

private:
    QLineEdit* seed_ = nullptr;
    QLineEdit* bucketMs_ = nullptr;
};

}  // namespace ratelab
