#pragma once

#include <vector>

#include "algorithms/limiter_page.h"
#include "limiters/limiter_spec.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
QT_END_NAMESPACE

namespace ratelab {
class FlavorBox;
}

namespace ratelab {

// GCRA's and the leaky bucket's own fields: the period the rate is counted over and the burst
// (and, for the leaky bucket, nodelay; for GCRA, its flavors). The rate is a common field.
class RatePeriodBurstPage : public LimiterPage {
    Q_OBJECT

public:
    // withNodelay: the leaky bucket's page (burst may be 0, plus the nodelay box); flavors:
    // the type's library flavors (a choice when there are any).
    RatePeriodBurstPage(bool withNodelay, const std::vector<Flavor>& flavors,
                        QWidget* parent = nullptr);
    void writeJson(QJsonObject& json) const override;
    void fill(const QJsonObject& values) override;

private:
    QLineEdit* periodMs_ = nullptr;
    QLineEdit* burst_ = nullptr;
    QCheckBox* nodelay_ = nullptr;  // leaky bucket only
    FlavorBox* flavor_ = nullptr;   // gcra only
};

// The sliding-window counter's fields: the limit per window and the window's length.
class SlidingCounterPage : public LimiterPage {
    Q_OBJECT

public:
    explicit SlidingCounterPage(const std::vector<Flavor>& flavors, QWidget* parent = nullptr);
    void writeJson(QJsonObject& json) const override;
    void fill(const QJsonObject& values) override;

private:
    QLineEdit* limit_ = nullptr;
    QLineEdit* windowMs_ = nullptr;
    FlavorBox* flavor_ = nullptr;
};

}  // namespace ratelab
