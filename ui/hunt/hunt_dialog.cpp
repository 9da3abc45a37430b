#include "hunt/hunt_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTimer>
#include <QVBoxLayout>

#include "hunt/hunt_reference.h"
#include "hunt/hunt_report.h"
#include "input_error.h"
#include "limiters/algorithm.h"
#include "limiters/script_spec.h"
#include "style/inline_error.h"

namespace ratelab {
namespace {

// A flavored limiter's exact form as a reference: its spec without name, scope and flavor.
QString exactFormOf(const LimiterSpec& spec) {
    if (spec.flavor == Flavor::Exact) {
        return QString();
    }
    QJsonObject object = limiterSpecToJson(spec);
    for (const char* key : {"name", "scope", "flavor"}) {
        object.remove(QLatin1String(key));
    }
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

// The hunt's own folder: "<limiter>-<date>-<time>", the name's odd characters as "_".
QString huntFolder(const QString& root, const QString& limiter) {
    QString safe = limiter;
    safe.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]")), QStringLiteral("_"));
    return QDir(root).filePath(
        safe + QDateTime::currentDateTime().toString(QStringLiteral("-yyyyMMdd-HHmmss-zzz")));
}

}  // namespace

HuntDialog::HuntDialog(QWidget* parent)
    : QDialog(parent),
      outputRoot_(QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation))
                      .filePath(QStringLiteral("hunts"))),
      service_(new HuntService(this)),
      progressTimer_(new QTimer(this)),
      limiter_(new QComboBox(this)),
      reference_(new QPlainTextEdit(this)),
      agree_(new QCheckBox(tr("agree: every decision's allowed equals the reference's"), this)),
      retry_(new QCheckBox(tr("retry: a refusal's retry_after_ms is exact"), this)),
      remaining_(new QCheckBox(tr("remaining: a grant's remaining is exact"), this)),
      seed_(new QSpinBox(this)),
      traces_(new QSpinBox(this)),
      error_(new InlineError(this)),
      progress_(new QLabel(this)),
      result_(new QPlainTextEdit(this)),
      start_(new QPushButton(tr("Start"), this)),
      cancel_(new QPushButton(tr("Cancel"), this)),
      open_(new QPushButton(tr("Open counterexample"), this)) {
    setWindowTitle(tr("Hunt a limiter"));
    reference_->setPlaceholderText(
        tr("A built-in spec without name and scope, e.g. {\"type\": \"sliding_window\", "
           "\"rules\": [{\"limit\": 10, \"window_ms\": 1000}]}"));
    reference_->setMaximumHeight(80);
    seed_->setRange(0, 1'000'000'000);
    seed_->setValue(1);
    traces_->setRange(1, 1'000'000);
    traces_->setValue(1000);
    result_->setReadOnly(true);
    result_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    result_->setLineWrapMode(QPlainTextEdit::NoWrap);

    auto* form = new QFormLayout;
    form->addRow(tr("Limiter"), limiter_);
    form->addRow(tr("Reference"), reference_);
    auto* properties = new QVBoxLayout;
    for (QCheckBox* box : {agree_, retry_, remaining_}) {
        properties->addWidget(box);
    }
    form->addRow(tr("Properties"), properties);
    form->addRow(tr("Seed"), seed_);
    form->addRow(tr("Traces"), traces_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(start_);
    buttons->addWidget(cancel_);
    buttons->addStretch();
    buttons->addWidget(open_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(error_);
    layout->addLayout(buttons);
    layout->addWidget(progress_);
    layout->addWidget(result_, 1);
    resize(760, 560);

    connect(limiter_, &QComboBox::currentIndexChanged, this, &HuntDialog::limiterChosen);
    connect(start_, &QPushButton::clicked, this, &HuntDialog::startHunt);
    connect(cancel_, &QPushButton::clicked, this, &HuntDialog::cancelHunt);
    connect(open_, &QPushButton::clicked, this,
            [this] { emit openScenarioRequested(regressionPath_); });
    connect(progressTimer_, &QTimer::timeout, this, &HuntDialog::showProgress);
    connect(service_, &HuntService::finished, this, &HuntDialog::finished);
    progressTimer_->setInterval(100);
    setRunning(false);
}

QCheckBox* HuntDialog::propertyBox(HuntProperty property) const {
    switch (property) {
        case HuntProperty::Agree:
            return agree_;
        case HuntProperty::Retry:
            return retry_;
        case HuntProperty::Remaining:
            return remaining_;
    }
    return nullptr;
}

void HuntDialog::showFor(const std::optional<Scenario>& scenario,
                         const std::optional<RedisUrl>& url) {
    scenario_ = scenario;
    url_ = url;
    const QString chosen = limiter_->currentText();
    limiter_->clear();
    if (scenario_) {
        for (const LimiterSpec& spec : scenario_->limiters) {
            limiter_->addItem(spec.name);
        }
        limiter_->setCurrentIndex(std::max(0, limiter_->findText(chosen)));
    }
    error_->showMessage(scenario_ ? QString()
                                  : tr("The scenario has an invalid field: fix it in the editors "
                                       "first."));
    show();
    raise();
    activateWindow();
}

void HuntDialog::limiterChosen() {
    if (!scenario_ || limiter_->currentIndex() < 0) {
        return;
    }
    const LimiterSpec& spec = scenario_->limiters[limiter_->currentIndex()];
    reference_->setPlainText(exactFormOf(spec));
    // A script limiter's own "reference" is what agree compares with when the field is empty.
    const bool reference = !reference_->toPlainText().isEmpty() || referenceSpecOf(spec);
    agree_->setChecked(reference);
    retry_->setChecked(!reference);
    remaining_->setChecked(!reference);
}

void HuntDialog::startHunt() {
    if (!scenario_ || limiter_->currentIndex() < 0) {
        error_->showMessage(tr("No limiter to hunt: the scenario has an invalid field."));
        return;
    }
    HuntConfig config;
    config.limiter = scenario_->limiters[limiter_->currentIndex()];
    try {
        refuseRedisTime(config.limiter, config.limiter.name);
        const QByteArray reference = reference_->toPlainText().trimmed().toUtf8();
        if (!reference.isEmpty()) {
            config.reference = parseHuntReference(reference, config.limiter);
        } else {
            config.reference = takeScriptReference(config.limiter);
        }
    } catch (const InputError& e) {
        error_->showMessage(tr("Reference: %1").arg(e.message()));
        return;
    }
    for (QCheckBox* box : {agree_, retry_, remaining_}) {
        if (box->isChecked()) {
            config.properties.push_back(box == agree_   ? HuntProperty::Agree
                                        : box == retry_ ? HuntProperty::Retry
                                                        : HuntProperty::Remaining);
        }
    }
    if (config.properties.empty()) {
        error_->showMessage(tr("Choose at least one property."));
        return;
    }
    if (agree_->isChecked() && !config.reference) {
        error_->showMessage(tr("agree needs a reference to agree with."));
        return;
    }
    if (!url_) {
        error_->showMessage(tr("Not connected to Redis."));
        return;
    }
    config.seed = quint64(seed_->value());
    config.traces = traces_->value();
    error_->showMessage(QString());
    result_->clear();
    regressionPath_.clear();
    elapsed_.start();
    service_->start(config, *url_, huntFolder(outputRoot_, config.limiter.name));
    setRunning(true);
}

void HuntDialog::cancelHunt() {
    service_->cancel();
}

void HuntDialog::showProgress() {
    if (const std::optional<HuntProgress> seen = service_->takeProgress()) {
        progress_->setText(huntProgressText(*seen, double(elapsed_.elapsed()) / 1000));
    }
}

void HuntDialog::finished(const HuntOutcome& outcome) {
    setRunning(false);
    const HuntResult& r = outcome.result;
    QString text = outcome.text;
    if (r.interrupted) {
        text += tr("cancelled after %1 traces (%2 rows)\n").arg(r.traces).arg(r.rows);
    }
    for (const QString& path : outcome.written) {
        text += tr("wrote %1\n").arg(path);
    }
    result_->setPlainText(text);
    progress_->setText(r.counterexample ? tr("A counterexample.")
                                        : tr("No counterexample in %1 traces.").arg(r.traces));
    error_->showMessage(outcome.error);
    regressionPath_ = outcome.regressionPath;
    open_->setEnabled(!regressionPath_.isEmpty());
}

void HuntDialog::setRunning(bool running) {
    start_->setEnabled(!running);
    cancel_->setEnabled(running);
    open_->setEnabled(!running && !regressionPath_.isEmpty());
    for (QWidget* w : std::initializer_list<QWidget*>{limiter_, reference_, agree_, retry_,
                                                      remaining_, seed_, traces_}) {
        w->setEnabled(!running);
    }
    if (running) {
        progressTimer_->start();
    } else {
        progressTimer_->stop();
    }
}

QString HuntDialog::errorText() const {
    return error_->isVisible() || !error_->text().isEmpty() ? error_->text() : QString();
}

QString HuntDialog::progressText() const {
    return progress_->text();
}

QString HuntDialog::resultText() const {
    return result_->toPlainText();
}

}  // namespace ratelab
