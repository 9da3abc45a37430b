#include "url/sentinel_url.h"

#include <QByteArray>
#include <QList>
#include <QStringList>

#include "input_error.h"
#include "url/url_text.h"

namespace ratelab {
namespace {

using url_text::percentDecode;

// The user info is split off as for redis:// (url_text::splitUserInfo), and each host and port
// is checked by RedisUrl::parse on a redis:// URL built from that part alone, so both schemes
// give the same messages for the same mistakes (and neither quotes a password).

QString example() {
    return QStringLiteral("e.g. redis-sentinel://127.0.0.1:26379,127.0.0.1:26380/mymaster");
}

QString percentEncode(const QString& text) {
    return QString::fromLatin1(text.toUtf8().toPercentEncoding());
}

// One sentinel, "host[:port]" or "[IPv6][:port]"; the port defaults to 26379, not 6379.
RedisUrl::HostPort parseSentinel(QStringView part) {
    if (part.isEmpty()) {
        throw InputError(QStringLiteral("URL host"),
                         QStringLiteral("has an empty sentinel address (%1)").arg(example()));
    }
    const RedisUrl parsed = RedisUrl::parse(QStringLiteral("redis://") + part.toString());
    const bool hasPort = part.lastIndexOf(u':') > part.lastIndexOf(u']');
    return RedisUrl::HostPort{parsed.host, hasPort ? parsed.port : kDefaultSentinelPort};
}

void parseQuery(QStringView query, RedisUrl& url) {
    const QString where = QStringLiteral("URL query");
    bool sawDb = false;
    bool sawUser = false;
    bool sawPassword = false;
    for (QStringView param : query.split(u'&')) {
        if (param.isEmpty()) {
            continue;  // tolerate "?" alone and "&&"
        }
        const qsizetype equals = param.indexOf(u'=');
        const QStringView name = equals < 0 ? param : param.left(equals);
        const QStringView value = equals < 0 ? QStringView() : param.mid(equals + 1);
        bool* seen = name == QLatin1String("db")                  ? &sawDb
                     : name == QLatin1String("sentinel_user")     ? &sawUser
                     : name == QLatin1String("sentinel_password") ? &sawPassword
                                                                  : nullptr;
        if (seen == nullptr) {
            throw InputError(where, QStringLiteral("unknown parameter \"%1\" (expected db, "
                                                   "sentinel_user or sentinel_password)")
                                        .arg(name));
        }
        if (*seen) {
            throw InputError(where, QStringLiteral("%1 is given twice").arg(name));
        }
        *seen = true;
        if (value.isEmpty()) {
            throw InputError(where, QStringLiteral("%1 has no value").arg(name));
        }
        if (name == QLatin1String("db")) {
            url.db = RedisUrl::parse(QStringLiteral("redis://127.0.0.1/") + value.toString()).db;
        } else if (name == QLatin1String("sentinel_user")) {
            url.sentinelUser = percentDecode(value, QStringLiteral("URL sentinel_user"));
        } else {
            url.sentinelPassword = percentDecode(value, QStringLiteral("URL sentinel_password"));
        }
    }
    if (sawUser && !sawPassword) {
        throw InputError(where, QStringLiteral("sentinel_user needs sentinel_password (AUTH "
                                               "takes a user only with a password)"));
    }
}

}  // namespace

RedisUrl parseSentinelUrl(QStringView rest) {
    RedisUrl url;
    url.transport = RedisUrl::Transport::Sentinel;
    const url_text::Authority split = url_text::splitUserInfo(rest, url);
    const QStringView authority = split.hosts;
    const QStringView tail = split.tail;
    constexpr int kMaxSentinels = 64;
    const QList<QStringView> parts = authority.split(u',');
    if (parts.size() > kMaxSentinels) {
        throw InputError(QStringLiteral("URL host"),
                         QStringLiteral("more than %1 sentinels").arg(kMaxSentinels));
    }
    for (QStringView part : parts) {
        const RedisUrl::HostPort sentinel = parseSentinel(part);
        if (!url.seeds.contains(sentinel)) {
            url.seeds.push_back(sentinel);
        }
    }
    url.host = url.seeds.front().host;
    url.port = url.seeds.front().port;

    const QString nameWhere = QStringLiteral("URL master name");
    const qsizetype question = tail.indexOf(u'?');
    const QStringView path = question < 0 ? tail : tail.left(question);
    if (path.size() <= 1) {  // "" or "/"
        throw InputError(nameWhere,
                         QStringLiteral("is missing: the path names the primary the sentinels "
                                        "monitor (%1)")
                             .arg(example()));
    }
    const QStringView name = path.mid(1);
    if (name.contains(u'/')) {
        throw InputError(nameWhere,
                         QStringLiteral("has a '/': the path is the master name alone; give the "
                                        "database as ?db=N (percent-encode '/' in a name as %2F)"));
    }
    url.masterName = percentDecode(name, nameWhere);
    if (question >= 0) {
        parseQuery(tail.mid(question + 1), url);
    }
    return url;
}

QString sentinelDisplayString(const RedisUrl& url) {
    QString userInfo;
    if (!url.password.isEmpty()) {
        userInfo = percentEncode(url.user) + QStringLiteral(":***@");
    } else if (!url.user.isEmpty()) {
        userInfo = percentEncode(url.user) + QStringLiteral(":@");
    }
    QStringList hosts;
    for (const RedisUrl::HostPort& s : url.seeds) {
        const QString host =
            s.host.contains(u':') ? QLatin1Char('[') + s.host + QLatin1Char(']') : s.host;
        hosts.push_back(host + QLatin1Char(':') + QString::number(s.port));
    }
    QStringList query;
    if (url.db != 0) {
        query.push_back(QStringLiteral("db=") + QString::number(url.db));
    }
    if (!url.sentinelUser.isEmpty()) {
        query.push_back(QStringLiteral("sentinel_user=") + percentEncode(url.sentinelUser));
    }
    if (!url.sentinelPassword.isEmpty()) {
        query.push_back(QStringLiteral("sentinel_password=***"));
    }
    QString shown = QStringLiteral("redis-sentinel://") + userInfo + hosts.join(QLatin1Char(',')) +
                    QLatin1Char('/') + percentEncode(url.masterName);
    if (!query.isEmpty()) {
        shown += QLatin1Char('?') + query.join(QLatin1Char('&'));
    }
    return shown;
}

RedisUrl sentinelNodeUrl(const RedisUrl& url, int index) {
    RedisUrl node;
    node.transport = RedisUrl::Transport::Tcp;
    node.host = url.seeds[index].host;
    node.port = url.seeds[index].port;
    node.db = 0;
    node.user = url.sentinelUser;
    node.password = url.sentinelPassword;
    return node;
}

}  // namespace ratelab
