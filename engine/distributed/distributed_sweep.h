#pragma once

#include <QMap>
#include <QString>
#include <QVector>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include "distributed/queue_worker.h"
#include "run/sweep_runner.h"

namespace ratelab {

// What a distributed sweep publishes besides its plan.
struct DistributedOptions {
    WorkerIdentity identity;  // the coordinator as a worker of the queue (consumer, claim time)
    QByteArray scenarioJson;  // the scenario as the workers read it (checkDistributable)
    QString baseDir;          // where its relative paths point
    qint64 batchSize = 0;     // combinations per batch; 0: distributedBatchSize
    // With Redis unreachable this long on end, the sweep stops with its error.
    std::chrono::milliseconds giveUpAfter{30000};
};

// Combinations per batch of a distributed sweep: at most the local batch size, and small
// enough that there are at least 4 batches per 2 workers' worth (ceil(total / 8)), so that a
// worker that joins or dies moves a small share.
qint64 distributedBatchSize(const SweepPlan& plan, qint64 localBatchSize);

// Refuses (InputError) a scenario that would carry a secret through the queue: any string in
// its JSON that is a Redis URL with a password.
void checkDistributable(const QJsonObject& scenarioJson);

// `ratelab sweep --distributed`: publishes the sweep's batches to the queue's jobs stream,
// works batches itself too (as one more consumer), claims batches pending at a worker longer
// than the claim time, and merges the results by batch: a batch answered twice counts once, a
// result that does not parse is reported and the batch worked here. The same interface as
// SweepRunner: the same table, so the same files.
class DistributedSweep {
public:
    using Log = std::function<void(const QString&)>;
    DistributedSweep(SweepPlan plan, DistributedOptions options, Log log);
    ~DistributedSweep();
    DistributedSweep(const DistributedSweep&) = delete;
    DistributedSweep& operator=(const DistributedSweep&) = delete;

    void start();
    void requestStop() { stop_ = true; }
    void wait();
    bool finished() const { return finished_.load(); }
    QString error() const;
    SweepProgress progress() const;
    SweepTable table() const;
    qint64 batches() const { return batches_; }
    const QString& job() const { return job_; }

private:
    void runAll();
    void publishMissing(JobQueue& queue);
    void readResults(JobQueue& queue, QueueWorker& self);
    void merge(qint64 batch, QVector<SweepCombination> combinations);
    void workHere(qint64 batch);

    SweepPlan plan_;
    DistributedOptions options_;
    Log log_;
    qint64 batchSize_ = 1;
    qint64 batches_ = 0;
    QString job_;
    std::thread thread_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> finished_{false};
    std::chrono::steady_clock::time_point started_;

    // The coordinator thread's own: the entry of each batch published, the results read.
    QMap<qint64, QByteArray> entries_;
    QVector<QByteArray> published_;  // every entry it published, deleted at the end
    QByteArray lastResult_ = "0-0";
    QMap<QString, QString> refusals_;  // worker -> its last reason logged

    mutable std::mutex mutex_;  // guards what follows
    QMap<qint64, QVector<SweepCombination>> merged_;
    qint64 combinationsDone_ = 0;
    qint64 decisions_ = 0;
    QString error_;
};

}  // namespace ratelab
