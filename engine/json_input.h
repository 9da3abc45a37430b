#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <initializer_list>
#include <vector>

#include "input_error.h"

namespace ratelab::json_input {

// Shared by the spec and scenario parsers: reading user JSON with messages that name the place
// (a JSON path or "line L, column C") and what was found there. Errors are InputErrors.

// Text in double quotes as JSON would write it, cut short when long.
QString quoted(const QString& text);
// `text` safe to show on a terminal: every control character (C0, DEL, C1) but the line feed and
// the tab written as \u001b, so that input echoed in a message (a log's line, a client's name)
// cannot move the cursor, recolour or retitle the terminal.
QString printable(const QString& text);
QString formatNumber(double value);
// A value as it appears in messages: `-1`, `"10" (a string)`, `true (a boolean)`, `null`.
QString describe(const QJsonValue& value);
// "$.rate", or "$[\"my key\"]" for keys that are not plain identifiers.
QString memberPath(const QString& path, const QString& key);
QString elementPath(const QString& path, qsizetype index);  // "$.rules[2]"
QString oneOf(const QStringList& names);                    // "a, b or c"

void refuseUnknownFields(const QJsonObject& object, const QString& path,
                         std::initializer_list<QLatin1String> known);
void refuseUnknownFields(const QJsonObject& object, const QString& path,
                         const std::vector<QLatin1String>& known);
QJsonValue required(const QJsonObject& object, const QString& path, QLatin1String key);
QString readString(const QJsonValue& value, const QString& where);
// A name (a limiter's, a scenario's) shown in terminals, key names and XML: an InputError at
// `where` when it holds a control character (C0, DEL, C1: "got U+001B") or a lone surrogate
// (half of a UTF-16 pair, which no UTF-8 or XML can hold: "got a lone surrogate U+D800").
void refuseBadNameCharacters(const QString& name, const QString& where);

// One of a fixed set of names (a limiter type, a unit, a shape, a mode): `noun` names the kind
// in the message, `nameOf` gives each choice's name.
template <typename Enum, size_t N>
Enum readChoice(const QJsonValue& value, const QString& where, const QString& noun,
                const Enum (&choices)[N], QString (*nameOf)(Enum)) {
    const QString text = readString(value, where);
    QStringList names;
    for (const Enum choice : choices) {
        if (nameOf(choice) == text) {
            return choice;
        }
        names << nameOf(choice);
    }
    throw InputError(
        where, QStringLiteral("unknown %1 %2; expected %3").arg(noun, quoted(text), oneOf(names)));
}

// "line L, column C" of a parse error, in characters.
QString lineColumn(const QByteArray& text, const QJsonParseError& error);
// The top-level JSON object of a text; malformed JSON or another top-level value is an error.
QJsonObject parseObject(const QByteArray& json);
// A whole small file (read in bounded pieces, so pipes and special files are bounded too);
// `what` names the content in the message for an oversized file ("a limiter spec is a few lines
// of JSON"). Unreadable, empty and oversized files are errors naming the path; a regular file
// over the limit is refused from its size, unread, and the message names the size.
QByteArray readSmallFile(const QString& path, qint64 maxBytes, const QString& what);

}  // namespace ratelab::json_input
