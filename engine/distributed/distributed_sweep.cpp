#include "distributed/distributed_sweep.h"

#include <algorithm>

#include "distributed/sweep_result_json.h"
#include "input_error.h"
#include "json_input.h"

namespace ratelab {
qint64 distributedBatchSize(const SweepPlan& plan, qint64 localBatchSize) {
    const qint64 spread = (plan.combinations() + 7) / 8;
    return std::clamp<qint64>(spread, 1, std::max<qint64>(1, localBatchSize));
}

namespace {

qint64 batchSizeOf(const SweepPlan& plan, const DistributedOptions& options) {
    return options.batchSize > 0
               ? options.batchSize
               : distributedBatchSize(plan, plan.batchSize(SweepRunner::kDefaultBatchBudgetBytes));
}

}  // namespace

DistributedSweep::DistributedSweep(SweepPlan plan, DistributedOptions options, Log log)
    : JobCoordinator(
          options.identity, options.giveUpAfter,
          (plan.combinations() + batchSizeOf(plan, options) - 1) / batchSizeOf(plan, options),
          std::move(log)),
      plan_(std::move(plan)),
      options_(std::move(options)),
      batchSize_(batchSizeOf(plan_, options_)) {}

DistributedSweep::~DistributedSweep() {
    stopAndWait();
}

BatchMessage DistributedSweep::batchMessage(qint64 batch) const {
    BatchMessage m;
    m.kind = BatchMessage::Kind::Sweep;
    m.first = batch * batchSize_;
    m.count = std::min(batchSize_, plan_.combinations() - m.first);
    m.body = options_.scenarioJson;
    m.baseDir = options_.baseDir;
    return m;
}

void DistributedSweep::accept(qint64 batch, const QByteArray& data, const QString&) {
    const qint64 first = batch * batchSize_;
    QVector<SweepCombination> combinations =
        parseSweepResult(data, first, std::min(batchSize_, plan_.combinations() - first));
    qint64 decided = 0;
    for (const SweepCombination& c : combinations) {
        for (const SweepFigures& row : c.rows) {
            decided += row.group == QLatin1String("*") ? row.fired : 0;
        }
    }
    std::lock_guard<std::mutex> lock(mutex_);
    combinationsDone_ += combinations.size();
    decisions_ += decided;
    combinations_.insert(batch, std::move(combinations));
}

bool DistributedSweep::answered() {
    std::lock_guard<std::mutex> lock(mutex_);
    return combinations_.size() == batches();
}

SweepProgress DistributedSweep::progress() const {
    using Clock = std::chrono::steady_clock;
    SweepProgress p;
    p.total = plan_.combinations();
    p.finished = finished();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        p.done = combinationsDone_;
        p.decisions = decisions_;
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - started_).count();
    if (seconds > 0) {
        p.decisionsPerS = double(p.decisions) / seconds;
        if (p.done > 0) {
            p.secondsLeft = double(p.total - p.done) * seconds / double(p.done);
        }
    }
    p.plannedDecisions = p.done > 0 ? p.decisions * p.total / p.done : 0;
    if (p.finished) {
        p.secondsLeft = 0;
    }
    return p;
}

SweepTable DistributedSweep::table() const {
    QVector<SweepCombination> all;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        for (const QVector<SweepCombination>& batch : combinations_) {
            all += batch;  // QMap: ascending by batch, so by combination
        }
    }
    return sweepTableOf(plan_, all);
}

}  // namespace ratelab
