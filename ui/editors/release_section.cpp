#include "editors/release_section.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>

#include "input_limits.h"

namespace ratelab {
namespace {

const QLatin1String kHold("hold"), kType("type"), kMs("ms"), kMeanMs("mean_ms"),
    kLeakPct("leak_pct"), kConstant("constant"), kExponential("exponential");

}  // namespace

ReleaseSection::ReleaseSection(QWidget* parent) : TrafficSection(tr("Release"), parent) {
    holdType_ = new QComboBox(this);
    holdType_->setObjectName(QStringLiteral("holdType"));
    traffic_form::letNarrow(holdType_);
    // In the order of HoldSpec::Type; the data is the scenario's "type".
    holdType_->addItem(tr("none (holds nothing)"), QStringLiteral("none"));
    holdType_->addItem(tr("constant"), QString(kConstant));
    holdType_->addItem(tr("exponential (mean)"), QString(kExponential));
    connect(holdType_, &QComboBox::currentIndexChanged, this, &TrafficSection::edited);
    // From 0 (a constant hold may be 0): an exponential mean of 0 is the parser's to refuse.
    holdMs_ = new QSpinBox(this);
    holdMs_->setObjectName(QStringLiteral("holdMs"));
    holdMs_->setRange(0, int(scenario_limits::kMaxDurationS) * 1000);
    holdMs_->setSuffix(tr(" ms"));
    holdMs_->setValue(100);
    connect(holdMs_, &QSpinBox::valueChanged, this, &TrafficSection::edited);
    leakPct_ = new QDoubleSpinBox(this);
    leakPct_->setObjectName(QStringLiteral("leakPct"));
    leakPct_->setRange(0, 100);
    leakPct_->setDecimals(2);
    leakPct_->setSuffix(tr(" %"));
    connect(leakPct_, &QDoubleSpinBox::valueChanged, this, [this](double value) {
        if (loading_)
            return;
        leakExact_ = value;
        emit edited();
    });
    form_->addRow(tr("Hold"), holdType_);
    form_->addRow(tr("Hold time"), holdMs_);
    form_->addRow(tr("Leaked grants"), leakPct_);
}

HoldSpec::Type ReleaseSection::holdType() const {
    return HoldSpec::Type(std::max(0, holdType_->currentIndex()));
}

void ReleaseSection::writeJson(QJsonObject& traffic) const {
    const HoldSpec::Type type = holdType();
    if (type == HoldSpec::Type::None)
        return;
    const bool constant = type == HoldSpec::Type::Constant;
    traffic.insert(kHold, QJsonObject{{kType, holdType_->currentData().toString()},
                                      {constant ? kMs : kMeanMs, holdMs_->value()}});
    if (leakExact_ > 0)
        traffic.insert(kLeakPct, leakExact_);
}

void ReleaseSection::load(const TrafficSpec& traffic) {
    loading_ = true;
    holdType_->setCurrentIndex(int(traffic.hold.type));
    if (traffic.hold.type != HoldSpec::Type::None)
        holdMs_->setValue(int(traffic.hold.ms));
    leakExact_ = traffic.leakPct;
    leakPct_->setValue(traffic.leakPct);
    loading_ = false;
}

void ReleaseSection::updateEnabled() {
    const bool holds = holdType() != HoldSpec::Type::None;
    holdMs_->setEnabled(holds);
    // The exponential's field is its mean.
    if (auto* label = qobject_cast<QLabel*>(form_->labelForField(holdMs_)))
        label->setText(holdType() == HoldSpec::Type::Exponential ? tr("Mean hold")
                                                                 : tr("Hold time"));
    leakPct_->setEnabled(holds);
}

QWidget* ReleaseSection::fieldFor(const QString& where) const {
    return matchField(where, {
                                 {"$.traffic.hold.ms", holdMs_},
                                 {"$.traffic.hold.mean_ms", holdMs_},
                                 {"$.traffic.hold", holdType_},
                                 {"$.traffic.leak_pct", leakPct_},
                             });
}

}  // namespace ratelab
