#include "editors/groups_section.h"

#include <QFormLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPlainTextEdit>

namespace ratelab {

GroupsSection::GroupsSection(QWidget* parent) : TrafficSection(tr("Groups"), parent) {
    groups_ = new QPlainTextEdit(this);
    groups_->setObjectName(QStringLiteral("groups"));
    groups_->setTabChangesFocus(true);
    groups_->setPlaceholderText(
        tr("none; or users beside an attacker:\n"
           "[{\"name\": \"users\", \"clients\": 95, \"shape\": {\"type\": \"poisson\", "
           "\"rate\": 40}},\n"
           " {\"name\": \"attacker\", \"shape\": {\"type\": \"constant\", \"rate\": 30}}]"));
    groups_->setMinimumHeight(groups_->fontMetrics().lineSpacing() * 5);
    connect(groups_, &QPlainTextEdit::textChanged, this, &TrafficSection::edited);
    form_->addRow(tr("Groups"), groups_);
}

void GroupsSection::load(const TrafficSpec& traffic) {
    if (traffic.groups.isEmpty()) {
        groups_->clear();
        return;
    }
    // The scenario writer's own JSON for them, so that they round-trip exactly.
    Scenario scenario;
    scenario.traffic = traffic;
    const QJsonArray groups = scenarioToJson(scenario)
                                  .value(QLatin1String("traffic"))
                                  .toObject()
                                  .value(QLatin1String("groups"))
                                  .toArray();
    groups_->setPlainText(
        QString::fromUtf8(QJsonDocument(groups).toJson(QJsonDocument::Indented)).trimmed());
}

bool GroupsSection::hasGroups() const {
    return !groups_->toPlainText().trimmed().isEmpty();
}

void GroupsSection::writeJson(QJsonObject& traffic) const {
    const QString text = groups_->toPlainText().trimmed();
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error == QJsonParseError::NoError && document.isArray()) {
        traffic.insert(QLatin1String("groups"), document.array());
    } else {
        traffic.insert(QLatin1String("groups"), text);
    }
}

QWidget* GroupsSection::fieldFor(const QString& where) const {
    return matchField(where, {{"$.traffic.groups", groups_}});
}

}  // namespace ratelab
