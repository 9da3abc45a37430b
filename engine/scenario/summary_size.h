#pragma once

#include <QString>

#include "scenario/scenario.h"

namespace ratelab {

// What a run's summary.json will be at most, known before the run: the memory estimate
// (scenario_budget.h) counts the JSON the writer builds in memory, and `run` says beforehand when
// `ratelab compare` will not read the file. Its size grows with the admitted-burst figures: each
// listed client carries one per window of its limiter (a window of every `max_accepted_in_any_…`
// that `expect` names), each traffic group and each limiter two (both clocks), and every one
// is written twice (a figure of its own and an object of five numbers in a list).
struct SummarySize {
    qint64 rows = 0;     // listed clients and groups, over all limiters
    qint64 figures = 0;  // admitted-burst figures, over all rows and limiters
    // summary.json's length at most: every number with as many digits as the run allows.
    qint64 textBytes = 0;
    // The JSON tree (QJsonObject) the writer builds before the text, at most (measured per
    // figure and per row).
    qint64 treeBytes = 0;
};

SummarySize estimateSummarySize(const Scenario& scenario);

// "summary.json will be about N MiB: more than `ratelab compare` reads (64 MiB)…" when the
// estimate is above output_limits::kMaxCompareSummaryBytes; empty otherwise.
QString summarySizeNote(const Scenario& scenario);

}  // namespace ratelab
