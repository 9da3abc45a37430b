#pragma once

#include <QString>
#include <atomic>
#include <functional>

#include "distributed/job_queue.h"
#include "redis/connect_options.h"
#include "url/redis_url.h"

namespace ratelab {

// Who a worker is and where it works (`ratelab worker`, and a distributed sweep's coordinator,
// which works batches too).
struct WorkerIdentity {
    QueueKeys queue;
    RedisUrl url;  // the worker's own: its limiters decide there, its queue is there
    ConnectOptions options;
    QString version;         // its ratelab's; a batch of another is refused
    QString consumer;        // its name in the group, "host:pid"
    qint64 claimMs = 30000;  // a batch pending longer at another worker is claimed
};

// "host:pid" of this process, with `suffix` when given ("host:pid:coordinator").
QString consumerName(const QString& suffix = {});

// Takes a queue's batches one at a time and works each: decided against its own URL, its
// result posted to the job's results stream, then acknowledged. A batch of a job that is over
// is acknowledged and skipped; one it cannot work (another ratelab version, a scenario it
// cannot read here, stopped) it refuses with a reason in the results stream and leaves pending,
// for another worker or the coordinator to claim. `log` gets one line per event.
class QueueWorker {
public:
    using Log = std::function<void(const QString&)>;
    QueueWorker(WorkerIdentity identity, Log log);

    // Takes one batch (waiting up to `blockMs` for one) and works it; false when none came.
    // Throws RedisError when the queue cannot be read.
    bool step(const std::atomic<bool>& stop, qint64 blockMs);
    // Claims batch entry `id` whoever holds it and works it (a refused batch). Throws RedisError.
    bool workClaimed(const std::atomic<bool>& stop, const QByteArray& id);
    // step() until `stop`, through Redis outages (logged once each, retried with backoff); at
    // the end leaves the group when it holds no batch.
    void run(const std::atomic<bool>& stop);

    qint64 batchesDone() const { return done_; }
    JobQueue& queue() { return queue_; }

private:
    void work(const StreamEntry& entry, bool claimed, const std::atomic<bool>& stop);
    void refuse(const StreamEntry& entry, const QString& reason);

    WorkerIdentity identity_;
    Log log_;
    JobQueue queue_;
    qint64 done_ = 0;
};

}  // namespace ratelab
