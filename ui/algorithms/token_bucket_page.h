#pragma once

#include "algorithms/limiter_page.h"

namespace ratelab {

// The token bucket's own field: the interval in ms (its rate is a common field).
class TokenBucketPage : public LimiterPage {
    Q_OBJECT

public:
    explicit TokenBucketPage(QWidget* parent = nullptr);
    void writeJson(QJsonObject& json) const override;
    void fill(const QJsonObject& values) override;

private:
    QLineEdit* intervalMs_ = nullptr;
};

}  // namespace ratelab
