#pragma once

#include <QMap>
#include <QString>
#include <QVector>
#include <chrono>

#include "distributed/job_coordinator.h"
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

// `ratelab sweep --distributed` (JobCoordinator): a batch is a run of combinations, merged into
// the table a local sweep makes. The same interface as SweepRunner: the same table, so the same
// files.
class DistributedSweep : public JobCoordinator {
public:
    DistributedSweep(SweepPlan plan, DistributedOptions options, Log log);
    ~DistributedSweep() override;

    SweepProgress progress() const;
    SweepTable table() const;

protected:
    BatchMessage batchMessage(qint64 batch) const override;
    void accept(qint64 batch, const QByteArray& data, const QString& worker) override;
    bool answered() override;

private:
    SweepPlan plan_;
    DistributedOptions options_;
    qint64 batchSize_ = 1;
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();

    // Guarded by mutex_.
    QMap<qint64, QVector<SweepCombination>> combinations_;
    qint64 combinationsDone_ = 0;
    qint64 decisions_ = 0;
};

}  // namespace ratelab
