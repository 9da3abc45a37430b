#include "live/distributed_sweep_job.h"

#include "distributed/distributed_sweep.h"

namespace ratelab {

DistributedSweepJob::DistributedSweepJob(const SweepPlan& plan, const RedisUrl& url,
                                         const Options& options)
    : url_(url), keys_(options.keys) {
    DistributedOptions o{WorkerIdentity{options.keys, url, ConnectOptions(), options.version,
                                        consumerName(options.consumerSuffix), options.claimMs},
                         options.scenarioJson, options.baseDir, 0,
                         std::chrono::milliseconds(30000)};
    // No log: what a worker did shows in workers(), a failure in error().
    sweep_ = std::make_unique<DistributedSweep>(plan, o, [](const QString&) {});
}

DistributedSweepJob::~DistributedSweepJob() {
    watcher_.reset();
    sweep_.reset();  // stops it: the job's keys go, the coordinator leaves the group
}

void DistributedSweepJob::start() {
    watcher_ = std::make_unique<QueueWatcher>(url_, keys_);
    sweep_->start();
}

void DistributedSweepJob::requestStop() {
    sweep_->requestStop();
}

bool DistributedSweepJob::finished() const {
    return sweep_->finished();
}

void DistributedSweepJob::wait() {
    sweep_->wait();
    over_ = true;
    if (watcher_) {
        last_ = watcher_->status();
        watcher_.reset();
    }
}

QString DistributedSweepJob::error() const {
    return sweep_->error();
}

SweepProgress DistributedSweepJob::progress() const {
    return sweep_->progress();
}

SweepTable DistributedSweepJob::table() const {
    return sweep_->table();
}

DistributedSweepJob::Workers DistributedSweepJob::workers() const {
    return Workers{watcher_ ? watcher_->status() : last_, sweep_->batchesByWorker(),
                   sweep_->consumer(), over_};
}

}  // namespace ratelab
