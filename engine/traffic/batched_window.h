#pragma once

#include <QString>
#include <mutex>
#include <string>
#include <unordered_map>

#include "limiters/limiter.h"

namespace ratelab {

class RedisRouter;

// One gateway's fixed window in mode "batched": per window key the count Redis held at its last
// read (known) and the grants it has not added yet (pending). It reads a key the first time it
// needs it (GET); at its first decision at or after each sync instant (multiples of sync_ms
// from the run's start) it adds every key's pending with one INCRBY (and the window's TTL) and
// reads the request's key if no INCRBY just did. It grants while known + pending + permits <=
// rate. Thread-safe (one lock).
class BatchedWindow {
public:
    // A decision at `runMs` (ms since the run's start); calledRedis says whether it read or
    // synced. Throws RedisError.
    Decision decide(const Limiter& limiter, RedisRouter& router, const Request& request,
                    qint64 runMs);
    // Adds what is still pending (the run's end).
    void flush(const Limiter& limiter, RedisRouter& router);

private:
    struct Count {
        qint64 known = 0;
        qint64 pending = 0;
        qint64 ttlMs = 0;
    };
    // INCRBY + PEXPIRE for every key with pending grants; true when it synced `key`.
    bool sync(const Limiter& limiter, RedisRouter& router, const std::string& key);

    std::mutex mutex_;
    std::unordered_map<std::string, Count> counts_;
    qint64 nextSyncMs_ = 0;
};

}  // namespace ratelab
