#pragma once

#include <QString>
#include <QStringView>

#include "url/redis_url.h"

// Text helpers shared by the URL parsers (redis_url.cpp, sentinel_url.cpp).
namespace ratelab::url_text {

// Percent-decodes a URL part; throws InputError(where, ...) on a '%' without two hex digits or
// bytes that are not UTF-8. The message never quotes the text (it may be a password).
QString percentDecode(QStringView text, const QString& where);

// Where the authority ends: the first '/', '?' or '#', else the end.
qsizetype authorityEnd(QStringView rest);

// "[[user]:password@]HOSTS" and what follows it ("/path?query"), after the scheme: sets `url`'s
// user and password from the user info (the last '@' ends it, so an unencoded '@' in a password
// works) and returns the hosts and the tail. Refuses an '@' after the hosts (a password with an
// unencoded '/', '?' or '#': stopped before any of it reaches a message) and a fragment.
struct Authority {
    QStringView hosts;
    QStringView tail;  // "", or from the first '/', '?' or '#'
};
Authority splitUserInfo(QStringView rest, RedisUrl& url);

}  // namespace ratelab::url_text
