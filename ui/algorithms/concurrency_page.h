#pragma once

#include "algorithms/limiter_page.h"

namespace ratelab {

// The concurrency limiter's fields: the slots that may be in flight at once and how long a
// lease lasts when its request never releases it.
class ConcurrencyPage : public LimiterPage {
    Q_OBJECT

public:
    explicit ConcurrencyPage(QWidget* parent = nullptr);
    void writeJson(QJsonObject& json) const override;
    void fill(const QJsonObject& values) override;

private:
    QLineEdit* limit_ = nullptr;
    QLineEdit* leaseMs_ = nullptr;
};

}  // namespace ratelab
