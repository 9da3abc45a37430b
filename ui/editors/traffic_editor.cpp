// TrafficEditor (editors/traffic_editor.h). The form never judges values itself: on every edit
// it writes the scenario JSON it stands for and lets parseScenario decide, so the window accepts
// exactly what a scenario file would, with the same messages.

#include "editors/traffic_editor.h"

#include "editors/field_help.h"

#include <QDir>
#include <QEvent>
#include <QFormLayout>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include "editors/acquire_section.h"
#include "editors/clients_section.h"
#include "editors/clock_section.h"
#include "editors/error_placement.h"
#include "editors/gateways_section.h"
#include "editors/groups_section.h"
#include "editors/release_section.h"
#include "editors/run_section.h"
#include "editors/shape_section.h"
#include "input_error.h"
#include "style/inline_error.h"

namespace ratelab {

TrafficEditor::TrafficEditor(QWidget* parent) : QWidget(parent) {
    // The form is taller than a dock usually is.
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll);
    auto* content = new QWidget(scroll);
    auto* layout = new QVBoxLayout(content);
    shape_ = new ShapeSection(content);
    clients_ = new ClientsSection(content);
    groups_ = new GroupsSection(content);
    acquire_ = new AcquireSection(content);
    release_ = new ReleaseSection(content);
    gateways_ = new GatewaysSection(content);
    clock_ = new ClockSection(content);
    run_ = new RunSection(content);
    sections_ = {shape_, clients_, groups_, acquire_, release_, gateways_, clock_, run_};
    for (TrafficSection* section : sections_) {
        layout->addWidget(section);
        connect(section, &TrafficSection::edited, this, &TrafficEditor::edited);
    }
    layout->addStretch(1);
    scroll->setWidget(content);
    alignLabels();
    applyFieldHelp(this);

    error_ = new InlineError(content);
    error_->setObjectName(QStringLiteral("error"));
    updateEnabled();
    revalidate();

    connect(clock_, &ClockSection::speedChanged, this, &TrafficEditor::speedChanged);
}

// One label width for every form (the shape pages have their own), so that all fields, and the
// error under them, line up.
void TrafficEditor::alignLabels() {
    QList<QLabel*> labels;
    int width = fontMetrics().horizontalAdvance(tr("Steady rate"));
    for (TrafficSection* section : sections_) {
        for (QFormLayout* form : section->forms()) {
            for (int row = 0; row < form->rowCount(); ++row) {
                const QLayoutItem* item = form->itemAt(row, QFormLayout::LabelRole);
                if (auto* label = item ? qobject_cast<QLabel*>(item->widget()) : nullptr) {
                    labels << label;
                    width = qMax(width, label->sizeHint().width());
                }
            }
        }
    }
    for (QLabel* label : labels)
        label->setMinimumWidth(width);
    labelWidth_ = width;
}

void TrafficEditor::edited() {
    if (loading_)
        return;
    updateEnabled();
    revalidate();
}

// Shows the current shape's page and enables what the other choices allow.
void TrafficEditor::updateEnabled() {
    const bool grouped = groups_->hasGroups();
    shape_->updateEnabled(grouped);
    clients_->updateEnabled(replayShape(), grouped);
    acquire_->updateEnabled();
    release_->updateEnabled();
    gateways_->updateEnabled();
    clock_->updateEnabled();
}

// The shape section's replay, which gives the clients and permits (not with groups).
bool TrafficEditor::replayShape() const {
    return !groups_->hasGroups() && shape_->currentShape() == ShapeSpec::Type::Replay;
}

// The scenario the form stands for: a fixed dummy limiter, the traffic and bucket_ms.
QJsonObject TrafficEditor::scenarioJson() const {
    QJsonObject traffic;
    shape_->writeJson(traffic);
    clients_->writeJson(traffic, replayShape());
    if (groups_->hasGroups()) {
        // The groups' shapes and clients replace the shape and the client count.
        traffic.remove(QLatin1String("shape"));
        traffic.remove(QLatin1String("clients"));
        groups_->writeJson(traffic);
    }
    acquire_->writeJson(traffic);
    release_->writeJson(traffic);
    gateways_->writeJson(traffic);
    clock_->writeJson(traffic);
    QJsonObject scenario;
    run_->writeJson(traffic, scenario);
    const QJsonObject limiter{{QLatin1String("type"), QStringLiteral("token_bucket")},
                              {QLatin1String("name"), QStringLiteral("traffic-editor")},
                              {QLatin1String("rate"), 1},
                              {QLatin1String("interval_ms"), 1000}};
    scenario.insert(QLatin1String("limiters"), QJsonArray{limiter});
    scenario.insert(QLatin1String("traffic"), traffic);
    return scenario;
}

// The field an error's place names ("$.traffic.shape.rate" → rate); the shape if none does.
QWidget* TrafficEditor::fieldFor(const QString& where) const {
    for (const TrafficSection* section : sections_) {
        if (QWidget* field = section->fieldFor(where))
            return field;
    }
    return shape_->fieldFor(QStringLiteral("$.traffic.shape"));
}

// Judges the form with the scenario parser, shows the verdict, and tells the listeners.
void TrafficEditor::revalidate() {
    const bool wasValid = parsed_.has_value();
    QWidget* field = nullptr;
    try {
        parsed_ = parseScenario(scenarioJson(), QDir::currentPath());
        errorText_.clear();
    } catch (const InputError& error) {
        parsed_.reset();
        errorText_ = error.message();
        field = fieldFor(error.where());
        placeErrorUnder(error_, field, labelWidth_);
    }
    if (marked_ != field && marked_)
        InlineError::markInvalid(marked_, false);
    marked_ = field;
    if (field)
        InlineError::markInvalid(field, true);
    error_->showMessage(errorText_);
    if (wasValid != parsed_.has_value())
        emit validityChanged(parsed_.has_value());
    emit trafficChanged();
}

// With groups, the shape and clients fields hold those of the first group that lasts as long as
// the run (a valid start if the groups are all removed), else a constant 10 requests/s.
TrafficSpec TrafficEditor::withoutGroups(const TrafficSpec& traffic) {
    if (traffic.groups.isEmpty())
        return traffic;
    TrafficSpec fallback = traffic;
    fallback.shape = ShapeSpec{};
    fallback.shape.rate = 10;
    fallback.clients = 1;
    for (const ClientGroup& group : traffic.groups) {
        if (group.shape.type != ShapeSpec::Type::Step &&
            group.shape.type != ShapeSpec::Type::Replay) {
            fallback.shape = group.shape;
            fallback.clients = group.clients;
            break;
        }
    }
    return fallback;
}

void TrafficEditor::setTraffic(const TrafficSpec& traffic, qint64 bucketMs) {
    const double oldSpeed = speed();
    loading_ = true;
    const TrafficSpec fallback = withoutGroups(traffic);
    shape_->load(fallback);
    clients_->load(fallback);
    groups_->load(traffic);
    acquire_->load(traffic);
    release_->load(traffic);
    gateways_->load(traffic.gateways);
    clock_->load(traffic.clock);
    run_->load(traffic.seed, bucketMs);
    loading_ = false;
    updateEnabled();
    revalidate();
    if (speed() != oldSpeed)
        emit speedChanged(speed());
}

std::optional<TrafficSpec> TrafficEditor::traffic() const {
    if (!parsed_)
        return std::nullopt;
    return parsed_->traffic;
}

qint64 TrafficEditor::bucketMs() const {
    return parsed_ ? parsed_->bucketMs : run_->typedBucketMs();
}

bool TrafficEditor::isValid() const {
    return parsed_.has_value();
}

QString TrafficEditor::errorText() const {
    return errorText_;
}

void TrafficEditor::changeEvent(QEvent* event) {
    // The marked field takes the error colour of the new palette (the label does it itself).
    if (event->type() == QEvent::PaletteChange && marked_)
        InlineError::markInvalid(marked_, true, palette());
    QWidget::changeEvent(event);
}

double TrafficEditor::speed() const {
    return clock_->speed();
}

}  // namespace ratelab
