#include "report/report_figures.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <cmath>

#include "algorithms/algorithm_view.h"
#include "charts/timeline_model.h"
#include "limiters/algorithm.h"
#include "limiters/limit_geometry.h"
#include "report/report_in_flight.h"
#include "stats/run_snapshot.h"

namespace ratelab::report_figures {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ratelab::HtmlReport", text);
}

QVector<BusiestInterval> intervals(const std::vector<BusiestInterval>& list) {
    return QVector<BusiestInterval>(list.begin(), list.end());
}

// The window's timeline model of this limiter, its run starting at 0 (the summary's bursts are
// in ms since the run's start).
TimelineModel timelineOf(const LimiterSummary& limiter, qint64 bucketMs) {
    TimelineModel model;
    model.setLimiter(limiter.spec.value_or(LimiterSpec{}), clientsOf(limiter), bucketMs, 0);
    model.setBusiestIntervals(intervals(limiter.admittedBurst),
                              intervals(limiter.admittedBurstRunClock));
    return model;
}

// A tooltip line of the window as plain text (its markup is <b> only).
QString plain(QString html) {
    static const QRegularExpression tags(QStringLiteral("</?b>"));
    return html.remove(tags);
}

}  // namespace

int clientsOf(const LimiterSummary& limiter) {
    return std::max<int>(int(limiter.clients.size()), 1);
}

std::optional<BusiestInterval> markedBurst(const LimiterSummary& limiter) {
    const QVector<BusiestInterval> list = intervals(limiter.admittedBurst);
    const BusiestInterval* marked =
        TimelineModel::markedInterval(limiter.spec.value_or(LimiterSpec{}), list);
    if (marked == nullptr || marked->permits <= 0) {
        return std::nullopt;
    }
    return *marked;
}

std::optional<double> limitIn(const LimiterSummary& limiter, qint64 windowMs) {
    if (!limiter.spec || inFlightLimit(limiter)) {
        return std::nullopt;
    }
    return limitPerBucket(*limiter.spec, windowMs, clientsOf(limiter));
}

std::optional<qint64> inFlightLimit(const LimiterSummary& limiter) {
    if (!limiter.spec || !algorithmOf(*limiter.spec).limitsInFlight()) {
        return std::nullopt;
    }
    return limiter.spec->limit * (limiter.spec->scope == Scope::PerClient ? clientsOf(limiter) : 1);
}

QString configText(const LimiterSummary& limiter) {
    if (!limiter.spec) {
        return QString();
    }
    QString text = algorithmView(*limiter.spec).configText(*limiter.spec);
    if (limiter.spec->scope == Scope::PerClient) {
        text += tr(" per client, %1 clients").arg(clientsOf(limiter));
    }
    return text;
}

std::optional<BurstMark> burstMark(const LimiterSummary& limiter, qint64 bucketMs) {
    const std::optional<TimelineModel::Burst> burst = timelineOf(limiter, bucketMs).burst();
    if (!burst) {
        return std::nullopt;
    }
    BurstMark mark;
    mark.x0Ms = burst->x0 * 1000;
    mark.x1Ms = burst->x1 * 1000;
    mark.firstMs = burst->first * 1000;
    mark.lastMs = burst->last * 1000;
    mark.label = burst->label;
    for (const QString& line : burst->toolTip.split(QStringLiteral("<br>"))) {
        mark.lines << plain(line);
    }
    return mark;
}

std::optional<InFlightSteps> inFlightSteps(const LimiterSummary& limiter, qint64 bucketMs,
                                           qint64 stepMs, qint64 steps, double endMs) {
    if (!limiter.spec || bucketMs <= 0 || stepMs <= 0) {
        return std::nullopt;
    }
    // The summary's counts as the one-limiter run the window's model reads.
    RunSnapshot run;
    run.bucketMs = bucketMs;
    run.elapsedUs = qint64(std::ceil(endMs * 1000.0));
    run.durationUs = run.elapsedUs;
    run.finished = true;
    LimiterSnapshot l;
    l.spec = *limiter.spec;
    l.bucketAccepted = limiter.buckets.accepted;
    l.bucketRejected = limiter.buckets.rejected;
    l.bucketErrors = limiter.buckets.errors;
    l.bucketReleased = limiter.buckets.released;
    l.bucketLeaked = limiter.buckets.leaked;
    run.limiters << l;
    const TimelineModel::InFlight view =
        report_in_flight::viewOf(run, 0, clientsOf(limiter), stepMs, endMs / 1000.0);
    if (!view.shown) {
        return std::nullopt;
    }
    InFlightSteps out;
    out.limit = view.limit.isEmpty() ? 0 : view.limit.last().y();
    out.most.fill(0, steps);
    out.released.fill(0, steps);
    out.leaked.fill(0, steps);
    const auto stepAt = [&](double seconds) {  // the step a mark's middle lies in
        return qint64(std::floor(seconds * 1000.0 / double(stepMs)));
    };
    for (qsizetype i = 0; i + 1 < view.inFlight.size(); i += 2) {
        // A step's start: a whole number of steps, however its seconds were rounded.
        const qint64 step = qRound64(view.inFlight[i].x() * 1000.0 / double(stepMs));
        if (step >= 0 && step < steps) {
            out.most[step] = qint64(view.inFlight[i].y());
            out.released[step] = qint64(view.released.value(i).y());
        }
    }
    for (qsizetype i = 0; i < view.leaked.size(); ++i) {
        const qint64 step = stepAt(view.leaked[i].x());
        if (step >= 0 && step < steps) {
            out.leaked[step] += view.leakedCounts.value(i);
        }
    }
    return out;
}

}  // namespace ratelab::report_figures
