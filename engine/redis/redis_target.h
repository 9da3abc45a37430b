#pragma once

#include <memory>

#include "redis/local_redis_server.h"
#include "url/redis_url.h"

namespace ratelab {

// Where a run talks to Redis: the URL given on the command line (or in the window), else
// $REDIS_URL, else a managed local redis-server started here and stopped with this object.
// A URL without a password takes one from $REDISCLI_AUTH, as redis-cli does.
// A rediss:// URL takes each TLS file not given explicitly from $REDIS_TLS_CA_CERT,
// $REDIS_TLS_CERT and $REDIS_TLS_KEY (ignored for other URLs).
class RedisTarget {
public:
    // Throws InputError for a bad URL (where = "--redis" or "REDIS_URL"), for TLS files given
    // without a rediss:// URL or that cannot be used (where = the option or variable), and
    // RedisError when the local server cannot start.
    static RedisTarget resolve(const QString& explicitUrl,
                               const RedisUrl::TlsFiles& explicitTls = {});

    const RedisUrl& url() const { return url_; }
    bool managed() const { return local_ != nullptr; }
    // "managed local redis-server (pid N)" or the URL with its password masked.
    QString description() const;

private:
    RedisUrl url_;
    std::shared_ptr<LocalRedisServer> local_;
};

}  // namespace ratelab
