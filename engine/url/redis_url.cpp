#include "url/redis_url.h"

#include <QByteArray>
#include <QList>
#include <QStringDecoder>
#include <QStringList>
#include <QStringView>
#include <limits>

#include "input_error.h"
#include "url/sentinel_url.h"
#include "url/url_text.h"

namespace ratelab {

namespace {

using url_text::authorityEnd;
using url_text::percentDecode;

// Error messages quote only parts that cannot hold the password: the scheme (when it is a valid
// scheme name), host, port, database and query names. Everything is checked after the user info
// has been cut off, and the user info itself is never quoted.

QString expectedForms() {
    return QStringLiteral(
        "expected redis://host[:port][/db], unix:///path/to/socket[?db=N], "
        "redis-cluster://host:port[,host:port...], "
        "redis-sentinel://host:port[,host:port...]/MASTER_NAME, or rediss:// / rediss-cluster:// "
        "for TLS");
}

bool isAsciiDigit(QChar c) {
    return c.unicode() >= '0' && c.unicode() <= '9';
}

bool isAsciiLetter(QChar c) {
    return (c.unicode() >= 'a' && c.unicode() <= 'z') || (c.unicode() >= 'A' && c.unicode() <= 'Z');
}

bool isHexDigit(QChar c) {
    return isAsciiDigit(c) || (c.unicode() >= 'a' && c.unicode() <= 'f') ||
           (c.unicode() >= 'A' && c.unicode() <= 'F');
}

bool isDigits(QStringView text) {
    if (text.isEmpty()) {
        return false;
    }
    for (QChar c : text) {
        if (!isAsciiDigit(c)) {
            return false;
        }
    }
    return true;
}

// RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
bool isSchemeName(QStringView text) {
    if (text.isEmpty() || !isAsciiLetter(text.front())) {
        return false;
    }
    for (QChar c : text) {
        if (!isAsciiLetter(c) && !isAsciiDigit(c) && c != u'+' && c != u'-' && c != u'.') {
            return false;
        }
    }
    return true;
}

bool isHostName(QStringView text) {
    for (QChar c : text) {
        if (!isAsciiLetter(c) && !isAsciiDigit(c) && c != u'-' && c != u'.' && c != u'_') {
            return false;
        }
    }
    return true;
}

// A loose check: the server resolves the address; this only catches typos and junk.
bool isIpv6Address(QStringView text) {
    if (!text.contains(u':')) {
        return false;
    }
    for (QChar c : text) {
        if (!isHexDigit(c) && c != u':' && c != u'.') {
            return false;
        }
    }
    return true;
}

// Decimal number in [min, max]; `range` describes the bounds for messages.
int parseNumber(QStringView text, int min, int max, const QString& where, const QString& range) {
    if (text.isEmpty()) {
        throw InputError(where, QStringLiteral("is empty (expected %1)").arg(range));
    }
    if (!isDigits(text)) {
        throw InputError(where,
                         QStringLiteral("\"%1\" is not a number (expected %2)").arg(text, range));
    }
    bool ok = false;
    const qlonglong value = text.toLongLong(&ok);  // fails only on overflow here
    if (!ok || value < min || value > max) {
        throw InputError(where,
                         QStringLiteral("%1 is out of range (expected %2)").arg(text, range));
    }
    return static_cast<int>(value);
}

int parsePort(QStringView text) {
    return parseNumber(text, 1, 65535, QStringLiteral("URL port"), QStringLiteral("1..65535"));
}

int parseDb(QStringView text) {
    const int max = std::numeric_limits<int>::max();
    return parseNumber(text, 0, max, QStringLiteral("URL database"),
                       QStringLiteral("0..%1").arg(max));
}

// "[user]:[password]": both parts optional and percent-encoded; the first ':' separates them.
// User info without ':' is refused: some clients read "redis://SECRET@host" as a password,
// others as a user name, which would be sent without it and shown in messages.
void setUserInfo(QStringView info, RedisUrl& url) {
    const qsizetype colon = info.indexOf(u':');
    if (colon < 0 && !info.isEmpty()) {
        throw InputError(QStringLiteral("URL user info"),
                         QStringLiteral("has no ':', so it is unclear whether it is a user or a "
                                        "password (not shown): write redis://:PASSWORD@host for a "
                                        "password, redis://USER:PASSWORD@host for an ACL user, or "
                                        "redis://USER:@host with the password in REDISCLI_AUTH"));
    }
    url.user = percentDecode(colon < 0 ? info : info.left(colon), QStringLiteral("URL user"));
    if (colon >= 0) {
        url.password = percentDecode(info.mid(colon + 1), QStringLiteral("URL password"));
    }
}

// The authority (user info and host) ends at the first '/', '?' or '#' (RFC 3986).

void refuseFragment(QStringView tail) {
    if (tail.contains(u'#')) {
        throw InputError(QStringLiteral("URL"),
                         QStringLiteral("has a fragment ('#...'), which Redis URLs do not take "
                                        "(write '#' in a password as %23)"));
    }
}

// "host[:port]" where host may be "[IPv6]".
void parseHostPort(QStringView text, RedisUrl& url) {
    const QString where = QStringLiteral("URL host");
    QStringView host;
    QStringView portPart;  // empty, or ":port"
    if (text.startsWith(u'[')) {
        const qsizetype close = text.indexOf(u']');
        if (close < 0) {
            throw InputError(where, QStringLiteral("has '[' without a closing ']'"));
        }
        host = text.mid(1, close - 1);
        if (!isIpv6Address(host)) {
            throw InputError(
                where, QStringLiteral("\"%1\" is not an IPv6 address").arg(text.left(close + 1)));
        }
        portPart = text.mid(close + 1);
        if (!portPart.isEmpty() && !portPart.startsWith(u':')) {
            throw InputError(where, QStringLiteral("expected ':port' or '/db' after ']'"));
        }
    } else {
        const qsizetype colon = text.indexOf(u':');
        host = colon < 0 ? text : text.left(colon);
        portPart = colon < 0 ? QStringView() : text.mid(colon);
        if (portPart.count(u':') > 1) {
            throw InputError(where, QStringLiteral("an IPv6 address must be in brackets, "
                                                   "e.g. redis://[::1]:6379"));
        }
        if (host.isEmpty()) {
            throw InputError(where, QStringLiteral("is empty (e.g. redis://127.0.0.1:6379)"));
        }
        if (!isHostName(host)) {
            throw InputError(where,
                             QStringLiteral("\"%1\" is not a host name or address").arg(host));
        }
    }
    url.host = host.toString();
    if (!portPart.isEmpty()) {
        url.port = parsePort(portPart.mid(1));
    }
}

// "[[user]:password@]HOSTS[/path][?query]" (redis:// and redis-cluster://): sets the user
// info, refuses a fragment or a query, and returns the hosts part and the path.
struct Authority {
    QStringView hosts;
    QStringView path;  // "", or "/..."
};
Authority splitAuthority(QStringView rest, RedisUrl& url, const QString& noQuery) {
    const url_text::Authority parts = url_text::splitUserInfo(rest, url);
    if (parts.tail.contains(u'?')) {
        throw InputError(QStringLiteral("URL query"), noQuery);
    }
    return Authority{parts.hosts, parts.tail};
}

// After "redis://": [[user]:password@]host[:port][/db]
RedisUrl parseTcp(QStringView rest) {
    RedisUrl url;
    const Authority parts =
        splitAuthority(rest, url,
                       QStringLiteral("redis:// URLs take no query; give the database as the path "
                                      "(redis://host:port/db)"));
    parseHostPort(parts.hosts, url);
    if (parts.path.size() > 1) {  // "" and "/" both mean db 0
        url.db = parseDb(parts.path.mid(1));
    }
    return url;
}

// After "redis-cluster://": [[user]:password@]host:port[,host:port...][/0]
RedisUrl parseCluster(QStringView rest) {
    RedisUrl url;
    url.transport = RedisUrl::Transport::Cluster;
    const Authority parts =
        splitAuthority(rest, url, QStringLiteral("redis-cluster:// URLs take no query"));
    if (parts.path.size() > 1 && parseDb(parts.path.mid(1)) != 0) {
        throw InputError(QStringLiteral("URL database"),
                         QStringLiteral("a Redis Cluster has database 0 only"));
    }
    constexpr int kMaxSeeds = 64;
    const QList<QStringView> seeds = parts.hosts.split(u',');
    if (seeds.size() > kMaxSeeds) {
        throw InputError(QStringLiteral("URL host"),
                         QStringLiteral("more than %1 seed nodes").arg(kMaxSeeds));
    }
    for (QStringView part : seeds) {
        if (part.isEmpty()) {
            throw InputError(QStringLiteral("URL host"),
                             QStringLiteral("has an empty seed node (e.g. "
                                            "redis-cluster://127.0.0.1:7000,127.0.0.1:7001)"));
        }
        RedisUrl node;
        parseHostPort(part, node);
        const RedisUrl::HostPort seed{node.host, node.port};
        if (!url.seeds.contains(seed)) {
            url.seeds.push_back(seed);
        }
    }
    url.host = url.seeds.front().host;
    url.port = url.seeds.front().port;
    return url;
}

// After "unix://": [[user]:password@]/absolute/path[?db=N]
RedisUrl parseUnix(QStringView rest) {
    RedisUrl url;
    url.transport = RedisUrl::Transport::Unix;
    const QString pathWhere = QStringLiteral("URL path");
    const qsizetype end = authorityEnd(rest);
    if (end > 0) {  // user info, ended by an '@' right before the path's leading '/'
        if (!rest.left(end).endsWith(u'@')) {
            throw InputError(
                pathWhere,
                QStringLiteral("the socket path must be absolute: unix:///path/to/redis.sock or "
                               "unix://user:password@/path/to/redis.sock (percent-encode '/', "
                               "'?' and '#' in a password as %2F, %3F, %23)"));
        }
        setUserInfo(rest.left(end - 1), url);
    }
    const QStringView pathAndQuery = rest.mid(end);
    refuseFragment(pathAndQuery);
    const qsizetype question = pathAndQuery.indexOf(u'?');
    const QStringView path = question < 0 ? pathAndQuery : pathAndQuery.left(question);
    if (path.isEmpty()) {
        throw InputError(pathWhere,
                         QStringLiteral("is missing (e.g. unix:///run/redis/redis-server.sock)"));
    }
    if (path.endsWith(u'/')) {
        throw InputError(pathWhere, QStringLiteral("names a directory, not a socket file"));
    }
    url.socketPath = path.toString();
    if (question < 0) {
        return url;
    }
    bool sawDb = false;
    for (QStringView param : pathAndQuery.mid(question + 1).split(u'&')) {
        if (param.isEmpty()) {
            continue;  // tolerate "?" alone and "&&"
        }
        const qsizetype equals = param.indexOf(u'=');
        const QStringView name = equals < 0 ? param : param.left(equals);
        if (name != QLatin1String("db")) {
            throw InputError(
                QStringLiteral("URL query"),
                QStringLiteral("unknown parameter \"%1\" (only db=N is supported)").arg(name));
        }
        if (sawDb) {
            throw InputError(QStringLiteral("URL query"), QStringLiteral("db is given twice"));
        }
        sawDb = true;
        url.db = parseDb(equals < 0 ? QStringView() : param.mid(equals + 1));
    }
    return url;
}

}  // namespace

QString url_text::percentDecode(QStringView text, const QString& where) {
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == u'%' &&
            (i + 2 >= text.size() || !isHexDigit(text[i + 1]) || !isHexDigit(text[i + 2]))) {
            throw InputError(where, QStringLiteral("has a '%' not followed by two hex digits"));
        }
    }
    QStringDecoder fromUtf8(QStringDecoder::Utf8);
    const QString decoded = fromUtf8(QByteArray::fromPercentEncoding(text.toUtf8()));
    if (fromUtf8.hasError()) {
        throw InputError(where, QStringLiteral("is not valid UTF-8 once percent-decoded"));
    }
    return decoded;
}

url_text::Authority url_text::splitUserInfo(QStringView rest, RedisUrl& url) {
    const qsizetype end = authorityEnd(rest);
    QStringView authority = rest.left(end);
    const QStringView tail = rest.mid(end);
    if (tail.contains(u'@')) {
        throw InputError(QStringLiteral("URL"),
                         QStringLiteral("has '@' after the host: percent-encode '/', '?', '#' "
                                        "and '@' in a user or password (%2F, %3F, %23, %40)"));
    }
    const qsizetype at = authority.lastIndexOf(u'@');
    if (at >= 0) {
        setUserInfo(authority.left(at), url);
        authority = authority.mid(at + 1);
    }
    refuseFragment(tail);
    return Authority{authority, tail};
}

qsizetype url_text::authorityEnd(QStringView rest) {
    for (qsizetype i = 0; i < rest.size(); ++i) {
        if (rest[i] == u'/' || rest[i] == u'?' || rest[i] == u'#') {
            return i;
        }
    }
    return rest.size();
}

RedisUrl RedisUrl::parse(const QString& text) {
    const QString where = QStringLiteral("URL");
    if (text.isEmpty()) {
        throw InputError(where, QStringLiteral("is empty (%1)").arg(expectedForms()));
    }
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i].isSpace() || text[i].category() == QChar::Other_Control) {
            throw InputError(
                where,
                QStringLiteral("has whitespace or a control character at position %1").arg(i + 1));
        }
    }
    const qsizetype separator = text.indexOf(QLatin1String("://"));
    if (separator < 0) {
        throw InputError(where, QStringLiteral("has no \"://\" (%1)").arg(expectedForms()));
    }
    const QStringView scheme = QStringView(text).left(separator);
    const QStringView rest = QStringView(text).mid(separator + 3);
    if (scheme.compare(QLatin1String("redis"), Qt::CaseInsensitive) == 0) {
        return parseTcp(rest);
    }
    if (scheme.compare(QLatin1String("unix"), Qt::CaseInsensitive) == 0) {
        return parseUnix(rest);
    }
    if (scheme.compare(QLatin1String("redis-cluster"), Qt::CaseInsensitive) == 0) {
        return parseCluster(rest);
    }
    if (scheme.compare(QLatin1String("redis-sentinel"), Qt::CaseInsensitive) == 0) {
        return parseSentinelUrl(rest);
    }
    if (scheme.compare(QLatin1String("rediss"), Qt::CaseInsensitive) == 0) {
        RedisUrl url = parseTcp(rest);
        url.tls = true;
        return url;
    }
    if (scheme.compare(QLatin1String("rediss-cluster"), Qt::CaseInsensitive) == 0) {
        RedisUrl url = parseCluster(rest);
        url.tls = true;
        return url;
    }
    const QString schemeWhere = QStringLiteral("URL scheme");
    if (!isSchemeName(scheme)) {  // not quoted: it might be "user:password@host"
        throw InputError(schemeWhere,
                         QStringLiteral("is missing or malformed (expected redis://, rediss://, "
                                        "unix://, redis-cluster://, rediss-cluster:// or "
                                        "redis-sentinel://)"));
    }
    throw InputError(schemeWhere,
                     QStringLiteral("unsupported scheme \"%1\" (expected redis://, rediss://, "
                                    "unix://, redis-cluster://, rediss-cluster:// or "
                                    "redis-sentinel://)")
                         .arg(scheme));
}

QString RedisUrl::toDisplayString() const {
    if (transport == Transport::Sentinel) {
        return sentinelDisplayString(*this);
    }
    // The user is re-encoded so that the result parses back to the same URL.
    const QString shownUser = QString::fromLatin1(user.toUtf8().toPercentEncoding());
    QString userInfo;
    if (!password.isEmpty()) {
        userInfo = shownUser + QStringLiteral(":***@");
    } else if (!user.isEmpty()) {
        userInfo = shownUser + QStringLiteral(":@");  // "user@" alone is refused by parse()
    }
    if (transport == Transport::Unix) {
        QString shown = QStringLiteral("unix://") + userInfo + socketPath;
        if (db != 0) {
            shown += QStringLiteral("?db=") + QString::number(db);
        }
        return shown;
    }
    auto hostPort = [](const QString& h, int p) {
        return (h.contains(u':') ? QLatin1Char('[') + h + QLatin1Char(']') : h) + QLatin1Char(':') +
               QString::number(p);
    };
    if (transport == Transport::Cluster) {
        QStringList nodes;
        for (const HostPort& seed : seeds) {
            nodes.push_back(hostPort(seed.host, seed.port));
        }
        return (tls ? QStringLiteral("rediss-cluster://") : QStringLiteral("redis-cluster://")) +
               userInfo + nodes.join(QLatin1Char(','));
    }
    return (tls ? QStringLiteral("rediss://") : QStringLiteral("redis://")) + userInfo +
           hostPort(host, port) + QLatin1Char('/') + QString::number(db);
}

RedisUrl RedisUrl::nodeUrl(const QString& nodeHost, int nodePort) const {
    RedisUrl node;
    node.transport = Transport::Tcp;
    node.host = nodeHost;
    node.port = nodePort;
    node.db = 0;
    node.user = user;
    node.password = password;
    node.tls = tls;
    node.tlsFiles = tlsFiles;
    return node;
}

bool RedisUrl::operator==(const RedisUrl& other) const {
    return transport == other.transport && host == other.host && port == other.port &&
           socketPath == other.socketPath && db == other.db && user == other.user &&
           password == other.password && seeds == other.seeds && tls == other.tls &&
           tlsFiles == other.tlsFiles && masterName == other.masterName &&
           sentinelUser == other.sentinelUser && sentinelPassword == other.sentinelPassword;
}

}  // namespace ratelab
