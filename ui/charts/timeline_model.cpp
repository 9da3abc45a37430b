#include "charts/timeline_model.h"

#include <algorithm>
#include <cmath>

#include "charts/nice_scale.h"
#include "limiters/algorithm.h"
#include "limiters/floor_div.h"
#include "limiters/limit_geometry.h"

namespace ratelab {
namespace {

// A step has two points per plotted group of buckets.
constexpr qint64 kMaxGroups = TimelineModel::kMaxPointsPerSeries / 2;
// Aligning the groups to multiples of their size and the margin on both sides add up to this
// many groups to those the visible range needs.
constexpr qint64 kGroupSlack = 4;

// The buckets [from, to) summed into groups of `group` as a step outline: each group a flat
// segment over its time span, the last one clipped to the run time reached but at least
// `minWidthMs` wide (a step decides at an instant: the requests of its group would not show).
QList<QPointF> stepPoints(const QVector<qint64>& buckets, qint64 from, qint64 to, qint64 group,
                          qint64 bucketMs, double elapsedMs, double* maxValue,
                          double minWidthMs = 0) {
    QList<QPointF> points;
    const qint64 end = std::min<qint64>(to, buckets.size());
    for (qint64 first = from; first < end; first += group) {
        const qint64 last = std::min(first + group, end);
        qint64 sum = 0;
        for (qint64 i = first; i < last; ++i)
            sum += buckets[int(i)];
        const double x0 = double(first * bucketMs) / 1000.0;
        const double x1 =
            std::min(double(last * bucketMs), std::max(elapsedMs, x0 * 1000.0 + minWidthMs)) /
            1000.0;
        points << QPointF(x0, double(sum)) << QPointF(x1, double(sum));
        *maxValue = std::max(*maxValue, double(sum));
    }
    return points;
}

// `lower` + `upper` step by step (both from stepPoints over the same buckets: same x values).
QList<QPointF> stacked(const QList<QPointF>& lower, const QList<QPointF>& upper, double* maxValue) {
    QList<QPointF> points = upper;
    for (int i = 0; i < points.size() && i < lower.size(); ++i) {
        points[i].ry() += lower[i].y();
        *maxValue = std::max(*maxValue, points[i].y());
    }
    return points;
}

}  // namespace

void TimelineModel::setLimiter(const LimiterSpec& spec, int clients, qint64 bucketMs,
                               qint64 startEpochMs) {
    clients_ = std::max(clients, 1);
    bucketMs_ = std::max<qint64>(bucketMs, 1);
    startEpochMs_ = startEpochMs;
    bucketAccepted_.clear();
    bucketRejected_.clear();
    bucketErrors_.clear();
    bucketReleased_.clear();
    bucketLeaked_.clear();
    groupNames_.clear();
    groupAccepted_.clear();
    errorPrefix_.clear();
    elapsedUs_ = 0;
    hasRun_ = false;
    hasErrors_ = false;
    runClients_ = 0;
    clearStateHistory();
    markers_.clear();
    busiest_.clear();
    busiestRunClock_.clear();
    disagreed_.clear();
    disagreeWith_.clear();
    useSpec(spec);
    limitHistory_ = {{0.0, spec}};
}

void TimelineModel::setDurationSeconds(double seconds) {
    durationSeconds_ = seconds > 0 ? seconds : 0;
}

bool TimelineModel::update(const RunSnapshot& run, int index, const LimiterState* state) {
    if (index < 0 || index >= run.limiters.size())
        return false;
    const LimiterSnapshot& limiter = run.limiters[index];
    if (startEpochMs_ == 0)
        startEpochMs_ = run.startEpochMs;  // set up before the run's clock was known
    // The snapshot carries the live spec: a config changed during the run shows at once, a
    // rename too (the title names the limiter as it is now).
    if (!configured_ || limiter.spec != spec_) {
        const LimiterSpec& next = limiter.spec;
        // Another limiter type, or other calendar windows: the history no longer applies.
        if (next.type != spec_.type || next.interval != spec_.interval || next.unit != spec_.unit ||
            next.timezone != spec_.timezone) {
            clearStateHistory();
        }
        const bool edited = configured_;
        const LimiterSpec previous = spec_;
        useSpec(limiter.spec);
        const double x = double(std::max<qint64>(run.elapsedUs, 0)) / 1e6;
        if (limitHistory_.isEmpty() || !edited) {
            limitHistory_ = {{0.0, limiter.spec}};
        } else {
            while (limitHistory_.size() > 1 && limitHistory_.last().x > x)
                limitHistory_.removeLast();  // a restarted clock
            limitHistory_.append({x, limiter.spec});
            if (limitHistory_.size() > kMaxMarkers)
                limitHistory_.removeFirst();
            // A rename alone changes no limit: the window marks it ("renamed: …").
            const QString change = describeChange(previous, limiter.spec);
            if (!change.isEmpty())
                addMarker(x, change);
        }
    }
    bucketAccepted_ = limiter.bucketAccepted;
    bucketRejected_ = limiter.bucketRejected;
    bucketErrors_ = limiter.bucketErrors;
    bucketReleased_ = limiter.bucketReleased;
    bucketLeaked_ = limiter.bucketLeaked;
    groupNames_.clear();
    groupAccepted_.clear();
    for (const GroupTotals& g : limiter.groups) {
        groupNames_.append(g.group);
        groupAccepted_.append(g.bucketAccepted);
    }
    bucketMs_ = std::max<qint64>(run.bucketMs, 1);
    elapsedUs_ = std::max<qint64>(run.elapsedUs, 0);
    if (run.finished && run.finishedAtUs > elapsedUs_)
        elapsedUs_ = run.finishedAtUs;  // late decisions are drawn too
    if (run.durationUs > 0)
        durationSeconds_ = double(run.durationUs) / 1e6;
    hasRun_ = true;
    hasErrors_ = limiter.errors > 0 ||
                 std::any_of(limiter.bucketErrors.cbegin(), limiter.bucketErrors.cend(),
                             [](qint64 n) { return n > 0; });
    runClients_ = int(limiter.clients.size());
    errorPrefix_.clear();
    if (hasErrors_) {
        errorPrefix_.reserve(bucketErrors_.size() + 1);
        errorPrefix_.append(0);
        for (qint64 n : bucketErrors_)
            errorPrefix_.append(errorPrefix_.last() + n);
    }
    if (state)
        ingest(*state);
    return true;
}

void TimelineModel::addMarker(double runSeconds, const QString& label) {
    if (label.isEmpty())
        return;
    // The window marks an edit at once and the snapshot then brings the changed spec: one
    // marker, "config changed: rate 10 → 30".
    if (!markers_.isEmpty() && std::abs(markers_.last().x - runSeconds) < kMarkerMergeSeconds) {
        QString& joined = markers_.last().label;
        if (!joined.contains(label))
            joined +=
                (joined.contains(QLatin1Char(':')) ? QStringLiteral(" · ") : QStringLiteral(": ")) +
                label;
        return;
    }
    markers_.append({runSeconds, label});
    if (markers_.size() > kMaxMarkers)
        markers_.removeFirst();
}

std::pair<double, double> TimelineModel::followRange(double windowSeconds) const {
    if (durationSeconds_ > 0)
        return {0.0, std::max(durationSeconds_, elapsedSeconds())};
    if (!hasRun_)
        return {0, windowSeconds};
    const double viewMin = std::max(0.0, elapsedSeconds() - windowSeconds);
    return {viewMin, std::max(elapsedSeconds(), viewMin + double(bucketMs_) / 1000.0)};
}

// Accepted, rejected, errors and the limit for the visible buckets (plus a margin of one group
// on each side), summed into groups when there are too many.
TimelineModel::Counts TimelineModel::counts(double viewMin, double viewMax, int columns) const {
    const qint64 firstVisible = qint64(std::floor(viewMin * 1000.0 / double(bucketMs_)));
    const qint64 endVisible = qint64(std::ceil(viewMax * 1000.0 / double(bucketMs_)));
    const qint64 visible = std::max<qint64>(endVisible - firstVisible, 1);
    // At most one step per pixel column: narrower steps only cost painting.
    const qint64 maxGroups =
        columns > 0 ? std::clamp<qint64>(columns, 4 * kGroupSlack, kMaxGroups) : kMaxGroups;
    const qint64 perGroup = (visible + maxGroups - kGroupSlack - 1) / (maxGroups - kGroupSlack);
    const qint64 group = niceAtLeast(std::max<qint64>(perGroup, 1));
    // Groups aligned to multiples of their size do not shift as the view scrolls.
    const qint64 from = std::max<qint64>(0, (floorDiv(firstVisible, group) - 1) * group);
    const qint64 reached = (elapsedUs_ + bucketMs_ * 1000 - 1) / (bucketMs_ * 1000);
    const qint64 to = std::min((floorDiv(endVisible + group - 1, group) + 1) * group, reached);
    const double elapsedMs = double(elapsedUs_) / 1000.0;

    // Three pixel columns: the group a step has just begun is seen.
    const double minWidthMs = columns > 0 ? 3 * (viewMax - viewMin) * 1000.0 / columns : 0;
    Counts counts;
    counts.accepted = stepPoints(bucketAccepted_, from, to, group, bucketMs_, elapsedMs,
                                 &counts.yMax, minWidthMs);
    counts.rejected = stepPoints(bucketRejected_, from, to, group, bucketMs_, elapsedMs,
                                 &counts.yMax, minWidthMs);
    counts.rejectedTop = stacked(counts.accepted, counts.rejected, &counts.yMax);
    counts.showErrors = hasErrors_;
    if (hasErrors_) {
        counts.errors = stepPoints(bucketErrors_, from, to, group, bucketMs_, elapsedMs,
                                   &counts.yMax, minWidthMs);
        counts.errorsTop = stacked(counts.rejectedTop, counts.errors, &counts.yMax);
    }
    counts.groupNames = groupNames_;
    for (const QVector<qint64>& perBucket : groupAccepted_)
        counts.groupAccepted.append(
            stepPoints(perBucket, from, to, group, bucketMs_, elapsedMs, &counts.yMax, minWidthMs));
    counts.groupMs = group * bucketMs_;
    addBaseline(counts, viewMin, viewMax);
    if (!algorithmOf(spec_).limitsInFlight())  // a rate: its inFlight() draws the other limit
        counts.limit = limitSteps(viewMin, viewMax, [&](const LimiterSpec& spec) {
            return limitPerBucket(spec, counts.groupMs, effectiveClients());
        });
    double limitMax = 0;
    for (const QPointF& p : counts.limit)
        limitMax = std::max(limitMax, p.y());
    counts.limitAbove = counts.yMax > 0 && limitMax > kLimitHeadroom * counts.yMax;
    if (!counts.limitAbove)
        counts.yMax = std::max(counts.yMax, limitMax);
    return counts;
}

void TimelineModel::setBaseline(std::shared_ptr<const RunBaseline> baseline) {
    baseline_ = std::move(baseline);
}

const LimiterSummary* TimelineModel::baselineLimiter() const {
    return baseline_ ? baseline_->find(spec_.name) : nullptr;
}

QString TimelineModel::baselineNote() const {
    return baselineMissing() ? tr("not in baseline %1").arg(baseline_->label) : QString();
}

// The baseline's counts over the view, in groups of its own buckets as close to the run's
// groups as they come (the same groups when both runs used the same bucket length).
void TimelineModel::addBaseline(Counts& counts, double viewMin, double viewMax) const {
    const LimiterSummary* base = baselineLimiter();
    if (base == nullptr)
        return;
    const qint64 bucketMs = std::max<qint64>(baseline_->run.bucketMs, 1);
    const qint64 group = std::max<qint64>((counts.groupMs + bucketMs - 1) / bucketMs, 1);
    const qint64 firstVisible = qint64(std::floor(viewMin * 1000.0 / double(bucketMs)));
    const qint64 endVisible = qint64(std::ceil(viewMax * 1000.0 / double(bucketMs)));
    const qint64 from = std::max<qint64>(0, (floorDiv(firstVisible, group) - 1) * group);
    const qint64 buckets = base->buckets.accepted.size();
    const double runS = baseline_->run.runS;
    const double endMs = runS > 0 ? runS * 1000.0 : double(buckets * bucketMs);
    // Not past the time the baseline covered (a stopped run's later buckets are empty).
    const qint64 reached = qint64(std::ceil(endMs / double(bucketMs)));
    const qint64 to = std::min((floorDiv(endVisible + group - 1, group) + 1) * group, reached);
    counts.baselineAccepted =
        stepPoints(base->buckets.accepted, from, to, group, bucketMs, endMs, &counts.yMax);
    counts.baselineRejected =
        stepPoints(base->buckets.rejected, from, to, group, bucketMs, endMs, &counts.yMax);
    counts.baselineGroupMs = group * bucketMs;
}

QList<QPointF> TimelineModel::limitSteps(
    double viewMin, double viewMax,
    const std::function<double(const LimiterSpec&)>& limitOf) const {
    QList<QPointF> points;
    const QVector<LimitChange> history =
        limitHistory_.isEmpty() ? QVector<LimitChange>{{0.0, spec_}} : limitHistory_;
    for (int i = 0; i < history.size(); ++i) {
        const double x0 = i == 0 ? viewMin : std::max(viewMin, history[i].x);
        const double x1 = i + 1 < history.size() ? std::min(viewMax, history[i + 1].x) : viewMax;
        if (x1 < x0 || (x1 == x0 && i + 1 < history.size()))
            continue;  // not in view
        const double limit = limitOf(history[i].spec);
        if (limit > 0)
            points << QPointF(x0, limit) << QPointF(x1, limit);
    }
    return points;
}

// True when decisions failed in a bucket overlapping [x0, x1] (seconds).
bool TimelineModel::errorsBetween(double x0, double x1) const {
    if (errorPrefix_.isEmpty())
        return false;
    const qint64 last = qint64(errorPrefix_.size()) - 1;
    const qint64 first =
        std::clamp<qint64>(qint64(std::floor(x0 * 1000.0 / double(bucketMs_))), 0, last);
    const qint64 end =
        std::clamp<qint64>(qint64(std::floor(x1 * 1000.0 / double(bucketMs_))) + 1, first, last);
    return errorPrefix_[int(end)] > errorPrefix_[int(first)];
}

// A new spec (setLimiter, or a config change during the run).
void TimelineModel::useSpec(const LimiterSpec& spec) {
    spec_ = spec;
    calendar_ = algorithmOf(spec_).calendarWindows(spec_);
    configured_ = true;
}

void TimelineModel::clearStateHistory() {
    tokenHistory_.clear();
    windowCounts_.clear();
    windowParity_.clear();
    spans_.clear();
    spansNowMs_ = 0;
    levelSpans_.clear();
}

int TimelineModel::effectiveClients() const {
    return std::max({clients_, runClients_, 1});
}

qint64 TimelineModel::capacity() const {
    return spec_.capacity() * (spec_.scope == Scope::PerClient ? effectiveClients() : 1);
}

}  // namespace ratelab