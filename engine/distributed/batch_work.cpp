#include "distributed/batch_work.h"

#include "distributed/hunt_job_json.h"
#include "distributed/sweep_result_json.h"
#include "hunt/hunt.h"
#include "input_error.h"
#include "run/sweep_batch.h"
#include "scenario/scenario.h"

namespace ratelab {
namespace {

qint64 failedDecisions(const SweepBatchRun& run) {
    qint64 errors = 0;
    for (const SweepCombination& c : run.combinations) {
        for (const SweepFigures& row : c.rows) {
            errors += row.group == QLatin1String("*") ? row.errors : 0;
        }
    }
    return errors;
}

BatchWork sweepWork(const BatchMessage& batch, const RedisUrl& url, const ConnectOptions& options) {
    const Scenario scenario = parseScenarioJson(batch.body, batch.baseDir);
    if (scenario.sweep.isEmpty()) {
        throw InputError(QStringLiteral("the job's scenario"), QStringLiteral("has no \"sweep\""));
    }
    if (batch.count < 1 || batch.first + batch.count > scenario.sweep.combinations()) {
        throw InputError(QStringLiteral("the batch"),
                         QStringLiteral("names combinations the scenario does not have"));
    }
    return [scenario, batch, url, options](const std::atomic<bool>& stop) {
        // Scratch names of its own each time: a batch done twice, or again after a failed
        // attempt that left keys behind, shares no key with the other.
        const SweepPlan plan(scenario);
        const SweepBatchRun run = runSweepBatch(plan, url, options, batch.first, batch.count, stop);
        BatchAttempt a;
        a.whole = !stop.load() && run.combinations.size() == batch.count;
        a.decisions = run.decided;
        a.failedDecisions = failedDecisions(run);
        if (a.whole) {
            a.data = sweepResultJson(run.combinations);
        }
        return a;
    };
}

BatchWork huntWork(const BatchMessage& batch, const RedisUrl& url, const ConnectOptions& options) {
    HuntConfig config = parseHuntJob(batch.body);
    if (batch.count < 1 || batch.first > (qint64(1) << 53) - batch.count) {
        throw InputError(QStringLiteral("the batch"),
                         QStringLiteral("names traces a hunt does not have"));
    }
    config.firstTrace = batch.first;
    config.traces = batch.first + batch.count;
    config.shrink = false;
    return [config, url, options](const std::atomic<bool>& stop) {
        // Fresh scratch names each attempt (ScratchNames), its keys deleted at its end.
        Hunt hunt(config, url, options);
        const HuntResult found = hunt.run(&stop);
        BatchAttempt a;
        a.whole = !found.interrupted;
        a.decisions = found.decisions;
        HuntBatchResult r;
        r.traces = found.traces;
        r.rows = found.rows;
        r.decisions = found.decisions;
        if (found.counterexample) {
            r.failing = found.counterexample->traceIndex;
            a.note = QStringLiteral("trace %1 breaks %2")
                         .arg(r.failing)
                         .arg(huntPropertyName(found.counterexample->checked.violation->property));
        }
        a.data = huntBatchResultJson(r);
        return a;
    };
}

}  // namespace

BatchWork batchWork(const BatchMessage& batch, const RedisUrl& url, const ConnectOptions& options) {
    return batch.kind == BatchMessage::Kind::Hunt ? huntWork(batch, url, options)
                                                  : sweepWork(batch, url, options);
}

QString batchRangeText(const BatchMessage& batch) {
    return QStringLiteral("%1 %2 to %3")
        .arg(batch.kind == BatchMessage::Kind::Hunt ? QStringLiteral("traces")
                                                    : QStringLiteral("combinations"))
        .arg(batch.first)
        .arg(batch.first + batch.count - 1);
}

}  // namespace ratelab
