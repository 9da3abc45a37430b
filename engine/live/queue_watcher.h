#pragma once

#include <QString>
#include <QVector>
#include <memory>

#include "distributed/queue_keys.h"
#include "live/latest_value.h"
#include "live/worker_thread.h"
#include "url/redis_url.h"

namespace ratelab {

class QueueWatchWorker;

// One consumer of a queue's group as XINFO CONSUMERS reports it (JobQueue::Consumer, without
// the header that brings hiredis: the window includes this one).
struct QueueConsumer {
    QString name;
    qint64 pending = 0;  // batches delivered to it and not acknowledged
    qint64 idleMs = -1;  // since its last read
};

// Reads a job queue's consumers (JobQueue::consumers, XINFO CONSUMERS) in the background, every
// periodMs, and keeps the newest list in a mailbox for the window's timer: which workers are
// connected while a distributed sweep runs. Never waits on Redis on the caller's thread; a
// failed read keeps the last good list beside its error.
class QueueWatcher {
public:
    struct Status {
        QVector<QueueConsumer> consumers;  // the latest good read
        bool read = false;                 // whether a read has succeeded yet
        QString error;                     // the latest read's error, empty when fine
        quint64 polls = 0;                 // reads tried so far
    };

    // Reads every periodMs, the first time kFirstReadMs from now (the workers are named as soon
    // as the job has begun; a first read that finds no group yet says nothing).
    QueueWatcher(const RedisUrl& url, const QueueKeys& keys, int periodMs = 1000);
    static constexpr int kFirstReadMs = 100;
    ~QueueWatcher();  // stops the thread (after at most one read)
    QueueWatcher(const QueueWatcher&) = delete;
    QueueWatcher& operator=(const QueueWatcher&) = delete;

    Status status() const { return latest_->value(); }

private:
    std::shared_ptr<LatestValue<Status>> latest_;  // shared with the worker
    WorkerThread<QueueWatchWorker> thread_;
};

}  // namespace ratelab
