#pragma once

#include <QVector>
#include <atomic>
#include <vector>

#include "limiters/limiter.h"
#include "redis/connect_options.h"
#include "stats/error_cause.h"
#include "url/redis_url.h"

namespace ratelab {

struct BenchOptions {
    int connections = 1;  // per node of a cluster: one router (a connection per master) each
    int pipeline = 1;
    qint64 requests = 100'000;  // in total, split over the connections
    int clients = 100;          // per_client scopes spread over this many client ids
    ConnectOptions connect;     // commandTimeout: the deadline of each pipelined batch
    const std::atomic<bool>* stop = nullptr;  // once true, no new batch starts
};

struct BenchResult {
    // Decisions per node ("host:port"; a single server: its URL, password masked).
    struct Node {
        QString name;
        qint64 decisions = 0;
    };
    QVector<Node> nodes;
    qint64 decisions = 0;
    qint64 accepted = 0;
    qint64 rejected = 0;
    qint64 errors = 0;
    qint64 errorCauses[kErrorCauses] = {};  // the errors by cause
    bool stopped = false;                   // *stop ended it before every request was sent
    double seconds = 0;
    double decisionsPerSecond() const { return seconds > 0 ? double(decisions) / seconds : 0; }
};

// Closed-loop decision throughput: each connection (own thread, own router) keeps `pipeline`
// EVALSHA calls in flight with now = the wall clock, going round the limiters (against a
// cluster, limiters with different names spread over the masters; each batch is pipelined per
// node). Timed from a common start to the last reply. Throws RedisError if Redis cannot be
// reached at the start.
BenchResult runThroughputBench(const std::vector<const Limiter*>& limiters, const RedisUrl& url,
                               const BenchOptions& options);
BenchResult runThroughputBench(const Limiter& limiter, const RedisUrl& url,
                               const BenchOptions& options);

// The equivalent redis-benchmark invocation (same script, keys and arguments; "now" fixed at
// nowMs), so the engine's overhead over raw Redis can be measured on the same server.
QString redisBenchmarkCommand(const Limiter& limiter, const RedisUrl& url,
                              const BenchOptions& options, qint64 nowMs);

}  // namespace ratelab
