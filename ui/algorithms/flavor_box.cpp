#include "algorithms/flavor_box.h"

#include <QSignalBlocker>

namespace ratelab {
namespace {
const QLatin1String kFlavor("flavor");
}

FlavorBox::FlavorBox(const std::vector<Flavor>& flavors, QWidget* parent) : QComboBox(parent) {
    setObjectName(QStringLiteral("flavor"));
    addItem(label(Flavor::Exact), flavorName(Flavor::Exact));
    for (const Flavor flavor : flavors) {
        addItem(label(flavor), flavorName(flavor));
    }
    setToolTip(
        tr("Whose arithmetic decides: ratelab's exact algorithm, or a library's own script "
           "decision for decision (its floating-point rounding included), to see where "
           "production parts from exact"));
}

QString FlavorBox::label(Flavor flavor) {
    switch (flavor) {
        case Flavor::Exact:
            return tr("exact");
        case Flavor::Upstash:
            return tr("upstash (@upstash/ratelimit v2)");
        case Flavor::RedisRate:
            return tr("redis_rate (go-redis/redis_rate v10)");
    }
    return QString();
}

void FlavorBox::writeJson(QJsonObject& json) const {
    const QString name = currentData().toString();
    if (name != flavorName(Flavor::Exact)) {
        json.insert(kFlavor, name);
    }
}

void FlavorBox::fill(const QJsonObject& values) {
    const QSignalBlocker quiet(this);
    const int index = findData(values.value(kFlavor).toString(flavorName(Flavor::Exact)));
    setCurrentIndex(index >= 0 ? index : 0);
}

}  // namespace ratelab
