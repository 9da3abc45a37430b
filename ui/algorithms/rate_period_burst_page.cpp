#include "algorithms/rate_period_burst_page.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLineEdit>

#include "algorithms/flavor_box.h"

namespace ratelab {
namespace {
const QLatin1String kPeriodMs("period_ms");
const QLatin1String kBurst("burst");
const QLatin1String kNodelay("nodelay");
}  // namespace

RatePeriodBurstPage::RatePeriodBurstPage(bool withNodelay, const std::vector<Flavor>& flavors,
                                         QWidget* parent)
    : LimiterPage(parent) {
    periodMs_ = addLineEdit(QStringLiteral("periodMs"),
                            tr("The rate is counted per this many ms: the emission interval is "
                               "period_ms / rate"));
    form_->addRow(tr("&Period (ms)"), periodMs_);
    errors_.add(form_, this, QStringLiteral("$.period_ms"), periodMs_, QStringLiteral("periodMs"));
    burst_ = addLineEdit(
        QStringLiteral("burst"),
        withNodelay ? tr("Requests that may wait beyond the first (nginx burst; 0 = no queue)")
                    : tr("Permits that may pass at once (tolerance = burst x period_ms / rate)"));
    form_->addRow(tr("&Burst"), burst_);
    errors_.add(form_, this, QStringLiteral("$.burst"), burst_, QStringLiteral("burst"));
    if (withNodelay) {
        nodelay_ = new QCheckBox(tr("nodelay (accepted requests are not held)"), this);
        nodelay_->setObjectName(QStringLiteral("nodelay"));
        nodelay_->setToolTip(
            tr("nginx's nodelay: a request within the burst passes at once "
               "instead of waiting delay_ms in the queue"));
        connect(nodelay_, &QCheckBox::toggled, this, &LimiterPage::edited);
        connect(nodelay_, &QCheckBox::toggled, this, &LimiterPage::committed);  // a click applies
        form_->addRow(QString(), nodelay_);
    }
    flavor_ = addFlavorBox(flavors);
}

void RatePeriodBurstPage::writeJson(QJsonObject& json) const {
    json.insert(kPeriodMs, numberOrText(periodMs_->text()));
    json.insert(kBurst, numberOrText(burst_->text()));
    if (nodelay_ != nullptr) {
        json.insert(kNodelay, nodelay_->isChecked());
    }
    if (flavor_ != nullptr) {
        flavor_->writeJson(json);
    }
}

void RatePeriodBurstPage::fill(const QJsonObject& values) {
    periodMs_->setText(textOf(values.value(kPeriodMs)));
    burst_->setText(textOf(values.value(kBurst)));
    if (nodelay_ != nullptr) {
        const QSignalBlocker quiet(nodelay_);
        nodelay_->setChecked(values.value(kNodelay).toBool());
    }
    if (flavor_ != nullptr) {
        flavor_->fill(values);
    }
}

SlidingCounterPage::SlidingCounterPage(const std::vector<Flavor>& flavors, QWidget* parent)
    : LimiterPage(parent) {
    limit_ = addLineEdit(QStringLiteral("limit"),
                         tr("Permits per window, against the estimate prev x overlap + current"));
    form_->addRow(tr("&Limit"), limit_);
    errors_.add(form_, this, QStringLiteral("$.limit"), limit_, QStringLiteral("limit"));
    windowMs_ =
        addLineEdit(QStringLiteral("windowMs"), tr("Length of the epoch-aligned windows in ms"));
    form_->addRow(tr("&Window (ms)"), windowMs_);
    errors_.add(form_, this, QStringLiteral("$.window_ms"), windowMs_, QStringLiteral("windowMs"));
    flavor_ = addFlavorBox(flavors);
}

void SlidingCounterPage::writeJson(QJsonObject& json) const {
    json.insert(limiter_keys::kLimit, numberOrText(limit_->text()));
    json.insert(limiter_keys::kWindowMs, numberOrText(windowMs_->text()));
    flavor_->writeJson(json);
}

void SlidingCounterPage::fill(const QJsonObject& values) {
    limit_->setText(textOf(values.value(limiter_keys::kLimit)));
    windowMs_->setText(textOf(values.value(limiter_keys::kWindowMs)));
    flavor_->fill(values);
}

}  // namespace ratelab
