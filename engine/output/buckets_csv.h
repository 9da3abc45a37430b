#pragma once

#include <QByteArray>
#include <QString>

#include "output/run_summary.h"

namespace ratelab {

// buckets.csv: bucket,t_ms,limiter,accepted,rejected,errors,target_rate,errors_open,
// errors_closed — one row per bucket and limiter; t_ms is the bucket's start in run time;
// errors_open/errors_closed are the errors that on_error let through/refused. Then, for a run
// with traffic groups, group.<name>.accepted,group.<name>.rejected per group with a series
// (GroupSummary::bucketAccepted), in the traffic's order; none without groups. The limiter and
// group names are the free text: RFC 4180 quoted when they need to be (csv_writer.h).
QByteArray bucketsToCsv(const RunSummary& summary);
// bucketsToCsv(summaryOf(run)): also the window's CSV export.
QByteArray bucketsCsv(const RunSnapshot& run);

// Reads buckets.csv into the limiters of `summary` (read from summary.json before) and its
// target rates; every limiter's counts get the length of the highest bucket read + 1. The
// columns are found by the header's names: bucket, limiter, accepted and rejected are needed,
// the others read as 0 when missing. A group with columns gets its series in every limiter (as
// long as theirs); one without (an older file) keeps none. An InputError at "<file>: line N"
// names a header without those columns, a row with another number of fields than the header, a
// value that is not a count, and a limiter or a limiter's group summary.json does not have.
void bucketsFromCsv(const QByteArray& csv, const QString& file, RunSummary& summary);

}  // namespace ratelab
