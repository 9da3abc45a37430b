// JSON-lines access logs: one object a line, with a time and a client field (nginx's
// escape=json log_format, Caddy's, Traefik's and most log shippers' output).

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>

#include "json_input.h"
#include "traffic/access_log_line.h"

namespace ratelab::access_log {
namespace {

constexpr double kMaxTimeMs = 9007199254740991.0;  // 2^53 - 1, as a trace's t_ms

const QStringList& defaultClientFields() {
    static const QStringList fields = {
        QStringLiteral("remote_addr"),      QStringLiteral("client_ip"),
        QStringLiteral("remote_ip"),        QStringLiteral("ip"),
        QStringLiteral("client"),           QStringLiteral("request.remote_ip"),
        QStringLiteral("request.client_ip")};
    return fields;
}

const QStringList& defaultTimeFields() {
    static const QStringList fields = {QStringLiteral("time"),         QStringLiteral("timestamp"),
                                       QStringLiteral("ts"),           QStringLiteral("@timestamp"),
                                       QStringLiteral("time_iso8601"), QStringLiteral("time_local"),
                                       QStringLiteral("msec")};
    return fields;
}

QJsonObject objectOf(QStringView line) {
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(line.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError) {
        throw LineError{QStringLiteral("not JSON: %1 at character %2")
                            .arg(error.errorString())
                            .arg(error.offset + 1)};
    }
    if (!document.isObject()) {
        throw LineError{QStringLiteral("expected a JSON object, got %1")
                            .arg(document.isArray() ? QStringLiteral("an array")
                                                    : QStringLiteral("another value"))};
    }
    return document.object();
}

// The member at a dotted path ("request.remote_ip"): by exact name, else by name ignoring
// case (headers); an array stands for its first element. Undefined when absent.
QJsonValue at(const QJsonObject& object, const QString& path) {
    QJsonValue value = object;
    for (const QString& name : path.split(QLatin1Char('.'))) {
        while (value.isArray()) {
            value = value.toArray().first();
        }
        if (!value.isObject()) {
            return QJsonValue(QJsonValue::Undefined);
        }
        const QJsonObject members = value.toObject();
        if (members.contains(name)) {
            value = members.value(name);
            continue;
        }
        value = QJsonValue(QJsonValue::Undefined);
        for (auto it = members.begin(); it != members.end(); ++it) {
            if (it.key().compare(name, Qt::CaseInsensitive) == 0) {
                value = it.value();
                break;
            }
        }
    }
    while (value.isArray() && !value.toArray().isEmpty()) {
        value = value.toArray().first();
    }
    return value;
}

// Seconds, milliseconds, microseconds or nanoseconds since the epoch, told apart by size.
qint64 epochMsOf(double number) {
    double ms = number < 1e11   ? number * 1000
                : number < 1e14 ? number
                : number < 1e17 ? number / 1e3
                                : number / 1e6;
    ms = std::floor(ms + 0.5);
    return std::isfinite(ms) && ms >= 0 && ms <= kMaxTimeMs ? qint64(ms) : -1;
}

qint64 timeMsOf(const QJsonValue& value, const QString& field) {
    const QString expected =
        QStringLiteral(
            "expected %1 to be seconds since the epoch (or ms, µs, ns), an ISO 8601 "
            "time with an offset or the combined format's time")
            .arg(field);
    if (value.isDouble()) {
        const qint64 ms = epochMsOf(value.toDouble());
        if (ms < 0) {
            throw LineError{expected + QStringLiteral(", got %1").arg(value.toDouble())};
        }
        return ms;
    }
    if (!value.isString()) {
        throw LineError{expected + QStringLiteral(", got ") +
                        (value.isUndefined() ? QStringLiteral("no such field")
                                             : QStringLiteral("a value of another type"))};
    }
    const QString text = value.toString().trimmed();
    bool isNumber = false;
    const double number = text.toDouble(&isNumber);
    qint64 ms = isNumber ? epochMsOf(number) : clfTimeMs(text);
    if (!isNumber && ms < 0) {
        const QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
        // Without an offset Qt reads local time: a trace made on another machine would differ.
        ms = time.isValid() && time.timeSpec() != Qt::LocalTime ? time.toMSecsSinceEpoch() : -1;
    }
    if (ms < 0 || double(ms) > kMaxTimeMs) {
        throw LineError{expected + QStringLiteral(", got ") + json_input::quoted(text)};
    }
    return ms;
}

QString firstPresent(const QJsonObject& object, const QStringList& candidates) {
    for (const QString& path : candidates) {
        if (!at(object, path).isUndefined()) {
            return path;
        }
    }
    return {};
}

}  // namespace

JsonFields jsonFieldsOf(QStringView line, const AccessLogOptions& options) {
    const QJsonObject object = objectOf(line);
    JsonFields fields{options.clientField, options.timeField};
    if (fields.time.isEmpty()) {
        fields.time = firstPresent(object, defaultTimeFields());
        if (fields.time.isEmpty()) {
            throw LineError{QStringLiteral("no time field: none of %1; name it with --time-field")
                                .arg(defaultTimeFields().join(QStringLiteral(", ")))};
        }
    }
    if (fields.client.isEmpty()) {
        fields.client = firstPresent(object, defaultClientFields());
        if (fields.client.isEmpty()) {
            throw LineError{QStringLiteral("no client field: none of %1; name it with --client")
                                .arg(defaultClientFields().join(QStringLiteral(", ")))};
        }
    }
    return fields;
}

Request parseJsonLine(QStringView line, const JsonFields& fields) {
    const QJsonObject object = objectOf(line);
    Request r;
    r.tMs = timeMsOf(at(object, fields.time), fields.time);
    const QJsonValue client = at(object, fields.client);
    if (client.isString()) {
        r.client = client.toString();
    } else if (client.isDouble()) {
        r.client = QString::number(client.toDouble(), 'g', 17);
    } else {
        throw LineError{QStringLiteral("expected the client field %1 to be a string or a number, "
                                       "got %2")
                            .arg(fields.client, client.isUndefined()
                                                    ? QStringLiteral("no such field")
                                                    : QStringLiteral("a value of another type"))};
    }
    return r;
}

}  // namespace ratelab::access_log
