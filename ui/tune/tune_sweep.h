#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QVector>
#include <memory>

#include "live/distributed_sweep_job.h"
#include "run/sweep_runner.h"

namespace ratelab {

// The sweep the Tune tab runs: on this process's threads (SweepRunner), or spread over a queue's
// `ratelab worker` processes (DistributedSweep: the window publishes the batches and works them
// too) with the queue's consumers read in the background (QueueWatcher) to say which workers are
// connected (DistributedSweepJob). Either way on a thread of its own; the tab polls it on its
// timer.
class TuneSweep {
public:
    static std::unique_ptr<TuneSweep> local(SweepPlan plan, const RedisUrl& url);
    // `scenario` (its sweep filled in) on `queue` as the window's consumer, this ratelab's
    // version and the claim time's default; nullptr with the problem in *problem when it holds
    // a Redis URL with a password (checkDistributable, as the command line refuses it).
    static std::unique_ptr<TuneSweep> distributed(const Scenario& scenario, const RedisUrl& url,
                                                  const QueueKeys& queue, const QString& baseDir,
                                                  QString* problem);
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
    bool distributed() const { return distributed_ != nullptr; }
    // Which workers are connected to the queue (empty for a local sweep): workersText of the
    // newest read of its consumers and the batches merged so far; once wait() returned, the
    // last.
    QString workersText() const;

private:
    explicit TuneSweep(SweepPlan plan);

    SweepPlan plan_;
    std::unique_ptr<SweepRunner> local_;
    std::unique_ptr<DistributedSweepJob> distributed_;
};

// The status line's words for a queue's consumers while a distributed sweep runs: how many
// workers, and for each its name, whether it is working a batch or how long it has been idle,
// and the batches it answered (`batchesBy`, by consumer); `self` (the window's own consumer) is
// not a worker, its batches are said apart. "No workers: …" when there is none. `over`: the
// sweep has ended, and only the batches each did are said.
QString workersText(const QVector<QueueConsumer>& consumers, const QMap<QString, qint64>& batchesBy,
                    const QString& self, bool over);

}  // namespace ratelab
