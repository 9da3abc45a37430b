#pragma once

#include <QString>
#include <QVector>

namespace ratelab {

// What the read-only reader of a live Redisson RRateLimiter saw (RedissonLimiterReader,
// redisson_limiter_reader.h): plain values, so that a view can draw them without the reader.

// One grant record of a permits zset.
struct RedissonGrant {
    qint64 timeMs = 0;  // the zset score
    qint64 permits = 0;
    QString idHex;          // the record's random id, hex
    bool inWindow = false;  // younger than interval at the snapshot's now
};

// One bucket: the whole limiter (OVERALL) or one Redisson client (PER_CLIENT).
struct RedissonScope {
    QString clientId;  // empty for OVERALL
    QString valueKey;
    QString permitsKey;
    bool hasValue = false;  // false: the value key is absent (the next acquire starts at rate)
    qint64 storedValue = 0;
    qint64 valueTtlMs = -2;  // PTTL: -1 no expiry, -2 absent
    qint64 permitsTtlMs = -2;
    // The newest maxGrantsPerScope records, oldest first; the counts below count all of them.
    QVector<RedissonGrant> grants;
    int storedGrants = 0;
    int grantsInWindow = 0;  // records with score > now - interval
    qint64 permitsInWindow = 0;
    int expiredGrants = 0;  // score <= now - interval: Redisson drops them at the next acquire
    qint64 expiredPermits = 0;
    // The permit sums are exact when every record of their kind was read (at most
    // maxGrantsPerScope held ones, maxExpiredRecords expired ones). Past that they are derived
    // from the bucket value (value + held + expired permits = rate while the state is
    // consistent), kept at least what the records read hold, and `estimated` is set.
    bool estimated = false;
    qint64 unreadGrants = 0;  // records the sums did not read
    // What Redisson's next tryAcquire sees as the bucket value at now: rate when the value key
    // is absent; else the stored value plus the permits of expired records, repaired to
    // rate - permitsInWindow when that would exceed rate (RedissonRateLimiter's script).
    qint64 available = 0;
    // rate - permitsInWindow. Equals `available` whenever the state is consistent.
    qint64 availableFromGrants = 0;
    qint64 lastGrantMs = -1;    // the newest record's time, -1 without records
    qint64 nextReleaseMs = -1;  // when the oldest in-window record comes back (time + interval)
};

struct RedissonSnapshot {
    QString name;
    qint64 nowMs = 0;
    qint64 rate = 0;
    qint64 intervalMs = 0;
    bool perClient = false;  // type 1 (PER_CLIENT), else 0 (OVERALL)
    qint64 keepAliveTimeMs = 0;
    qint64 configTtlMs = -1;
    QVector<RedissonScope> scopes;  // OVERALL: exactly one; PER_CLIENT: sorted by client id
    int totalScopes = 0;            // PER_CLIENT: clients found (scopes holds maxScopes of them)
};

}  // namespace ratelab
