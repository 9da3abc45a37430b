#pragma once

#include <QtGlobal>

namespace ratelab {

// A limiter that decides every request beside another (a script limiter and its "reference"):
// the decisions both made (neither failed), and of those, the ones where one granted what the
// other refused. Wait mode compares every attempt.
struct ReferenceCounts {
    qint64 compared = 0;
    qint64 disagreed = 0;
    ReferenceCounts& operator+=(const ReferenceCounts& o) {
        compared += o.compared;
        disagreed += o.disagreed;
        return *this;
    }
};

// What became of a set of requests at one limiter (the limiter's, a client's, a traffic
// group's, or the clients a summary does not list): fired = accepted + rejected + errors, always
// (a request counts as fired once its final outcome is known: in wait mode, after its last try);
// errorsOpen and errorsClosed are the part of the errors the limiter's "on_error" policy let
// through or refused, never counted in accepted or rejected; waitedMsTotal is the time its
// granted requests waited (wait mode); reference: a script limiter's decisions against its
// reference's (zero for every other limiter). One value type: the run's counters are read into it
// (RunStats::fill), summed with +=, carried by the output folder (RunSummary) and named by the
// expectations (limiterMetric): a figure added here is added everywhere.
struct OutcomeTotals {
    qint64 fired = 0;
    qint64 accepted = 0;
    qint64 rejected = 0;
    qint64 errors = 0;
    qint64 errorsOpen = 0;
    qint64 errorsClosed = 0;
    qint64 waitedMsTotal = 0;
    ReferenceCounts reference;

    OutcomeTotals& operator+=(const OutcomeTotals& o) {
        fired += o.fired;
        accepted += o.accepted;
        rejected += o.rejected;
        errors += o.errors;
        errorsOpen += o.errorsOpen;
        errorsClosed += o.errorsClosed;
        waitedMsTotal += o.waitedMsTotal;
        reference += o.reference;
        return *this;
    }
    // Every fired request has exactly one outcome.
    bool exact() const { return fired == accepted + rejected + errors; }
    // Rejected as a share of fired, in percent (0 without requests).
    double rejectedPct() const { return fired > 0 ? 100.0 * double(rejected) / double(fired) : 0; }
    const OutcomeTotals& outcomes() const { return *this; }
    OutcomeTotals& outcomes() { return *this; }
};

}  // namespace ratelab
