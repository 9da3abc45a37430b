#pragma once

#include <QString>
#include <QStringView>

// Text helpers shared by the URL parsers (redis_url.cpp, sentinel_url.cpp).
namespace ratelab::url_text {

// Percent-decodes a URL part; throws InputError(where, ...) on a '%' without two hex digits or
// bytes that are not UTF-8. The message never quotes the text (it may be a password).
QString percentDecode(QStringView text, const QString& where);

// Where the authority ends: the first '/', '?' or '#', else the end.
qsizetype authorityEnd(QStringView rest);

}  // namespace ratelab::url_text
