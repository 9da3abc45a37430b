#pragma once

#include <QString>
#include <optional>
#include <vector>

#include "limiters/limiter.h"
#include "redis/redis_router.h"

namespace ratelab {

// A script limiter on its arguments' clock ("clock": "args") run on a virtual clock: Redis
// expires its keys on its own clock, which the run's does not move, so a key whose TTL is
// shorter than the trace's span may have vanished where the script's decision depended on it
// (a window kept by PEXPIRE). The key with the shortest such TTL, to warn about.
struct ShortScriptTtl {
    QString limiter;
    QString key;
    qint64 ttlMs = 0;
};

// Looks at up to `maxKeys` keys of each script limiter of `limiters` (its reset patterns, on
// every master) and returns, per limiter that has one, the key with the shortest TTL below
// `spanMs`. Read-only (SCAN, PTTL). Throws RedisError when Redis fails.
std::vector<ShortScriptTtl> shortScriptTtls(RedisRouter& router,
                                            const std::vector<const Limiter*>& limiters,
                                            qint64 spanMs, int maxKeys = 1000);

// "limiter 'x': key {x}:alice holds a TTL of 1000 ms, shorter than the trace's 60000 ms …"
QString shortScriptTtlWarning(const ShortScriptTtl& found, qint64 spanMs);

}  // namespace ratelab
