#include "editors/run_section.h"

#include <QFormLayout>
#include <QLineEdit>

#include "scenario/scenario.h"

namespace ratelab {

RunSection::RunSection(QWidget* parent) : TrafficSection(tr("Run"), parent) {
    seed_ = lineEdit(QStringLiteral("seed"), QString(), this);
    bucketMs_ = lineEdit(QStringLiteral("bucketMs"), tr("timeline bucket"), this);
    form_->addRow(tr("Seed"), seed_);
    form_->addRow(tr("Bucket (ms)"), bucketMs_);
    seed_->setText(QStringLiteral("1"));
    bucketMs_->setText(QString::number(Scenario().bucketMs));
}

void RunSection::writeJson(QJsonObject& traffic, QJsonObject& scenario) const {
    traffic.insert(QLatin1String("seed"), traffic_form::numberValue(seed_->text()));
    scenario.insert(QLatin1String("bucket_ms"), traffic_form::numberValue(bucketMs_->text()));
}

void RunSection::load(qint64 seed, qint64 bucketMs) {
    seed_->setText(QString::number(seed));
    bucketMs_->setText(QString::number(bucketMs));
}

qint64 RunSection::typedBucketMs() const {
    bool ok = false;
    const qint64 typed = bucketMs_->text().trimmed().toLongLong(&ok);
    return ok && typed > 0 ? typed : Scenario().bucketMs;
}

QWidget* RunSection::fieldFor(const QString& where) const {
    return matchField(where, {{"$.traffic.seed", seed_}, {"$.bucket_ms", bucketMs_}});
}

}  // namespace ratelab
