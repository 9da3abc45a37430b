#pragma once

#include <QVector>
#include <atomic>
#include <functional>

#include "output/sweep_table.h"
#include "redis/connect_options.h"
#include "run/sweep_plan.h"
#include "url/redis_url.h"

namespace ratelab {

// The figures of one combination's run (a snapshot of SweepPlan::split) as a sweep reports
// them: a row per limiter (group "*"), the objective and every constraint checked.
SweepCombination sweepCombinationOf(const SweepSpec& sweep, const RunSnapshot& run, qint64 index);

// One batch of a sweep as it ran (runSweepBatch).
struct SweepBatchRun {
    // Combinations [first, first + count), ascending; empty when the batch did not finish.
    QVector<SweepCombination> combinations;
    qint64 decided = 0;  // decisions made, every limiter of the batch
};

// Runs combinations [first, first + count) of `plan` as one ScenarioRunner of
// SweepPlan::batch, keeps its keys alive while it runs and deletes them once it is read (after
// a stop too). `stop` is checked every 20 ms; `reached` (when set) is told between two checks
// how far the batch's clock went, 0 to 1. Throws RedisError when the run cannot start.
// `ratelab sweep` runs its batches through it, locally (SweepRunner) or as a queue's worker
// (engine/distributed).
SweepBatchRun runSweepBatch(const SweepPlan& plan, const RedisUrl& url,
                            const ConnectOptions& options, qint64 first, qint64 count,
                            const std::atomic<bool>& stop,
                            const std::function<void(double)>& reached = {});

// The sweep's table (keys, objective, constraints, note, warnings, the best's scenario) over
// `combinations`, which are ascending by index; `complete` when they are all of the plan's.
SweepTable sweepTableOf(const SweepPlan& plan, QVector<SweepCombination> combinations);

}  // namespace ratelab
