#pragma once

#include <QMap>
#include <QSet>
#include <chrono>
#include <optional>

#include "distributed/hunt_job_json.h"
#include "distributed/job_coordinator.h"
#include "hunt/hunt.h"

namespace ratelab {

struct DistributedHuntOptions {
    WorkerIdentity identity;  // the coordinator as a worker of the queue (consumer, claim time)
    qint64 batchSize = 0;     // traces per batch; 0: distributedHuntBatchSize
    // With Redis unreachable this long on end, the hunt stops with its error.
    std::chrono::milliseconds giveUpAfter{30000};
};

// Traces per batch of a distributed hunt: an eighth of them (so that a worker that joins or dies
// moves a small share), 1 to kMaxHuntBatch.
constexpr qint64 kMaxHuntBatch = 1000;
qint64 distributedHuntBatchSize(qint64 traces);

// `ratelab hunt --distributed` (JobCoordinator): a batch is a range of the seed's traces, which
// a worker checks in order up to the first that fails, without shrinking. The answer is the
// first failing trace in trace order, whatever order batches finish in: known once every batch
// before the earliest failing one is merged (later batches are not waited for). A trace found
// failing by another process is checked again here first (one that passes here gets its batch
// worked here, which decides); then the coordinator shrinks it as a local hunt does. So the
// result is a local hunt's with the same seed and traces.
class DistributedHunt : public JobCoordinator {
public:
    // `config.traces` > 0 (a distributed hunt tries a fixed number of traces).
    DistributedHunt(HuntConfig config, DistributedHuntOptions options, Log log);
    ~DistributedHunt() override;

    HuntProgress progress() const;
    // Once finished: traces and rows up to the answer (all of them, or up to the failing trace
    // and it), decisions summed over every batch merged and the coordinator's own checks, and
    // the shrunk counterexample. Interrupted or failed: what was merged until then.
    HuntResult result() const;
    const HuntConfig& config() const { return config_; }

protected:
    BatchMessage batchMessage(qint64 batch) const override;
    void accept(qint64 batch, const QByteArray& data, const QString& worker) override;
    bool answered() override;
    void finish() override;

private:
    // Under mutex_: the batch holding the answer's failing trace; -1 none failed; nullopt while
    // a batch before the earliest failing one is missing.
    std::optional<qint64> settledBatch() const;
    // Decides the traces of `config` here, without shrinking.
    HuntResult huntHere(qint64 first, qint64 end);

    HuntConfig config_;
    DistributedHuntOptions options_;
    qint64 batchSize_ = 1;
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();

    // Guarded by mutex_.
    QMap<qint64, HuntBatchResult> results_;
    QSet<qint64> trusted_;  // batches whose failing trace this process decided
    qint64 ownDecisions_ = 0;
    HuntProgress shrinking_;
    std::optional<Counterexample> counterexample_;
    bool shrinkInterrupted_ = false;
    double seconds_ = 0;
};

}  // namespace ratelab
