#include "algorithms/concurrency_page.h"

#include <QFormLayout>
#include <QLineEdit>

namespace ratelab {
namespace {
const QLatin1String kLeaseMs("lease_ms");
}  // namespace

ConcurrencyPage::ConcurrencyPage(QWidget* parent) : LimiterPage(parent) {
    limit_ =
        addLineEdit(QStringLiteral("limit"), tr("Requests (slots) that may be in flight at once"));
    form_->addRow(tr("&Limit"), limit_);
    errors_.add(form_, this, QStringLiteral("$.limit"), limit_, QStringLiteral("limit"));
    leaseMs_ = addLineEdit(QStringLiteral("leaseMs"),
                           tr("A slot its request never releases (a crashed worker) comes back "
                              "this many ms after its grant"));
    form_->addRow(tr("L&ease (ms)"), leaseMs_);
    errors_.add(form_, this, QStringLiteral("$.lease_ms"), leaseMs_, QStringLiteral("leaseMs"));
}

void ConcurrencyPage::writeJson(QJsonObject& json) const {
    json.insert(limiter_keys::kLimit, numberOrText(limit_->text()));
    json.insert(kLeaseMs, numberOrText(leaseMs_->text()));
}

void ConcurrencyPage::fill(const QJsonObject& values) {
    limit_->setText(textOf(values.value(limiter_keys::kLimit)));
    leaseMs_->setText(textOf(values.value(kLeaseMs)));
}

}  // namespace ratelab
