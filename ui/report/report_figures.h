#pragma once

#include <QString>
#include <QStringList>
#include <QVector>
#include <optional>

#include "output/run_summary.h"

namespace ratelab {

// What report.html derives from a limiter's summary the way the window derives it from a run:
// the marked admitted burst (TimelineModel::markedInterval, the timelines' "N accepted in W ms
// here" and the comparison's burst bar), what the limit admits in a window (limitPerBucket,
// per_client limits times the clients the run had) and the configuration text. A summary
// without the limiter's spec (written before it was kept) has no limit and no configuration.
namespace report_figures {

// The clients the limiter's figures count (at least 1).
int clientsOf(const LimiterSummary& limiter);

// The interval the timeline marks and the comparison's burst bar shows: the busiest interval of
// the shortest window the spec names (else of the shortest window); none without accepted
// permits.
std::optional<BusiestInterval> markedBurst(const LimiterSummary& limiter);

// The permits the limiter admits in `windowMs` in the steady state; none without a spec, nor for
// a limit on requests in flight (how many it admits in a window depends on how soon they
// release: inFlightLimit).
std::optional<double> limitIn(const LimiterSummary& limiter, qint64 windowMs);

// A limit on requests in flight (Algorithm::limitsInFlight): the requests it lets be in flight
// at once (per_client: times the clients); none for a rate limiter or without a spec.
std::optional<qint64> inFlightLimit(const LimiterSummary& limiter);

// "10 per 1 s per client, 5 clients"; empty without a spec.
QString configText(const LimiterSummary& limiter);

// The timeline's mark of the marked burst: its interval and first and last decisions (ms since
// the run's start), its label ("20 accepted in 1000 ms here · 23 on the run's clock") and every
// window's figure, a line each (the window's tooltip).
struct BurstMark {
    double x0Ms = 0;
    double x1Ms = 0;
    double firstMs = 0;
    double lastMs = 0;
    QString label;
    QStringList lines;
};
std::optional<BurstMark> burstMark(const LimiterSummary& limiter, qint64 bucketMs);

// A limiter whose limit is on requests in flight (the concurrency limiter), in `steps` steps of
// `stepMs` from the run's start, as the window's timeline draws it (TimelineModel::inFlight):
// the most requests in flight in each step, from the summary's grants, releases and leaked
// grants per bucket; the grants released and the grants leaked in each step; the in-flight
// limit. None for a rate limiter or a summary without its spec.
struct InFlightSteps {
    double limit = 0;
    QVector<qint64> most;
    QVector<qint64> released;
    QVector<qint64> leaked;
};
std::optional<InFlightSteps> inFlightSteps(const LimiterSummary& limiter, qint64 bucketMs,
                                           qint64 stepMs, qint64 steps, double endMs);

}  // namespace report_figures
}  // namespace ratelab
