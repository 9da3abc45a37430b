#include "editors/clock_section.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSlider>
#include <cmath>

namespace ratelab {
namespace {

// The slider's positions on a log scale from kMinSliderSpeed to kMaxSliderSpeed.
constexpr int kSpeedSteps = 1000;
constexpr double kMinSpeed = ClockSection::kMinSliderSpeed;
constexpr double kMaxSpeed = ClockSection::kMaxSliderSpeed;

double sliderToSpeed(int position) {
    const double speed =
        kMinSpeed * std::pow(kMaxSpeed / kMinSpeed, static_cast<double>(position) / kSpeedSteps);
    // Two significant digits: "0.25x" rather than "0.2497x". Scale by exact powers of ten.
    const int exponent = static_cast<int>(std::floor(std::log10(speed))) - 1;
    const double scale = std::pow(10.0, std::abs(exponent));
    const double rounded =
        exponent < 0 ? std::round(speed * scale) / scale : std::round(speed / scale) * scale;
    return qBound(kMinSpeed, rounded, kMaxSpeed);
}

int speedToSlider(double speed) {
    const double position = std::log(speed / kMinSpeed) / std::log(kMaxSpeed / kMinSpeed);
    return qBound(0, static_cast<int>(std::lround(position * kSpeedSteps)), kSpeedSteps);
}

}  // namespace

ClockSection::ClockSection(QWidget* parent) : TrafficSection(tr("Clock"), parent) {
    clock_ = new QComboBox(this);
    clock_->setObjectName(QStringLiteral("clock"));
    clock_->addItem(tr("real"), QStringLiteral("real"));
    clock_->addItem(tr("virtual"), QStringLiteral("virtual"));
    connect(clock_, &QComboBox::currentIndexChanged, this, &TrafficSection::edited);
    start_ = lineEdit(QStringLiteral("start"), QStringLiteral("2024-03-10T01:59:58-05:00"), this);
    start_->setToolTip(tr("ISO 8601 date and time with an offset or Z"));
    speed_ = new QSlider(Qt::Horizontal, this);
    speed_->setObjectName(QStringLiteral("speed"));
    speed_->setRange(0, kSpeedSteps);
    speed_->setPageStep(kSpeedSteps / 20);
    speedValue_ = new QLabel(this);
    speedValue_->setObjectName(QStringLiteral("speedValue"));
    // Wide enough for "0.051x" so that the slider does not jump while dragged.
    speedValue_->setMinimumWidth(
        speedValue_->fontMetrics().horizontalAdvance(QStringLiteral("0.051x  ")));
    asFastAsPossible_ = new QCheckBox(tr("as fast as possible"), this);
    asFastAsPossible_->setObjectName(QStringLiteral("asFastAsPossible"));
    form_->addRow(tr("Clock"), clock_);
    form_->addRow(tr("Start"), start_);
    form_->addRow(tr("Speed"), traffic_form::rowOf(this, {speed_, speedValue_}));
    form_->addRow(QString(), asFastAsPossible_);

    const QDateTime now = QDateTime::currentDateTimeUtc();
    start_->setText(now.addMSecs(-now.time().msec()).toString(Qt::ISODate));
    speed_->setValue(speedToSlider(sliderSpeed_));
    connect(speed_, &QSlider::valueChanged, this, &ClockSection::sliderMoved);
    connect(asFastAsPossible_, &QCheckBox::toggled, this, [this] {
        if (loading_)
            return;
        emit speedChanged(speed());
        emit edited();
    });
}

void ClockSection::sliderMoved(int position) {
    if (loading_)
        return;
    sliderSpeed_ = sliderToSpeed(position);
    emit speedChanged(speed());
    emit edited();
}

double ClockSection::speed() const {
    return asFastAsPossible_->isChecked() ? 0.0 : sliderSpeed_;
}

bool ClockSection::isVirtual() const {
    return clock_->currentData().toString() == QLatin1String("virtual");
}

void ClockSection::writeJson(QJsonObject& traffic) const {
    if (isVirtual()) {
        traffic.insert(QLatin1String("clock"),
                       QJsonObject{{QLatin1String("type"), QStringLiteral("virtual")},
                                   {QLatin1String("start"), start_->text().trimmed()},
                                   {QLatin1String("speed"), speed()}});
    } else {
        traffic.insert(QLatin1String("clock"), QStringLiteral("real"));
    }
}

// Announces nothing: the editor compares the speed before and after.
void ClockSection::load(const ClockSpec& clock) {
    loading_ = true;
    clock_->setCurrentIndex(clock.isVirtual ? 1 : 0);
    if (clock.isVirtual) {
        const QDateTime start = QDateTime::fromMSecsSinceEpoch(clock.startMs, Qt::UTC);
        start_->setText(
            start.toString(clock.startMs % 1000 == 0 ? Qt::ISODate : Qt::ISODateWithMs));
    }
    // The scenario's speed, or the defaults (1x): nothing carries over from the scenario before
    // (its "as fast as possible" stayed ticked under a real clock, and came back with virtual).
    const bool fastest = clock.isVirtual && clock.speed == 0;
    asFastAsPossible_->setChecked(fastest);
    sliderSpeed_ = clock.isVirtual && clock.speed > 0 ? clock.speed : 1.0;
    speed_->setValue(speedToSlider(sliderSpeed_));
    loading_ = false;
}

void ClockSection::updateEnabled() {
    const bool clockIsVirtual = isVirtual();
    start_->setEnabled(clockIsVirtual);
    asFastAsPossible_->setEnabled(clockIsVirtual);
    speed_->setEnabled(clockIsVirtual && !asFastAsPossible_->isChecked());
    speedValue_->setEnabled(speed_->isEnabled());
    speedValue_->setText(traffic_form::numberText(sliderSpeed_) + QLatin1Char('x'));
}

QWidget* ClockSection::fieldFor(const QString& where) const {
    return matchField(where, {
                                 {"$.traffic.clock.start", start_},
                                 {"$.traffic.clock.speed", speed_},
                                 {"$.traffic.clock", clock_},
                             });
}

}  // namespace ratelab
