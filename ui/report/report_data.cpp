#include "report/report_data.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <algorithm>
#include <cmath>

#include "charts/nice_scale.h"
#include "limiters/limit_geometry.h"
#include "report/report_figures.h"
#include "style/series_style.h"

namespace ratelab {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ratelab::HtmlReport", text);
}

// More calendar windows than this are not listed (a day of 1 s windows would be most of the
// page); the page then says so.
constexpr int kMaxBoundaries = 2000;

qint64 bucketCount(const RunSummary& s) {
    qint64 n = s.bucketTargetRate.size();
    for (const LimiterSummary& l : s.limiters) {
        n = std::max<qint64>(n, l.buckets.accepted.size());
    }
    return n;
}

// The run's time axis: its planned duration, else what it ran, else its buckets.
double axisEndMs(const RunSummary& s, qint64 buckets) {
    for (const double ms : {s.durationS * 1000, s.runS * 1000, double(buckets * s.bucketMs)}) {
        if (ms > 0) {
            return ms;
        }
    }
    return 1000;  // an empty run still gets an axis
}

// `counts` summed `per` buckets at a time, over `steps` steps.
QJsonArray summedSteps(const QVector<qint64>& counts, qint64 per, qint64 steps) {
    QJsonArray out;
    for (qint64 g = 0; g < steps; ++g) {
        qint64 sum = 0;
        for (qint64 b = g * per; b < (g + 1) * per && b < counts.size(); ++b) {
            sum += counts[int(b)];
        }
        out.append(double(sum));
    }
    return out;
}

bool anyErrors(const LimiterSummary& l) {
    return l.counts.errors > 0 || std::any_of(l.buckets.errors.begin(), l.buckets.errors.end(),
                                              [](qint64 e) { return e > 0; });
}

QJsonObject burstJson(const report_figures::BurstMark& mark) {
    return QJsonObject{{QStringLiteral("x0"), mark.x0Ms},
                       {QStringLiteral("x1"), mark.x1Ms},
                       {QStringLiteral("first"), mark.firstMs},
                       {QStringLiteral("last"), mark.lastMs},
                       {QStringLiteral("label"), mark.label},
                       {QStringLiteral("lines"), QJsonArray::fromStringList(mark.lines)}};
}

// The traffic groups with a series per bucket: their accepted and rejected per step, in the
// traffic's order (the page's group pens go by that index, as the window's do).
QJsonArray groupsJson(const LimiterSummary& l, qint64 per, qint64 steps) {
    QJsonArray out;
    for (const GroupSummary& g : l.groups) {
        if (g.bucketAccepted.isEmpty()) {
            continue;  // read from a buckets.csv without the group's columns
        }
        out.append(
            QJsonObject{{QStringLiteral("name"), g.group},
                        {QStringLiteral("accepted"), summedSteps(g.bucketAccepted, per, steps)},
                        {QStringLiteral("rejected"), summedSteps(g.bucketRejected, per, steps)}});
    }
    return out;
}

QJsonObject limiterJson(const RunSummary& s, const LimiterSummary& l, qint64 per, qint64 steps,
                        double endMs) {
    const qint64 stepMs = per * s.bucketMs;
    QJsonObject out{
        {QStringLiteral("name"), l.name},
        {QStringLiteral("type"), l.type},
        {QStringLiteral("config"), report_figures::configText(l)},
        {QStringLiteral("totals"),
         QJsonArray{double(l.counts.accepted), double(l.counts.rejected), double(l.counts.errors)}},
        {QStringLiteral("accepted"), summedSteps(l.buckets.accepted, per, steps)},
        {QStringLiteral("rejected"), summedSteps(l.buckets.rejected, per, steps)}};
    if (anyErrors(l)) {
        out.insert(QStringLiteral("errors"), summedSteps(l.buckets.errors, per, steps));
    }
    const QJsonArray groups = groupsJson(l, per, steps);
    if (!groups.isEmpty()) {
        out.insert(QStringLiteral("groups"), groups);
    }
    // A limit on requests in flight is drawn as such, not as a rate.
    const auto inFlight = report_figures::inFlightSteps(l, s.bucketMs, stepMs, steps, endMs);
    const std::optional<double> limit = report_figures::limitIn(l, stepMs);
    if (inFlight) {
        const auto series = [](const QVector<qint64>& v) {
            QJsonArray values;
            for (const qint64 n : v) {
                values.append(double(n));
            }
            return values;
        };
        out.insert(QStringLiteral("in_flight"),
                   QJsonObject{{QStringLiteral("limit"), inFlight->limit},
                               {QStringLiteral("most"), series(inFlight->most)},
                               {QStringLiteral("released"), series(inFlight->released)},
                               {QStringLiteral("leaked"), series(inFlight->leaked)}});
    } else if (limit && *limit > 0) {
        out.insert(QStringLiteral("limit"), *limit);
    }
    if (l.spec) {
        const QVector<qint64> starts = windowBoundaries(
            *l.spec, s.startEpochMs, s.startEpochMs + qint64(std::ceil(endMs)), kMaxBoundaries + 1);
        if (starts.size() > kMaxBoundaries) {
            out.insert(QStringLiteral("boundaries_note"),
                       tr("window boundaries not drawn (more than %1)").arg(kMaxBoundaries));
        } else if (!starts.isEmpty()) {
            QJsonArray boundaries;
            for (const qint64 start : starts) {
                boundaries.append(double(start - s.startEpochMs));
            }
            out.insert(QStringLiteral("boundaries"), boundaries);
        }
    }
    if (const auto mark = report_figures::burstMark(l, s.bucketMs)) {
        out.insert(QStringLiteral("burst"), burstJson(*mark));
    }
    return out;
}

// The comparison's bars: each limiter's accepted share of the requests fired, and its marked
// admitted burst against what its limit admits in that window (the window's Comparison tab).
QJsonArray shareBars(const RunSummary& s) {
    const QLocale c = QLocale::c();
    QJsonArray bars;
    for (const LimiterSummary& l : s.limiters) {
        const double share =
            l.counts.fired > 0 ? 100.0 * double(l.counts.accepted) / double(l.counts.fired) : 0;
        bars.append(QJsonObject{
            {QStringLiteral("name"), l.name},
            {QStringLiteral("value"), share},
            {QStringLiteral("text"),
             l.counts.fired > 0 ? tr("%1 %").arg(c.toString(share, 'f', 1)) : QStringLiteral("–")},
            {QStringLiteral("tip"),
             tr("%1 of %2 requests accepted").arg(l.counts.accepted).arg(l.counts.fired)}});
    }
    return bars;
}

QJsonArray burstBars(const RunSummary& s) {
    const QLocale c = QLocale::c();
    QJsonArray bars;
    for (const LimiterSummary& l : s.limiters) {
        const std::optional<BusiestInterval> burst = report_figures::markedBurst(l);
        if (!burst) {
            continue;
        }
        QJsonObject bar{
            {QStringLiteral("name"), l.name},
            {QStringLiteral("value"), double(burst->permits)},
            {QStringLiteral("text"), tr("%1 in %2 ms").arg(burst->permits).arg(burst->windowMs)}};
        QString tip =
            tr("%1 accepted in %2 – %3 s of the run")
                .arg(burst->permits)
                .arg(c.toString(double(burst->fromMs) / 1000.0, 'f', 3),
                     c.toString(double(burst->fromMs + burst->windowMs) / 1000.0, 'f', 3));
        if (const auto limit = report_figures::limitIn(l, burst->windowMs)) {
            bar.insert(QStringLiteral("reference"), *limit);
            tip += tr("; its limit admits %1 per %2 ms in the steady state (the dashed line)")
                       .arg(c.toString(*limit, 'g', 4))
                       .arg(burst->windowMs);
        }
        bar.insert(QStringLiteral("tip"), tip);
        bars.append(bar);
    }
    return bars;
}

// The page's words, for its script.
QJsonObject texts() {
    const auto text = [](const char* source) { return QJsonValue(tr(source)); };
    return QJsonObject{
        {QStringLiteral("accepted"), text("accepted")},
        {QStringLiteral("rejected"), text("rejected")},
        {QStringLiteral("errors"), text("errors")},
        {QStringLiteral("totals"), text("accepted %1 · rejected %2 · errors %3")},
        {QStringLiteral("per"), text("requests per %1")},
        {QStringLiteral("ms"), text("%1 ms")},
        {QStringLiteral("s"), text("%1 s")},
        {QStringLiteral("min"), text("%1 min")},
        {QStringLiteral("axis"), text("run time (s)")},
        {QStringLiteral("range"), text("%1 – %2 s")},
        {QStringLiteral("row"), text("%1: accepted %2 · rejected %3 · errors %4")},
        {QStringLiteral("groupRow"), text("group %1: accepted %2 · rejected %3")},
        {QStringLiteral("limit"), text("limit (steady state): %1 per %2")},
        {QStringLiteral("inFlightAxis"), text("requests in flight")},
        {QStringLiteral("inFlightRow"),
         text("in flight: at most %1 of %2 · released %3 · leaked %4")},
        {QStringLiteral("view"), text("Showing %1 – %2 s of %3 s.")},
        {QStringLiteral("tooManyBoundaries"),
         text("window boundaries not drawn (more than %1 in view)")},
        {QStringLiteral("noBuckets"),
         text("No counts per bucket: this summary was read without its buckets.csv.")},
        {QStringLiteral("sharesTitle"), text("Accepted share of the requests fired")},
        {QStringLiteral("burstsTitle"),
         text("Admitted burst: the most accepted in any interval of its own window, against what "
              "its limit admits there in the steady state (dashed)")},
        {QStringLiteral("noBursts"), text("No admitted burst in this summary.")},
        {QStringLiteral("cumulativeTitle"),
         text("Accepted so far, every limiter on one axis, under the requests fired")},
        {QStringLiteral("fired"), text("requests fired")},
        {QStringLiteral("requests"), text("requests")},
        {QStringLiteral("acceptedSoFar"), text("%1: %2 accepted in all")}};
}

}  // namespace

QByteArray reportData(const RunSummary& s) {
    const qint64 buckets = bucketCount(s);
    const qint64 per = niceAtLeast((buckets + kMaxReportSteps - 1) / kMaxReportSteps);
    const qint64 steps = (buckets + per - 1) / per;
    const double endMs = axisEndMs(s, buckets);
    QJsonArray limiters;
    for (const LimiterSummary& l : s.limiters) {
        limiters.append(limiterJson(s, l, per, steps, endMs));
    }
    const QJsonObject data{{QStringLiteral("bucket_ms"), double(s.bucketMs)},
                           {QStringLiteral("step_ms"), double(per * s.bucketMs)},
                           {QStringLiteral("group_pens"), style::kGroupPens},
                           {QStringLiteral("x_max_ms"), endMs},
                           {QStringLiteral("limiters"), limiters},
                           {QStringLiteral("shares"), shareBars(s)},
                           {QStringLiteral("bursts"), burstBars(s)},
                           {QStringLiteral("text"), texts()}};
    QByteArray json = QJsonDocument(data).toJson(QJsonDocument::Compact);
    json.replace('&', "\\u0026").replace('<', "\\u003c").replace('>', "\\u003e");
    return json;
}

}  // namespace ratelab
