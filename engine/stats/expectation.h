#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

#include "stats/admitted_burst.h"

namespace ratelab {

struct LimiterSnapshot;
struct RunSnapshot;

// A scenario's regression check on one limiter's figures: "<metric> <op> <number>", e.g.
// "p99_ms < 50" or "max_accepted_in_any_1000ms <= 20" (docs/command-line.md, "Regression
// checks").
enum class CompareOp { Less, LessEqual, Equal, GreaterEqual, Greater };

struct Expectation {
    QString limiter;  // a limiter's name, or "*": every limiter of the scenario
    QString metric;
    CompareOp op = CompareOp::Less;
    double threshold = 0;

    QString text() const;  // "p99_ms < 50", as the scenario writer writes it back
    bool operator==(const Expectation& o) const {
        return limiter == o.limiter && metric == o.metric && op == o.op && threshold == o.threshold;
    }
};

// One expectation checked against one limiter (a "*" expectation gives one per limiter).
struct ExpectationResult {
    QString limiter;  // the limiter's own name
    Expectation expectation;
    double measured = 0;
    bool held = false;
};

QString compareOpName(CompareOp op);  // "<", "<=", "==", ">=", ">"
bool compareHolds(double measured, CompareOp op, double threshold);

// The metrics an expectation may name, besides the admitted bursts (burstMetricName).
const QStringList& expectationMetrics();
// N of "max_accepted_in_any_<N>ms" or "max_admitted_in_any_<N>ms_run_clock" (N from 1 to
// maxWindowMs); 0 for any other name. `clock`, when given, is set to the figure's clock.
qint64 burstMetricWindow(const QString& metric, qint64 maxWindowMs, BurstClock* clock = nullptr);
// "max_accepted_in_any_1000ms" (the limiter's clock), "max_admitted_in_any_1000ms_run_clock".
QString burstMetricName(qint64 windowMs, BurstClock clock = BurstClock::Limiter);

// Reads "<metric> <op> <number>"; an InputError at `where` names what is wrong (an unknown
// metric, a missing or unknown operator, a number that is not one).
Expectation parseExpectation(const QString& limiter, const QString& text, const QString& where,
                             qint64 maxWindowMs);

// A limiter's figure by metric name; false when the run has no such figure (a burst window it
// did not compute).
bool limiterMetric(const LimiterSnapshot& limiter, const QString& metric, double* value);

// Every expectation checked on the run's limiters, in the scenario's order ("*" expanded in the
// run's limiter order). A figure the run lacks counts as failed with measured NaN.
QVector<ExpectationResult> evaluateExpectations(const QVector<Expectation>& expectations,
                                                const RunSnapshot& run);

// "passed" (all held), "failed" (any failed) or "none" (no expectations).
QString expectationVerdict(const QVector<ExpectationResult>& results);

}  // namespace ratelab
