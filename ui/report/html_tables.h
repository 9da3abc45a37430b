#pragma once

#include <QString>

#include "output/run_summary.h"

// The sections of report.html that are tables (what a page without its script, or its print,
// still shows), each from the run's summary; a section the run has nothing for is empty.
namespace ratelab::html_tables {

QString facts(const RunSummary& summary);
// The verdict and the expectations with their verdicts.
QString verdict(const RunSummary& summary);
// Per limiter its counts, latency, wait and fairness.
QString limiters(const RunSummary& summary);
// The comparison's figures: per limiter its accepted share and its marked admitted burst against
// what its limit admits in that window.
QString comparison(const RunSummary& summary);
QString disagreements(const RunSummary& summary);
// Each script limiter against its reference (disagreements_with_reference); empty when none has
// one.
QString referenceDisagreements(const RunSummary& summary);
// The admitted burst on both clocks, per limiter.
QString bursts(const RunSummary& summary);
// Per limiter its clients' counts and admitted bursts.
// The traffic's groups at each limiter (none without groups).
QString groups(const RunSummary& summary);
QString clients(const RunSummary& summary);

}  // namespace ratelab::html_tables
