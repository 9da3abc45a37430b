#pragma once

#include <QString>
#include <QVector>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>

#include "output/sweep_table.h"
#include "redis/connect_options.h"
#include "run/sweep_batch.h"
#include "run/sweep_plan.h"
#include "url/redis_url.h"

namespace ratelab {

// How far a sweep is.
struct SweepProgress {
    qint64 done = 0;       // combinations finished
    qint64 total = 0;      // combinations planned
    qint64 decisions = 0;  // decided so far (every limiter of every batch)
    qint64 plannedDecisions = 0;
    double decisionsPerS = 0;  // since the start
    double secondsLeft = -1;   // at that rate; -1 until it is known
    bool finished = false;     // every batch ran, or the sweep was stopped or failed
};

// Runs a sweep (SweepPlan) batch after batch on one thread of its own, each batch a
// ScenarioRunner of many combinations on one schedule, and deletes each batch's keys once it is
// read. Thread-safe: the caller polls progress() and takeFinished() while it runs.
class SweepRunner {
public:
    // `memoryBudgetBytes` bounds one batch's run (SweepPlan::batchSize).
    SweepRunner(SweepPlan plan, RedisUrl url, ConnectOptions options = {},
                qint64 memoryBudgetBytes = kDefaultBatchBudgetBytes);
    ~SweepRunner();
    SweepRunner(const SweepRunner&) = delete;
    SweepRunner& operator=(const SweepRunner&) = delete;

    static constexpr qint64 kDefaultBatchBudgetBytes = 256LL << 20;

    void start();
    // Stops the batch under way; the combinations finished before it are kept.
    void requestStop();
    void wait();
    bool finished() const { return finished_.load(); }
    // Whether it stopped before every combination ran (requestStop, or Redis failed).
    bool stopped() const { return stopped_.load(); }
    // Why the sweep could not go on (Redis could not be reached, or a command failed outside
    // the decisions); empty when none.
    QString error() const;

    SweepProgress progress() const;
    // The combinations finished since the last call, ascending.
    QVector<SweepCombination> takeFinished();
    // Every finished combination, with the sweep's keys, objective and constraints; `complete`
    // is false until every combination ran.
    SweepTable table() const;
    const SweepPlan& plan() const { return plan_; }
    qint64 batchSize() const { return batchSize_; }

private:
    void runAll();
    void runBatch(qint64 first, qint64 count);

    SweepPlan plan_;
    RedisUrl url_;
    ConnectOptions options_;
    qint64 batchSize_ = 1;
    qint64 requestsPerRun_ = 0;
    std::thread thread_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> finished_{false};
    std::atomic<bool> stopped_{false};
    std::chrono::steady_clock::time_point started_;

    mutable std::mutex mutex_;  // guards what follows
    qint64 decidedBefore_ = 0;  // decisions of the batches finished
    qint64 currentDecisions_ = 0;
    QVector<SweepCombination> done_;
    qint64 taken_ = 0;  // done_[0 .. taken_) went out through takeFinished
    QString error_;
};

}  // namespace ratelab
