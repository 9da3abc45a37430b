#pragma once

#include <QMetaObject>
#include <QObject>
#include <QString>
#include <QThread>
#include <utility>

namespace ratelab {

// The one threading pattern of engine/live: a service object owns a WorkerThread, whose worker
// (a QObject holding the Redis connections and timers) lives on a QThread of its own. The
// service hands work to the worker with post(); the worker publishes results into a mailbox
// (LatestValue, StateMailbox) or posts them back to the service as queued calls. Destroying the
// WorkerThread ends the thread after the worker's current job; the worker is deleted on its
// own thread, so its connections and timers never cross threads.
template <typename Worker>
class WorkerThread {
public:
    template <typename... Args>
    explicit WorkerThread(const QString& name, Args&&... args)
        : worker_(new Worker(std::forward<Args>(args)...)) {
        worker_->moveToThread(&thread_);
        // From here the thread owns the worker: deleteLater runs on it when it finishes.
        QObject::connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
        thread_.setObjectName(name);
        thread_.start();
    }
    ~WorkerThread() {
        thread_.quit();
        thread_.wait();
    }
    WorkerThread(const WorkerThread&) = delete;
    WorkerThread& operator=(const WorkerThread&) = delete;

    // Runs job(worker) on the worker's thread, after the jobs posted before it.
    template <typename Job>
    void post(Job job) const {
        QMetaObject::invokeMethod(worker_,
                                  [w = worker_, job = std::move(job)]() mutable { job(*w); });
    }

    // The same, returning once it has run (never call it from the worker's thread).
    template <typename Job>
    void postAndWait(Job job) const {
        QMetaObject::invokeMethod(
            worker_, [w = worker_, job = std::move(job)]() mutable { job(*w); },
            Qt::BlockingQueuedConnection);
    }

private:
    QThread thread_;
    Worker* worker_;  // lives on thread_, deleted there when it finishes
};

}  // namespace ratelab
