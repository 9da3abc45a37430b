#include "charts/timeline_model.h"

// The history read from the limiter's Redis state (permits over time, each calendar window's
// count, the current spans) and how the timeline draws it.

#include <algorithm>
#include <cmath>

#include "algorithms/algorithm_view.h"
#include "charts/series_decimation.h"

namespace ratelab {

// The token history in view (and one point on each side), thinned out when too long.
TimelineModel::Tokens TimelineModel::tokens(double viewMin, double viewMax, int columns) const {
    Tokens tokens;
    // The permits a request could take: the token bucket's own, the levels' as permits.
    const ChartKind kind = algorithmOf(spec_).chartKind();
    // An in-flight limiter's right axis counts requests in flight instead (inFlight()).
    tokens.shown = configured_ && !algorithmOf(spec_).limitsInFlight() &&
                   (kind == ChartKind::Tokens || kind == ChartKind::Levels);
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
    if (!calendar_)  // only a fixed window counts in calendar windows
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
    const ChartKind kind = algorithmOf(spec_).chartKind();
    if (kind == ChartKind::Levels)
        return levelSpans_;
    if (kind != ChartKind::RuleSpans)
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

// What the limiter's Redis state adds to the history.
void TimelineModel::ingest(const LimiterState& state) {
    switch (algorithmOf(spec_).chartKind()) {
        case ChartKind::Tokens: {
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
        case ChartKind::Windows: {
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
        case ChartKind::RuleSpans:
            spans_ = state.spans;
            spansNowMs_ = state.nowMs;
            break;
        case ChartKind::Levels:
            ingestLevels(state);
            break;
    }
}

// GCRA, the counter and the leaky bucket: the permits a request could take now on the token
// axis (summed over the clients; a scope key not in Redis has all of them), and the busiest
// scope key's state as labelled spans (AlgorithmView::levelSpans: GCRA's theoretical arrival
// time ahead of now within its tolerance, the counter's previous and current windows with the
// weighted estimate, the leaky bucket's water level and the queue delay).
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
    for (const TimeSpan& span :
         algorithmView(spec_).levelSpans(spec_, *busiest, state.nowMs, x, who))
        levelSpans_.append({span.x0, span.x1, span.label});
}

}  // namespace ratelab
