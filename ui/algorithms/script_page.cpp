#include "algorithms/script_page.h"

#include <QFormLayout>
#include <QJsonArray>
#include <QLabel>

#include "limiters/algorithm.h"

namespace ratelab {

ScriptPage::ScriptPage(QWidget* parent) : LimiterPage(parent) {
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("scriptSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form_->addRow(tr("Script"), summary_);
}

void ScriptPage::writeJson(QJsonObject& json) const {
    for (auto it = fields_.begin(); it != fields_.end(); ++it) {
        json.insert(it.key(), it.value());
    }
}

void ScriptPage::fill(const QJsonObject& values) {
    fields_ = QJsonObject();
    for (const QLatin1String key : algorithmOf(LimiterType::Script).fieldKeys()) {
        if (values.contains(key)) {
            fields_.insert(key, values.value(key));
        }
    }
    const QJsonValue script = fields_.value(QLatin1String("script"));
    const QString source = script.isString() ? script.toString() : tr("inline Lua");
    summary_->setText(tr("%1 · %2 key(s), %3 argument(s) · edited in the scenario file")
                          .arg(source)
                          .arg(fields_.value(QLatin1String("keys")).toArray().size())
                          .arg(fields_.value(QLatin1String("args")).toArray().size()));
}

}  // namespace ratelab
