#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QVector>
#include <memory>

#include "distributed/job_queue.h"
#include "live/queue_watcher.h"
#include "run/sweep_runner.h"

namespace ratelab {

class DistributedSweep;

// The sweep the Tune tab runs: on this process's threads (SweepRunner), or spread over a queue's
// `ratelab worker` processes (DistributedSweep: the window publishes the batches and works them
// too) with the queue's consumers read in the background (QueueWatcher) to say which workers are
// connected. Either way on a thread of its own; the tab polls it on its timer.
class TuneSweep {
public:
    // What a distributed sweep publishes besides its plan (see DistributedOptions).
    struct Queue {
        QueueKeys keys;
        QByteArray scenarioJson;  // checked by checkDistributable
        QString baseDir;          // where the scenario's relative paths point
        QString version;          // this ratelab's; workers of another refuse its batches
    };

    static std::unique_ptr<TuneSweep> local(SweepPlan plan, const RedisUrl& url);
    static std::unique_ptr<TuneSweep> distributed(const SweepPlan& plan, const RedisUrl& url,
                                                  const Queue& queue);
    ~TuneSweep();  // stops the sweep and waits for it (a distributed one ends its job)
    TuneSweep(const TuneSweep&) = delete;
    TuneSweep& operator=(const TuneSweep&) = delete;

    void start();
    void requestStop();
    bool finished() const;
    void wait();
    QString error() const;
    SweepProgress progress() const;
    SweepTable table() const;
    const SweepPlan& plan() const { return plan_; }
    bool distributed() const { return coordinator_ != nullptr; }
    // Which workers are connected to the queue (empty for a local sweep): workersText of the
    // watcher's newest read and the batches merged so far; once wait() returned, its last.
    QString workersText() const;

private:
    explicit TuneSweep(SweepPlan plan);

    SweepPlan plan_;
    std::unique_ptr<SweepRunner> local_;
    std::unique_ptr<DistributedSweep> coordinator_;
    std::unique_ptr<QueueWatcher> watcher_;  // while it runs
    QueueWatcher::Status last_;              // its last read, once the sweep is over
};

// The status line's words for a queue's consumers while a distributed sweep runs: how many
// workers, and for each its name, whether it is working a batch or how long it has been idle,
// and the batches it answered (`batchesBy`, by consumer); `self` (the window's own consumer) is
// not a worker, its batches are said apart. "No workers: …" when there is none. `over`: the
// sweep has ended, and only the batches each did are said.
QString workersText(const QVector<JobQueue::Consumer>& consumers,
                    const QMap<QString, qint64>& batchesBy, const QString& self, bool over);

}  // namespace ratelab
