#include "distributed/strict_json.h"

#include <cmath>
#include <limits>

#include "json_input.h"

namespace ratelab {

using json_input::describe;

QJsonValue StrictJson::member(const QJsonObject& o, const QString& path, const char* key) {
    const QString name = QLatin1String(key);
    if (!o.contains(name)) {
        throw InputError(json_input::memberPath(path, name), QStringLiteral("missing"));
    }
    return o.value(name);
}

QJsonObject StrictJson::object(const QJsonValue& v, const QString& path) {
    if (!v.isObject()) {
        throw InputError(path, QStringLiteral("expected an object, got ") + describe(v));
    }
    return v.toObject();
}

QJsonArray StrictJson::array(const QJsonValue& v, const QString& path) {
    if (!v.isArray()) {
        throw InputError(path, QStringLiteral("expected an array, got ") + describe(v));
    }
    return v.toArray();
}

qint64 StrictJson::integer(const QJsonValue& v, const QString& path) {
    const double d = v.toDouble(std::numeric_limits<double>::quiet_NaN());
    if (!v.isDouble() || d != std::trunc(d) || std::fabs(d) > 9007199254740992.0) {
        throw InputError(path, QStringLiteral("expected an integer, got ") + describe(v));
    }
    return qint64(d);
}

QString StrictJson::text(const QJsonValue& v, const QString& path) {
    if (!v.isString()) {
        throw InputError(path, QStringLiteral("expected a string, got ") + describe(v));
    }
    return v.toString();
}

double StrictJson::number(const QJsonValue& v, const QString& path) {
    const QString t = text(v, path);
    if (t == QLatin1String("nan")) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    bool ok = false;
    const double d = t.toDouble(&ok);
    if (!ok && t != QLatin1String("inf") && t != QLatin1String("-inf")) {
        throw InputError(path, QStringLiteral("expected a number as text, got ") + describe(v));
    }
    return ok ? d
              : (t.startsWith(QLatin1Char('-')) ? -std::numeric_limits<double>::infinity()
                                                : std::numeric_limits<double>::infinity());
}

bool StrictJson::boolean(const QJsonValue& v, const QString& path) {
    if (!v.isBool()) {
        throw InputError(path, QStringLiteral("expected true or false, got ") + describe(v));
    }
    return v.toBool();
}

}  // namespace ratelab
