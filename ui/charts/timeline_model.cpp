#include "charts/timeline_model.h"

#include <algorithm>
#include <cmath>

#include "charts/nice_scale.h"
#include "charts/series_decimation.h"
#include "limiters/limit_geometry.h"

namespace ratelab {
namespace {

// A step has two points per plotted group of buckets.
constexpr qint64 kMaxGroups = TimelineModel::kMaxPointsPerSeries / 2;
// Aligning the groups to multiples of their size and the margin on both sides add up to this
// many groups to those the visible range needs.
constexpr qint64 kGroupSlack = 4;

qint64 floorDiv(qint64 a, qint64 b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// The buckets [from, to) summed into groups of `group` as a step outline: each group a flat
// segment over its time span, the last one clipped to the run time reached.
QList<QPointF> stepPoints(const QVector<qint64>& buckets, qint64 from, qint64 to, qint64 group,
                          qint64 bucketMs, double elapsedMs, double* maxValue) {
    QList<QPointF> points;
    const qint64 end = std::min<qint64>(to, buckets.size());
    for (qint64 first = from; first < end; first += group) {
        const qint64 last = std::min(first + group, end);
        qint64 sum = 0;
        for (qint64 i = first; i < last; ++i)
            sum += buckets[int(i)];
        const double x0 = double(first * bucketMs) / 1000.0;
        const double x1 = std::min(double(last * bucketMs), elapsedMs) / 1000.0;
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

QString rulesText(const QVector<SlidingRule>& rules) {
    QStringList parts;
    for (const SlidingRule& rule : rules)
        parts << QStringLiteral("%1/%2 ms").arg(rule.limit).arg(rule.windowMs);
    return parts.join(QStringLiteral(", "));
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
    errorPrefix_.clear();
    elapsedUs_ = 0;
    hasRun_ = false;
    hasErrors_ = false;
    runClients_ = 0;
    clearStateHistory();
    markers_.clear();
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
    // The snapshot carries the live spec: a config changed during the run shows at once.
    if (!configured_ || (limiter.spec.name == spec_.name && limiter.spec != spec_)) {
        const LimiterSpec& next = limiter.spec;
        // Another limiter type, or other calendar windows: the history no longer applies.
        if (next.type != spec_.type || next.interval != spec_.interval || next.unit != spec_.unit ||
            next.timezone != spec_.timezone) {
            clearStateHistory();
        }
        const bool edited = configured_ && limiter.spec.name == spec_.name;
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
            addMarker(x, describeChange(previous, limiter.spec));
        }
    }
    bucketAccepted_ = limiter.bucketAccepted;
    bucketRejected_ = limiter.bucketRejected;
    bucketErrors_ = limiter.bucketErrors;
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

QString TimelineModel::title() const {
    if (spec_.name.isEmpty())
        return QString();
    QString config;
    switch (spec_.type) {
        case LimiterType::TokenBucket:
            config = tr("%1 per %2 ms").arg(spec_.rate).arg(spec_.intervalMs);
            break;
        case LimiterType::FixedWindow:
            config = tr("%1 per %2 %3")
                         .arg(spec_.rate)
                         .arg(spec_.interval)
                         .arg(calendarUnitName(spec_.unit));
            if (!spec_.timezone.isEmpty())
                config += QStringLiteral(" (%1)").arg(QString::fromUtf8(spec_.timezone));
            break;
        case LimiterType::SlidingWindow: {
            QStringList rules;
            for (const SlidingRule& rule : spec_.rules)
                rules << tr("%1 per %2 ms").arg(rule.limit).arg(rule.windowMs);
            config = rules.join(QStringLiteral(", "));
            break;
        }
        case LimiterType::Gcra:
            config =
                tr("%1 per %2 ms, burst %3").arg(spec_.rate).arg(spec_.periodMs).arg(spec_.burst);
            break;
        case LimiterType::SlidingCounter:
            config = tr("%1 per %2 ms window").arg(spec_.limit).arg(spec_.windowMs);
            break;
        case LimiterType::LeakyBucket:
            config = tr("%1 per %2 ms, burst %3%4")
                         .arg(spec_.rate)
                         .arg(spec_.periodMs)
                         .arg(spec_.burst)
                         .arg(spec_.nodelay ? tr(", nodelay") : QString());
            break;
    }
    if (spec_.scope == Scope::PerClient)
        config += tr(" per client");
    return QStringLiteral("<b>%1</b> · %2 · %3")
        .arg(spec_.name.toHtmlEscaped(), limiterTypeName(spec_.type), config.toHtmlEscaped());
}

QString TimelineModel::describeChange(const LimiterSpec& from, const LimiterSpec& to) {
    QStringList parts;
    const QString arrow = QStringLiteral(" \u2192 ");
    if (from.type != to.type)
        parts << limiterTypeName(from.type) + arrow + limiterTypeName(to.type);
    if (from.rate != to.rate)
        parts << tr("rate %1%2%3").arg(from.rate).arg(arrow).arg(to.rate);
    if (from.intervalMs != to.intervalMs)
        parts << tr("interval %1%2%3 ms").arg(from.intervalMs).arg(arrow).arg(to.intervalMs);
    if (from.periodMs != to.periodMs)
        parts << tr("period %1%2%3 ms").arg(from.periodMs).arg(arrow).arg(to.periodMs);
    if (from.burst != to.burst)
        parts << tr("burst %1%2%3").arg(from.burst).arg(arrow).arg(to.burst);
    if (from.limit != to.limit)
        parts << tr("limit %1%2%3").arg(from.limit).arg(arrow).arg(to.limit);
    if (from.windowMs != to.windowMs)
        parts << tr("window %1%2%3 ms").arg(from.windowMs).arg(arrow).arg(to.windowMs);
    if (from.nodelay != to.nodelay)
        parts << (to.nodelay ? tr("nodelay on") : tr("nodelay off"));
    if (from.interval != to.interval || from.unit != to.unit) {
        parts << tr("window %1 %2%3%4 %5")
                     .arg(from.interval)
                     .arg(calendarUnitName(from.unit), arrow)
                     .arg(to.interval)
                     .arg(calendarUnitName(to.unit));
    }
    if (from.timezone != to.timezone) {
        parts << tr("zone %1%2%3")
                     .arg(QString::fromUtf8(from.timezone), arrow, QString::fromUtf8(to.timezone));
    }
    if (from.rules != to.rules)
        parts << tr("rules %1%2%3").arg(rulesText(from.rules), arrow, rulesText(to.rules));
    if (from.scope != to.scope)
        parts << tr("scope changed");
    if (from.onError != to.onError) {
        parts << tr("on_error %1%2%3")
                     .arg(failurePolicyName(from.onError), arrow, failurePolicyName(to.onError));
    }
    return parts.join(QStringLiteral(", "));
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

    Counts counts;
    counts.accepted =
        stepPoints(bucketAccepted_, from, to, group, bucketMs_, elapsedMs, &counts.yMax);
    counts.rejected =
        stepPoints(bucketRejected_, from, to, group, bucketMs_, elapsedMs, &counts.yMax);
    counts.rejectedTop = stacked(counts.accepted, counts.rejected, &counts.yMax);
    counts.showErrors = hasErrors_;
    if (hasErrors_) {
        counts.errors =
            stepPoints(bucketErrors_, from, to, group, bucketMs_, elapsedMs, &counts.yMax);
        counts.errorsTop = stacked(counts.rejectedTop, counts.errors, &counts.yMax);
    }
    counts.groupMs = group * bucketMs_;
    counts.limit = limitSteps(viewMin, viewMax, counts.groupMs);
    for (const QPointF& p : counts.limit)
        counts.yMax = std::max(counts.yMax, p.y());
    return counts;
}

// The limit per group in force over [viewMin, viewMax], a step at each change.
QList<QPointF> TimelineModel::limitSteps(double viewMin, double viewMax, qint64 groupMs) const {
    QList<QPointF> points;
    const QVector<LimitChange> history =
        limitHistory_.isEmpty() ? QVector<LimitChange>{{0.0, spec_}} : limitHistory_;
    for (int i = 0; i < history.size(); ++i) {
        const double x0 = i == 0 ? viewMin : std::max(viewMin, history[i].x);
        const double x1 = i + 1 < history.size() ? std::min(viewMax, history[i + 1].x) : viewMax;
        if (x1 < x0 || (x1 == x0 && i + 1 < history.size()))
            continue;  // not in view
        const double limit = limitPerBucket(history[i].spec, groupMs, effectiveClients());
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

// The token history in view (and one point on each side), thinned out when too long.
TimelineModel::Tokens TimelineModel::tokens(double viewMin, double viewMax, int columns) const {
    Tokens tokens;
    tokens.shown = configured_ && spec_.type != LimiterType::FixedWindow &&
                   spec_.type != LimiterType::SlidingWindow;
    if (!tokens.shown)
        return tokens;
    auto first = std::lower_bound(tokenHistory_.cbegin(), tokenHistory_.cend(), viewMin,
                                  [](const QPointF& p, double x) { return p.x() < x; });
    auto last = std::upper_bound(first, tokenHistory_.cend(), viewMax,
                                 [](double x, const QPointF& p) { return x < p.x(); });
    if (first != tokenHistory_.cbegin())
        --first;
    if (last != tokenHistory_.cend())
        ++last;
    // The lowest and highest reading of each pixel column (and its first and last, the newest
    // reading among them), so that a dip to 0 stays visible however far the view is zoomed out.
    const int maxColumns = kMaxPointsPerSeries / 4;
    tokens.points = decimateMinMax(QList<QPointF>(first, last), viewMin, viewMax,
                                   columns > 0 ? std::min(columns, maxColumns) : maxColumns);
    // Readings taken while decisions failed are dropped, and the line breaks there.
    QList<QPointF> segment;
    for (int i = 0; i < tokens.points.size(); ++i) {
        const QPointF& p = tokens.points[i];
        const bool failedHere = errorsBetween(p.x(), p.x());
        const bool failedBefore = !segment.isEmpty() && errorsBetween(segment.last().x(), p.x());
        if ((failedHere || failedBefore) && !segment.isEmpty()) {
            tokens.segments << segment;
            segment.clear();
        }
        if (!failedHere)
            segment << p;
    }
    if (!segment.isEmpty())
        tokens.segments << segment;
    tokens.points.clear();
    for (const QList<QPointF>& s : tokens.segments)
        tokens.points << s;
    double yMax = 0;
    for (const QPointF& p : tokens.points)
        yMax = std::max(yMax, p.y());
    tokens.axisTop = std::max(double(capacity()), yMax);
    return tokens;
}

// The calendar windows overlapping the view, with their remembered counts.
QVector<TimelineModel::Band> TimelineModel::bands(double viewMin, double viewMax) {
    QVector<Band> bands;
    if (spec_.type != LimiterType::FixedWindow || !calendar_)
        return bands;
    const qint64 fromMs = startEpochMs_ + qint64(std::floor(viewMin * 1000.0));
    const qint64 toMs = startEpochMs_ + qint64(std::ceil(viewMax * 1000.0));
    QVector<CalendarWindow> windows;
    for (CalendarWindow w = calendar_->windowAt(fromMs); w.startMs < toMs;) {
        if (windows.size() == kMaxBands)
            return bands;
        windows.append(w);
        const CalendarWindow next = calendar_->windowAt(w.endMs);
        if (next.startMs <= w.startMs)
            break;  // windows always move forward; never loop if they did not
        w = next;
    }
    if (windows.isEmpty())
        return bands;

    // Shades alternate; a window keeps its shade as the view scrolls.
    int known = -1;
    for (int i = 0; i < windows.size() && known < 0; ++i) {
        if (windowParity_.contains(windows[i].startMs))
            known = i;
    }
    bool firstOdd = false;
    if (known >= 0) {
        firstOdd = windowParity_.value(windows[known].startMs) != (known % 2 == 1);
    } else {
        const qint64 previous = calendar_->windowAt(windows.first().startMs - 1).startMs;
        firstOdd = windowParity_.contains(previous) && !windowParity_.value(previous);
    }
    if (windowParity_.size() > kMaxRememberedWindows)
        windowParity_.clear();

    for (int i = 0; i < windows.size(); ++i) {
        Band band;
        band.x0 = double(windows[i].startMs - startEpochMs_) / 1000.0;
        band.x1 = double(windows[i].endMs - startEpochMs_) / 1000.0;
        band.odd = firstOdd != (i % 2 == 1);
        windowParity_.insert(windows[i].startMs, band.odd);
        const auto record = windowCounts_.constFind(windows[i].startMs);
        if (record != windowCounts_.cend())
            band.label = QStringLiteral("%1/%2").arg(*record).arg(capacity());
        bands.append(band);
    }
    return bands;
}

QVector<TimelineModel::Span> TimelineModel::spans() const {
    QVector<Span> spans;
    if (spec_.type == LimiterType::Gcra || spec_.type == LimiterType::SlidingCounter ||
        spec_.type == LimiterType::LeakyBucket)
        return levelSpans_;
    if (spec_.type != LimiterType::SlidingWindow)
        return spans;
    const double now = double(spansNowMs_ - startEpochMs_) / 1000.0;
    for (const LimiterState::RuleSpan& rule : spans_) {
        Span span;
        span.x0 = now - double(rule.windowMs) / 1000.0;
        span.x1 = now;
        span.label = tr("%1/%2 ms: ").arg(rule.limit).arg(rule.windowMs);
        if (spec_.scope == Scope::PerClient) {
            span.label +=
                tr("%1 of %2 (busiest client %3) · %4 in all")
                    .arg(rule.busiest)
                    .arg(rule.limit)
                    .arg(rule.busiestClient.isEmpty() ? QStringLiteral("–") : rule.busiestClient)
                    .arg(rule.total);
        } else {
            span.label += tr("%1 of %2").arg(rule.total).arg(rule.limit);
        }
        spans.append(span);
    }
    return spans;
}

// A new spec (setLimiter, or a config change during the run).
void TimelineModel::useSpec(const LimiterSpec& spec) {
    spec_ = spec;
    calendar_.reset();
    if (spec_.type == LimiterType::FixedWindow && spec_.interval > 0)
        calendar_.emplace(spec_.interval, spec_.unit, zoneForId(spec_.timezone));
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

// What the limiter's Redis state adds to the history.
void TimelineModel::ingest(const LimiterState& state) {
    switch (spec_.type) {
        case LimiterType::TokenBucket: {
            qint64 available = 0;
            for (const auto& scopeKey : state.tokensAvailable)
                available += scopeKey.second;
            const double x = double(state.nowMs - startEpochMs_) / 1000.0;
            // A reading from before the newest one (a restarted clock) replaces what follows.
            while (!tokenHistory_.isEmpty() && tokenHistory_.last().x() > x)
                tokenHistory_.removeLast();
            if (!tokenHistory_.isEmpty() && tokenHistory_.last().x() == x)
                tokenHistory_.last().setY(double(available));
            else
                tokenHistory_.append(QPointF(x, double(available)));
            if (tokenHistory_.size() > kMaxTokenHistory)
                tokenHistory_.erase(tokenHistory_.begin(), tokenHistory_.end() - kMaxTokenHistory);
            break;
        }
        case LimiterType::FixedWindow: {
            QMap<qint64, qint64> seen;  // per_client: summed over the clients
            for (const LimiterState::WindowCount& w : state.windows)
                seen[w.startMs] += w.count;
            for (auto it = seen.cbegin(); it != seen.cend(); ++it)
                windowCounts_[it.key()] = it.value();
            // The window of `now` has no counter yet (or it was reset): it holds 0. Older
            // windows missing from Redis have expired and keep their last seen count.
            if (calendar_) {
                const qint64 current = calendar_->windowAt(state.nowMs).startMs;
                if (!seen.contains(current))
                    windowCounts_[current] = 0;
            }
            while (windowCounts_.size() > kMaxRememberedWindows)
                windowCounts_.erase(windowCounts_.begin());
            break;
        }
        case LimiterType::SlidingWindow:
            spans_ = state.spans;
            spansNowMs_ = state.nowMs;
            break;
        case LimiterType::Gcra:
        case LimiterType::SlidingCounter:
        case LimiterType::LeakyBucket:
            ingestLevels(state);
            break;
    }
}

// GCRA, the counter and the leaky bucket: the permits a request could take now on the token
// axis (summed over the clients; a scope key not in Redis has all of them), and their state as
// labelled spans: GCRA's theoretical arrival time ahead of now within its tolerance, the counter's
// previous and current windows with the weighted estimate, the leaky bucket's water level and the
// queue delay.
void TimelineModel::ingestLevels(const LimiterState& state) {
    const double x = double(state.nowMs - startEpochMs_) / 1000.0;
    double used = 0;
    const LimiterState::Level* busiest = nullptr;
    for (const LimiterState::Level& level : state.levels) {
        used += std::min(level.used, double(level.capacity));
        if (busiest == nullptr || level.used > busiest->used)
            busiest = &level;
    }
    const double available = std::max(0.0, double(capacity()) - used);
    while (!tokenHistory_.isEmpty() && tokenHistory_.last().x() > x)
        tokenHistory_.removeLast();
    if (!tokenHistory_.isEmpty() && tokenHistory_.last().x() == x)
        tokenHistory_.last().setY(available);
    else
        tokenHistory_.append(QPointF(x, available));
    if (tokenHistory_.size() > kMaxTokenHistory)
        tokenHistory_.erase(tokenHistory_.begin(), tokenHistory_.end() - kMaxTokenHistory);

    levelSpans_.clear();
    if (busiest == nullptr)
        return;
    const QString who = spec_.scope == Scope::PerClient && !busiest->client.isEmpty()
                            ? tr(" (busiest client %1)").arg(busiest->client)
                            : QString();
    switch (spec_.type) {
        case LimiterType::Gcra: {
            // The view ends at now, so the spans end there: the tolerance τ and, inside it, how
            // far the theoretical arrival time is ahead of now (a request passes while TAT + T
            // stays within τ of now).
            const double emissionMs =
                double(spec_.periodMs) / double(std::max<qint64>(1, spec_.rate));
            const double toleranceMs = double(spec_.burst) * emissionMs;
            levelSpans_.append({x - toleranceMs / 1000.0, x,
                                tr("tolerance %1 ms = burst %2 × %3 ms")
                                    .arg(toleranceMs, 0, 'f', toleranceMs < 10 ? 2 : 0)
                                    .arg(spec_.burst)
                                    .arg(emissionMs, 0, 'f', emissionMs < 10 ? 2 : 0)});
            levelSpans_.append({x - double(busiest->aheadMs) / 1000.0, x,
                                tr("TAT = now + %1 ms%2").arg(busiest->aheadMs).arg(who)});
            break;
        }
        case LimiterType::SlidingCounter: {
            const double start = double(busiest->windowStartMs - startEpochMs_) / 1000.0;
            const double w = double(spec_.windowMs) / 1000.0;
            const double weight =
                1.0 - double(state.nowMs - busiest->windowStartMs) / double(spec_.windowMs);
            levelSpans_.append(
                {start - w, start,
                 tr("previous %1 × %2%").arg(busiest->previous).arg(qRound(weight * 100))});
            levelSpans_.append({start, start + w,
                                tr("current %1 · estimate %2 of %3%4")
                                    .arg(busiest->current)
                                    .arg(qRound64(busiest->used))
                                    .arg(spec_.limit)
                                    .arg(who)});
            break;
        }
        case LimiterType::LeakyBucket: {
            // Ending at now: the time the water takes to drain at the leak rate.
            const double drainMs =
                busiest->used * double(spec_.periodMs) / double(std::max<qint64>(1, spec_.rate));
            levelSpans_.append({x - drainMs / 1000.0, x,
                                tr("water %1 of %2, drains in %3 ms · queue delay %4 ms%5")
                                    .arg(busiest->used, 0, 'f', 1)
                                    .arg(spec_.burst + 1)
                                    .arg(qRound64(drainMs))
                                    .arg(busiest->aheadMs)
                                    .arg(who)});
            break;
        }
        case LimiterType::TokenBucket:
        case LimiterType::FixedWindow:
        case LimiterType::SlidingWindow:
            break;
    }
}

int TimelineModel::effectiveClients() const {
    return std::max({clients_, runClients_, 1});
}

qint64 TimelineModel::capacity() const {
    return spec_.capacity() * (spec_.scope == Scope::PerClient ? effectiveClients() : 1);
}

}  // namespace ratelab
