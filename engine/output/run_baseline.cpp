#include "scenario/run_baseline.h"

#include <QDir>
#include <QFileInfo>

#include "output/output_folder.h"

namespace ratelab {

const BaselineLimiter* RunBaseline::find(const QString& name) const {
    for (const BaselineLimiter& l : limiters) {
        if (l.name == name)
            return &l;
    }
    return nullptr;
}

RunBaseline baselineOf(const RunSummary& summary, const QString& label) {
    RunBaseline b;
    b.label = label;
    b.scenarioName = summary.scenario;
    b.bucketMs = summary.bucketMs;
    b.runSeconds = summary.runS;
    for (const LimiterSummary& l : summary.limiters) {
        BaselineLimiter out;
        out.name = l.name;
        out.fired = l.fired;
        out.accepted = l.accepted;
        out.rejected = l.rejected;
        out.errors = l.errors;
        out.errorsOpen = l.errorsOpen;
        out.errorsClosed = l.errorsClosed;
        out.latencyCount = l.latency.count;
        out.p50Ms = l.latency.p50Ms;
        out.p99Ms = l.latency.p99Ms;
        out.latencyMaxMs = l.latency.maxMs;
        out.fairness = l.fairness;
        out.bucketAccepted = l.buckets.accepted;
        out.bucketRejected = l.buckets.rejected;
        b.limiters.append(out);
    }
    return b;
}

RunBaseline baselineFromSnapshot(const RunSnapshot& run, const QString& label) {
    return baselineOf(summaryOf(run), label);
}

RunBaseline readBaselineFolder(const QString& dir) {
    return baselineOf(readOutputFolder(dir, OutputParts::SummaryAndBuckets),
                      QFileInfo(QDir::cleanPath(dir)).fileName());
}

}  // namespace ratelab
