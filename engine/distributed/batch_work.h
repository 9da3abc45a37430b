#pragma once

#include <QByteArray>
#include <QString>
#include <atomic>
#include <functional>

#include "distributed/queue_messages.h"
#include "redis/connect_options.h"
#include "url/redis_url.h"

namespace ratelab {

// One attempt at a batch on a worker's own Redis.
struct BatchAttempt {
    bool whole = false;  // it ran to its end (not stopped, nothing missing)
    QByteArray data;     // the result's data (sweep_result_json.h, hunt_job_json.h) when whole
    qint64 decisions = 0;
    qint64 failedDecisions = 0;  // a sweep's errors: the batch is worked again
    QString note;                // what the worker's log adds ("trace 17 fails")
};

// Works a batch once. Throws RedisError when Redis failed under it.
using BatchWork = std::function<BatchAttempt(const std::atomic<bool>& stop)>;

// How to work `batch` against `url`, read once from the batch: a sweep's combinations under
// scratch names of their own each attempt (run/sweep_batch.h), or a hunt's traces checked
// without shrinking (Hunt, HuntConfig::shrink false). Throws InputError when this worker
// cannot: a scenario or a hunt it cannot read here, a range the job does not have.
BatchWork batchWork(const BatchMessage& batch, const RedisUrl& url, const ConnectOptions& options);

// "combinations 20 to 24", "traces 100 to 124".
QString batchRangeText(const BatchMessage& batch);

}  // namespace ratelab
