#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>
#include <memory>

#include "distributed/queue_keys.h"
#include "live/queue_watcher.h"
#include "run/sweep_runner.h"

namespace ratelab {

class DistributedSweep;

// The window's distributed sweep: a DistributedSweep (the window publishes the batches, works
// them too and merges the results, on a thread of its own) and a QueueWatcher reading the
// queue's consumers while it runs, behind a header the window may include (no hiredis).
class DistributedSweepJob {
public:
    struct Options {
        QueueKeys keys;
        QByteArray scenarioJson;  // checked by checkDistributable
        QString baseDir;          // where the scenario's relative paths point
        QString version;          // this ratelab's; workers of another refuse its batches
        QString consumerSuffix;   // "window": its consumer is "host:pid:window"
        qint64 claimMs = 30000;
    };
    // What the window knows of the queue's workers.
    struct Workers {
        QueueWatcher::Status read;   // the watcher's newest read (its last once over)
        QMap<QString, qint64> done;  // batches merged, by the consumer that answered each
        QString self;                // the coordinator's own consumer
        bool over = false;           // wait() returned: nothing is read any more
    };

    DistributedSweepJob(const SweepPlan& plan, const RedisUrl& url, const Options& options);
    ~DistributedSweepJob();  // stops the sweep and waits: the job's keys go
    DistributedSweepJob(const DistributedSweepJob&) = delete;
    DistributedSweepJob& operator=(const DistributedSweepJob&) = delete;

    void start();
    void requestStop();
    bool finished() const;
    void wait();
    QString error() const;
    SweepProgress progress() const;
    SweepTable table() const;
    Workers workers() const;

private:
    RedisUrl url_;
    QueueKeys keys_;
    std::unique_ptr<DistributedSweep> sweep_;
    std::unique_ptr<QueueWatcher> watcher_;  // while it runs
    QueueWatcher::Status last_;              // its last read, once over
    bool over_ = false;
};

}  // namespace ratelab
