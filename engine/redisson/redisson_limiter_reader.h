#pragma once

#include <QString>
#include <QStringList>
#include <QVector>
#include <memory>
#include <string>

#include "redis/redis_error.h"
#include "redisson/redisson_snapshot.h"
#include "url/redis_url.h"

namespace ratelab {

class RedisConnection;

// Reads a live Redisson RRateLimiter (Redisson >= 3.17 layout) without writing anything:
//   hash   NAME                      {rate, interval (ms), type (0 OVERALL, 1 PER_CLIENT),
//                                     keepAliveTime (ms; older versions lack it: 0)}
//   string {NAME}:value[:<clientId>]  permits left, as the last acquire stored it
//   zset   {NAME}:permits[:<clientId>] score = grant time (ms, the acquiring client's clock),
//                                     member = struct.pack('Bc0I', n, <n random bytes>, permits)
// A NAME that already holds a '{' keeps its own hash tag: NAME:value, NAME:permits (Redisson's
// RedissonObject.suffixName). PER_CLIENT scopes are per Redisson client instance
// (ServiceManager id, a UUID), found with SCAN MATCH over the limiter's hash tag.
// ratelab's own token bucket writes this same layout (plus a {NAME}:clock key that is ignored
// here), so the reader also watches ratelab limiters.
//
// Only read commands are sent: TYPE, HGETALL, PTTL, GET, ZCOUNT, ZRANGE … WITHSCORES,
// ZRANGEBYSCORE … LIMIT and SCAN (readCommands()). A read-only ACL user (+@read) is enough.
// Its cost does not grow with the number of grants: per scope two counts and three range reads
// of at most Options' bounds (the newest records, the oldest expired ones, the oldest held one).

// The limiter's config hash does not exist. (A Reply-kind RedisError: the connection is fine.)
class RedissonNotFound : public RedisError {
public:
    explicit RedissonNotFound(const std::string& message)
        : RedisError(RedisError::Kind::Reply, message) {}
};

class RedissonLimiterReader {
public:
    struct Options {
        int maxGrantsPerScope = 2000;  // the newest records read and kept (for the chart)
        int maxExpiredRecords = 2000;  // the oldest expired records read (for their permits)
        int maxScopes = 256;
    };

    // Throws InputError (where "--redisson") for an empty name or one with control characters.
    explicit RedissonLimiterReader(const QString& name);
    RedissonLimiterReader(const QString& name, Options options);

    // Reads the limiter at nowMs (the watcher's clock). Throws RedissonNotFound when the
    // config hash is missing, RedisError(Kind::Reply) naming the key when any key holds
    // something Redisson would not have written (wrong type, short record, non-numeric field),
    // and RedisError of a connection kind when Redis fails.
    RedissonSnapshot read(RedisConnection& connection, qint64 nowMs) const;

    const QString& name() const { return name_; }
    std::string configKey() const;
    std::string valueKey(const QString& clientId = QString()) const;
    std::string permitsKey(const QString& clientId = QString()) const;
    // The SCAN MATCH pattern of the limiter's hash tag: "{NAME}:*" with glob characters escaped.
    std::string scanPattern() const;

    // Every command the reader may send (upper case). All are in Redis's @read category.
    static const QStringList& readCommands();

private:
    std::string suffixed(const std::string& suffix) const;

    QString name_;
    std::string raw_;
    Options options_;
};

// The one place the watcher (command line and window) opens its Redis connection: every key
// it reads shares the limiter's hash tag, so with Redis Cluster this is where the connection
// goes to the node that owns that tag. Throws RedisError(Kind::Connect).
std::unique_ptr<RedisConnection> openRedissonConnection(const RedisUrl& url,
                                                        const RedissonLimiterReader& reader);

// Redisson's RedissonObject.suffixName: "{name}:suffix", or "name:suffix" when the name
// already holds a '{'.
std::string redissonSuffixName(const std::string& name, const std::string& suffix);

}  // namespace ratelab
