#pragma once

#include <QString>
#include <QStringView>

#include "url/redis_url.h"

namespace ratelab {

// redis-sentinel://[[user]:password@]host[:port][,host[:port]...]/MASTER_NAME[?query]
//
// The hosts are the sentinels to ask (port 26379 by default); MASTER_NAME is the name the
// sentinels monitor the primary under. The URL's user and password are the data nodes' (the
// primary's), as in Redis's own clients: sentinels usually run without a password. Sentinels that
// do require one get it from the query. Query parameters (each at most once):
//   db=N                 the database on the primary (default 0)
//   sentinel_user=U      ACL user for AUTH on the sentinels (needs sentinel_password)
//   sentinel_password=P  AUTH on the sentinels (percent-encoded; never shown)
//
// Parses what follows "redis-sentinel://". Throws InputError naming the part that is wrong
// ("URL host", "URL port", "URL master name", "URL query", ...); no password is ever quoted.
RedisUrl parseSentinelUrl(QStringView rest);

// The URL with both passwords replaced by "***" (parses back to the same URL but for them).
QString sentinelDisplayString(const RedisUrl& url);

// A redis:// URL that reaches sentinel `index` of `url.seeds` with the sentinels' credentials.
RedisUrl sentinelNodeUrl(const RedisUrl& url, int index);

constexpr int kDefaultSentinelPort = 26379;

}  // namespace ratelab
