#pragma once

#include <QMap>
#include <QString>
#include <QStringList>

#include "stats/run_snapshot.h"

namespace ratelab {

// How a run's decisions shared round trips (summary.json "pipeline", the printed summary):
// traffic "pipeline" and "threads" as the scenario asked, the batches the workers made, their
// round trips and the decisions sent to Redis in them, and what ended the batches, by
// pipelineEndName.
struct PipelineSummary {
    int requested = 1;  // traffic "pipeline"
    int threads = 1;    // traffic "threads"
    qint64 batches = 0;
    qint64 roundTrips = 0;
    qint64 decisions = 0;
    QMap<QString, qint64> endedBy;
    // What bounded the batches most besides a full pipeline and the schedule's end (empty: none).
    QString limitedBy;
    double decisionsPerRoundTrip() const {
        return roundTrips > 0 ? double(decisions) / double(roundTrips) : 0;
    }
};

PipelineSummary pipelineSummaryOf(const RunSnapshot& run);

// The settings of the run's traffic that had no effect on it, each said in a sentence
// ("threads 4 has no effect: ..."); empty when every one had.
QStringList settingsWithoutEffect(const PipelineSummary& pipeline, bool virtualClock,
                                  double clockSpeed);

// "pipeline 64: 51.3 decisions per round trip on average, over 20548 round trips;
// limited by concurrency releases (1,203 batches)"; empty for a run that made no batch.
QString pipelineLine(const PipelineSummary& pipeline);

}  // namespace ratelab
