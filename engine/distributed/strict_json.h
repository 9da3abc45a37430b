#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace ratelab {

// The strict reader of what crosses a queue (a batch's result, a hunt's job): every member
// present with its type, else an InputError naming the JSON path and what was found there.
class StrictJson {
public:
    static QJsonValue member(const QJsonObject& o, const QString& path, const char* key);
    static QJsonObject object(const QJsonValue& v, const QString& path);
    static QJsonArray array(const QJsonValue& v, const QString& path);
    // An integer exactly (a JSON number with no fraction, |n| <= 2^53).
    static qint64 integer(const QJsonValue& v, const QString& path);
    static QString text(const QJsonValue& v, const QString& path);
    // A double written as text ("nan", "inf" and "-inf" too).
    static double number(const QJsonValue& v, const QString& path);
    static bool boolean(const QJsonValue& v, const QString& path);
};

}  // namespace ratelab
