#pragma once

#include <QString>
#include <QVector>

#include "hunt/property_check.h"
#include "scenario/scenario.h"
#include "traffic/trace.h"

namespace ratelab {

// A counterexample as a regression check: a scenario that replays its rows through the failing
// one (and for retry and remaining the probe that broke the promise) on a virtual clock at the
// rows' own times, with an expectation on the limiter's accepted count that fails while the
// defect lasts:
//  - agree: the limiter beside the reference (named "reference"); the limiter accepts as many
//    as the reference (every row before the failing one agrees, so the counts part by one);
//  - retry: the rows up to the refusal (itself included when that decides the probe the same,
//    else the rows before it: the same state) and the probe at now + r (or now + r - 1): the
//    probe granted (refused), as the limiter's own retry_after_ms promised;
//  - remaining: the rows through the grant and the single permits after it up to the one that
//    broke the promise: as many granted as its remaining promised.
// For retry and remaining the check holds the limiter to the number it answered when the hunt
// found it: a fix that changes what it grants passes it; one that changes what it answers
// needs a new hunt.
struct RegressionCase {
    Trace trace;
    // The trace is the counterexample's own (counterexample.csv); else regression.csv.
    bool counterexampleTrace = false;
    Scenario scenario;  // its replay's trace path still to set
    qint64 expectedAccepted = 0;
    qint64 acceptedNow = 0;  // decided on Redis when it was made: differs from the expected
    // Empty, or why no scenario can replay it (a trace spanning more than a run may last).
    QString unwritable;
};

// Builds the regression of `checked` (the decisions of `trace`, its violation) and decides its
// trace on Redis (acceptedNow). Throws RedisError.
RegressionCase regressionCase(TraceDecider& decider, const PropertyCheck& check, const Trace& trace,
                              const CheckedTrace& checked);

}  // namespace ratelab
