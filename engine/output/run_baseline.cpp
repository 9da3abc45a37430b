#include "output/run_baseline.h"

#include <QDir>
#include <QFileInfo>

#include "output/output_folder.h"

namespace ratelab {
namespace {

RunBaseline baselineOf(RunSummary run, const QString& label) {
    for (LimiterSummary& l : run.limiters) {
        l.clients.clear();
    }
    return {label, std::move(run)};
}

}  // namespace

RunBaseline baselineFromSnapshot(const RunSnapshot& run, const QString& label) {
    return baselineOf(summaryOf(run), label);
}

RunBaseline readBaselineFolder(const QString& dir) {
    return baselineOf(readOutputFolder(dir, OutputParts::SummaryAndBuckets),
                      QFileInfo(QDir::cleanPath(dir)).fileName());
}

}  // namespace ratelab
