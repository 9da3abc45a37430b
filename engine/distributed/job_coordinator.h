#pragma once

#include <QByteArray>
#include <QMap>
#include <QSet>
#include <QString>
#include <QVector>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include "distributed/queue_worker.h"

namespace ratelab {

// What every distributed job's coordinator does, a sweep's (DistributedSweep) or a hunt's
// (DistributedHunt), on a thread of its own: publishes the job's batches to the queue's jobs
// stream, works batches itself too (as one more consumer, so it finishes alone if no worker
// comes), claims at once a batch a worker refused, reads the results and hands each done one
// to the job (accept) once per batch: a batch answered twice counts once, a result that does not
// parse is reported and its batch worked here. Through Redis outages it reconnects; when Redis
// lost the job's keys (a restart without its data), it publishes what is not merged again. At
// the end the job's keys go (JobQueue::endJob).
class JobCoordinator {
public:
    using Log = std::function<void(const QString&)>;
    virtual ~JobCoordinator();
    JobCoordinator(const JobCoordinator&) = delete;
    JobCoordinator& operator=(const JobCoordinator&) = delete;

    void start();
    void requestStop() { stop_ = true; }
    void wait();
    bool finished() const { return finished_.load(); }
    QString error() const;
    qint64 batches() const { return batches_; }
    const QString& job() const { return job_; }
    // Its own name in the queue's group ("host:pid:coordinator").
    const QString& consumer() const { return identity_.consumer; }
    // The batches merged so far, by the consumer that answered each (the coordinator's own
    // among them): what each worker contributed.
    QMap<QString, qint64> batchesByWorker() const;

protected:
    // `batches`: how many the job has; with Redis unreachable `giveUpAfter` on end, the job
    // stops with its error.
    JobCoordinator(WorkerIdentity identity, std::chrono::milliseconds giveUpAfter, qint64 batches,
                   Log log);

    // The entry of batch `batch`: its kind, first, count, body and base folder (the job, the
    // batch's index and the version are filled in).
    virtual BatchMessage batchMessage(qint64 batch) const = 0;
    // Merges a done result of `batch` from `worker` (called once per batch, on the coordinator's
    // thread; what it keeps is guarded by mutex_). Throws InputError when `data` does not parse
    // or does not answer the batch: nothing of it may be kept then.
    virtual void accept(qint64 batch, const QByteArray& data, const QString& worker) = 0;
    // Whether the job has its answer (every batch merged, or a hunt's first failing trace
    // known); asked on the coordinator's thread after each read of the results.
    virtual bool answered() = 0;
    // On the coordinator's thread once the job has ended in Redis, unless stopped or failed
    // (a hunt shrinks its counterexample here). May call setError.
    virtual void finish() {}
    // Stops and joins the thread: a subclass's destructor calls it first, before its members go.
    void stopAndWait();

    bool merged(qint64 batch) const;
    void setError(const QString& error);
    const WorkerIdentity& identity() const { return identity_; }
    const std::atomic<bool>& stopFlag() const { return stop_; }

    const Log log_;
    mutable std::mutex mutex_;  // guards merged_, error_ and what subclasses keep of results

private:
    void runAll();
    void publishMissing(JobQueue& queue);
    void readResults(JobQueue& queue, QueueWorker& self);
    bool allMerged() const;

    WorkerIdentity identity_;
    std::chrono::milliseconds giveUpAfter_;
    qint64 batches_ = 0;
    QString job_;
    std::thread thread_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> finished_{false};

    // The coordinator thread's own: the entry of each batch published, the results read.
    QMap<qint64, QByteArray> entries_;
    QVector<QByteArray> published_;  // every entry it published, deleted at the end
    QByteArray lastResult_ = "0-0";
    QMap<QString, QString> refusals_;  // worker -> its last reason logged

    QSet<qint64> merged_;
    QMap<QString, qint64> batchesBy_;
    QString error_;
};

}  // namespace ratelab
