#include "output/pipeline_summary.h"

#include <QLocale>

namespace ratelab {

PipelineSummary pipelineSummaryOf(const RunSnapshot& run) {
    PipelineSummary p;
    p.requested = run.pipelineRequested;
    p.threads = run.threadsRequested;
    p.batches = run.pipeline.batches;
    p.roundTrips = run.pipeline.roundTrips;
    p.decisions = run.pipeline.decisions;
    for (int e = 0; e < kPipelineEnds; ++e) {
        if (run.pipeline.endedBy[e] > 0) {
            p.endedBy.insert(pipelineEndName(PipelineEnd(e)), run.pipeline.endedBy[e]);
        }
    }
    const PipelineEnd most = run.pipeline.limitedBy();
    if (most != PipelineEnd::Full) {
        p.limitedBy = pipelineEndName(most);
    }
    return p;
}

QStringList settingsWithoutEffect(const PipelineSummary& pipeline, bool virtualClock,
                                  double clockSpeed) {
    QStringList notes;
    if (virtualClock && pipeline.threads > 1) {
        notes << QStringLiteral(
                     "threads %1 has no effect: a virtual clock decides every request in one "
                     "worker, in schedule order, so that its decisions repeat")
                     .arg(pipeline.threads);
    }
    // Batches that never held more than one decision: the pipeline was never used.
    if (pipeline.requested > 1 && pipeline.batches > 0 &&
        pipeline.decisions <= pipeline.roundTrips) {
        const QString why =
            !pipeline.limitedBy.isEmpty()
                ? QStringLiteral("every batch held one decision (%1)").arg(pipeline.limitedBy)
            : virtualClock && clockSpeed > 0
                ? QStringLiteral(
                      "a virtual clock at speed %1 sends each request at its own time, and no "
                      "two were due at once")
                      .arg(clockSpeed)
                : QStringLiteral("no two requests were due at once");
        notes << QStringLiteral("pipeline %1 had no effect: %2").arg(pipeline.requested).arg(why);
    }
    return notes;
}

QString pipelineLine(const PipelineSummary& pipeline) {
    if (pipeline.roundTrips == 0) {
        return {};
    }
    const QLocale c = QLocale::c();
    QString line = QStringLiteral(
                       "pipeline %1: %2 decisions per round trip on average, over %3 "
                       "round trips")
                       .arg(pipeline.requested)
                       .arg(pipeline.decisionsPerRoundTrip(), 0, 'f', 1)
                       .arg(c.toString(pipeline.roundTrips));
    if (!pipeline.limitedBy.isEmpty()) {
        line +=
            QStringLiteral("; limited by %1 (%2 batches)")
                .arg(pipeline.limitedBy, c.toString(pipeline.endedBy.value(pipeline.limitedBy)));
    }
    return line;
}

}  // namespace ratelab
