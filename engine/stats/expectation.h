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

// The metrics an expectation may name, besides the admitted bursts (burstMetricName) and the
// figures of a group or a client (MetricScope).
const QStringList& expectationMetrics();
// The counts a traffic group's or a client's metric may name: fired, accepted, rejected,
// errors, accepted_ratio (accepted / fired) and rejected_pct (100 × rejected / fired).
const QStringList& countMetrics();

// Whose figure a metric names: the limiter's over all its requests ("accepted"), a traffic
// group's ("group.users.rejected_pct", the group's clients added up) or one client's
// ("client.users-3.accepted", "client.10.0.0.7.max_accepted_in_any_1000ms"). A group or client
// metric is a count (countMetrics) or an admitted burst: a group's on either clock, a client's on
// the limiter's. The name is what lies between the prefix and the last '.'.
struct MetricScope {
    enum class Kind { Limiter, Group, Client };
    Kind kind = Kind::Limiter;
    QString name;    // the group's or the client's
    QString figure;  // the metric without its prefix: "rejected_pct"
};
MetricScope metricScope(const QString& metric);
// "group.<name>.<figure>", "client.<name>.<figure>".
QString groupMetricName(const QString& group, const QString& figure);
QString clientMetricName(const QString& client, const QString& figure);
// N of "max_accepted_in_any_<N>ms" or "max_admitted_in_any_<N>ms_run_clock" (N from 1 to
// maxWindowMs), also of a group's or a client's; 0 for any other name. `clock`, when given, is
// set to the figure's clock.
qint64 burstMetricWindow(const QString& metric, qint64 maxWindowMs, BurstClock* clock = nullptr);
// "max_accepted_in_any_1000ms" (the limiter's clock), "max_admitted_in_any_1000ms_run_clock".
QString burstMetricName(qint64 windowMs, BurstClock clock = BurstClock::Limiter);

// Reads "<metric> <op> <number>"; an InputError at `where` names what is wrong (an unknown
// metric, a missing or unknown operator, a number that is not one).
Expectation parseExpectation(const QString& limiter, const QString& text, const QString& where,
                             qint64 maxWindowMs);

// A limiter's figure by metric name, its group's or client's too (MetricScope); false when the
// run has no such figure (a burst window it did not compute, a group or client it lacks).
bool limiterMetric(const LimiterSnapshot& limiter, const QString& metric, double* value);

// Every expectation checked on the run's limiters, in the scenario's order ("*" expanded in the
// run's limiter order). A figure the run lacks counts as failed with measured NaN.
QVector<ExpectationResult> evaluateExpectations(const QVector<Expectation>& expectations,
                                                const RunSnapshot& run);

// "passed" (all held), "failed" (any failed) or "none" (no expectations).
QString expectationVerdict(const QVector<ExpectationResult>& results);

}  // namespace ratelab
