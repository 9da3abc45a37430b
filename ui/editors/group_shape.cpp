#include "editors/group_shape.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include "editors/traffic_section.h"
#include "scenario/scenario_json.h"

namespace ratelab::group_shape {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("GroupShape", text);
}

QString field(const QJsonObject& shape, const char* key) {
    const QJsonValue value = shape.value(QLatin1String(key));
    return value.isUndefined() ? QStringLiteral("?") : valueText(value);
}

}  // namespace

const QStringList& typeNames() {
    static const QStringList names = [] {
        QStringList list;
        for (ShapeSpec::Type type :
             {ShapeSpec::Type::Constant, ShapeSpec::Type::Poisson, ShapeSpec::Type::Linear,
              ShapeSpec::Type::Sine, ShapeSpec::Type::Burst, ShapeSpec::Type::Step,
              ShapeSpec::Type::Replay}) {
            list << scenario_json::shapeTypeName(type);
        }
        return list;
    }();
    return names;
}

bool isSimple(const QJsonObject& shape) {
    const QString type = shape.value(QLatin1String("type")).toString();
    if (type != QLatin1String("constant") && type != QLatin1String("poisson"))
        return false;
    for (auto it = shape.begin(); it != shape.end(); ++it) {
        if (it.key() != QLatin1String("type") && it.key() != QLatin1String("rate"))
            return false;
    }
    return true;
}

QJsonObject defaultShape(const QString& type, double rate) {
    QJsonObject shape{{QLatin1String("type"), type}};
    if (type == QLatin1String("linear")) {
        shape.insert(QLatin1String("from"), 0);
        shape.insert(QLatin1String("to"), rate);
    } else if (type == QLatin1String("sine")) {
        shape.insert(QLatin1String("mean"), rate);
        shape.insert(QLatin1String("amplitude"), rate / 2);
        shape.insert(QLatin1String("period_s"), 10);
    } else if (type == QLatin1String("burst")) {
        shape.insert(QLatin1String("rate"), rate);
        shape.insert(QLatin1String("burst"), 10);
        shape.insert(QLatin1String("every_s"), 1);
    } else if (type == QLatin1String("step")) {
        const QJsonObject stage{{QLatin1String("rate"), rate}, {QLatin1String("duration_s"), 5}};
        shape.insert(QLatin1String("stages"), QJsonArray{stage});
    } else if (type == QLatin1String("replay")) {
        shape.insert(QLatin1String("trace"), QString());
    } else {
        shape.insert(QLatin1String("rate"), rate);
    }
    return shape;
}

double rateOf(const QJsonObject& shape) {
    const QJsonValue stages = shape.value(QLatin1String("stages"));
    const QJsonValue candidates[] = {
        shape.value(QLatin1String("rate")), shape.value(QLatin1String("mean")),
        shape.value(QLatin1String("to")),
        stages.toArray().at(0).toObject().value(QLatin1String("rate"))};
    for (const QJsonValue& value : candidates) {
        if (value.isDouble() && value.toDouble() > 0)
            return value.toDouble();
    }
    return 10;
}

QString valueText(const QJsonValue& value) {
    if (value.isDouble())
        return traffic_form::numberText(value.toDouble());
    if (value.isString())
        return value.toString();
    if (value.isUndefined())
        return QString();
    return QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact))
        .mid(1)
        .chopped(1);
}

QString summary(const QJsonObject& shape) {
    const QString type = shape.value(QLatin1String("type")).toString();
    if (!isSimple(shape)) {
        if (type == QLatin1String("linear"))
            return tr("%1→%2/s").arg(field(shape, "from"), field(shape, "to"));
        if (type == QLatin1String("sine")) {
            return tr("%1±%2/s, %3 s")
                .arg(field(shape, "mean"), field(shape, "amplitude"), field(shape, "period_s"));
        }
        if (type == QLatin1String("burst")) {
            return tr("%1/s, %2 every %3 s")
                .arg(field(shape, "rate"), field(shape, "burst"), field(shape, "every_s"));
        }
        if (type == QLatin1String("step")) {
            const QJsonValue stages = shape.value(QLatin1String("stages"));
            if (stages.isArray()) {
                const qsizetype count = stages.toArray().size();
                return count == 1 ? tr("1 stage") : tr("%1 stages").arg(count);
            }
        }
        if (type == QLatin1String("replay")) {
            const QString trace = shape.value(QLatin1String("trace")).toString();
            return trace.isEmpty() ? tr("no trace") : QFileInfo(trace).fileName();
        }
    }
    QJsonObject rest = shape;
    rest.remove(QLatin1String("type"));
    return QString::fromUtf8(QJsonDocument(rest).toJson(QJsonDocument::Compact));
}

}  // namespace ratelab::group_shape
