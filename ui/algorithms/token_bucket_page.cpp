#include "algorithms/token_bucket_page.h"

#include <QFormLayout>
#include <QLineEdit>

namespace ratelab {

TokenBucketPage::TokenBucketPage(QWidget* parent) : LimiterPage(parent) {
    intervalMs_ = addLineEdit(QStringLiteral("intervalMs"),
                              tr("Each grant returns to the bucket once it is this many ms old"));
    form_->addRow(tr("&Interval (ms)"), intervalMs_);
    errors_.add(form_, this, QStringLiteral("$.interval_ms"), intervalMs_,
                QStringLiteral("intervalMs"));
}

void TokenBucketPage::writeJson(QJsonObject& json) const {
    json.insert(limiter_keys::kIntervalMs, numberOrText(intervalMs_->text()));
}

void TokenBucketPage::fill(const QJsonObject& values) {
    intervalMs_->setText(textOf(values.value(limiter_keys::kIntervalMs)));
}

}  // namespace ratelab
