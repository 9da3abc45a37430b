#pragma once

#include "algorithms/limiter_page.h"

QT_BEGIN_NAMESPACE
class QComboBox;
QT_END_NAMESPACE

namespace ratelab {

// The calendar fixed window's fields: the window (interval and unit) and the time zone.
class FixedWindowPage : public LimiterPage {
    Q_OBJECT

public:
    explicit FixedWindowPage(QWidget* parent = nullptr);
    void writeJson(QJsonObject& json) const override;
    void fill(const QJsonObject& values) override;

private:
    QLineEdit* interval_ = nullptr;
    QComboBox* unit_ = nullptr;
    QComboBox* timezone_ = nullptr;
};

}  // namespace ratelab
