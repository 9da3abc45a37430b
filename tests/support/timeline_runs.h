#pragma once

// Synthetic runs for the timeline chart's tests (tst_timeline_series, tst_timeline_navigation,
// tst_timeline_overlays, tst_timeline_labels; tst_window_stepping's textsInPlot): limiters, runs of
// one limiter with known bucket counts, token readings, and what the chart shows of them. Built
// into each of those tests (it needs the widgets).

#include <QPair>
#include <QPalette>
#include <QString>
#include <QStringList>
#include <QValueAxis>
#include <QVector>

#include "charts/timeline_chart.h"
#include "limiters/limiter_spec.h"
#include "limiters/limiter_state.h"
#include "stats/run_snapshot.h"

namespace ratelab::test {

// Run time 0 on a whole minute (UTC), so that calendar windows of seconds and minutes start at
// whole multiples of their length in run time.
inline constexpr qint64 kStart = 1'700'000'040'000;
static_assert(kStart % 60000 == 0, "the run starts on a whole minute");

LimiterSpec tokenBucket(qint64 rate, qint64 intervalMs, Scope scope = Scope::Global);
LimiterSpec fixedWindow(qint64 rate, qint64 interval, CalendarUnit unit,
                        Scope scope = Scope::Global);
LimiterSpec slidingWindow(const QVector<SlidingRule>& rules, Scope scope = Scope::Global);
LimiterSpec concurrency(qint64 limit, qint64 leaseMs);

// The values of a step outline's steps (two points a step).
QVector<double> stepValues(const QList<QPointF>& points);

// Synthetic counts, different for every bucket and between the two series.
qint64 acceptedAt(qint64 i);
qint64 rejectedAt(qint64 i);
// The rejected area is stacked on the accepted one: its top is their sum.
qint64 acceptedPlusRejectedAt(qint64 i);

// A run of one limiter that reached elapsedMs. The bucket vectors are longer than that (as the
// engine's, sized for the whole duration) and hold counts there too, which must not be drawn.
RunSnapshot makeRun(const LimiterSpec& spec, qint64 bucketMs, qint64 elapsedMs);
// The same run without a planned duration: the view follows the last windowSeconds.
RunSnapshot withoutDuration(RunSnapshot run);

LimiterState tokenState(qint64 nowMs, const QVector<QPair<QString, qint64>>& tokens);

// The screenshots' dark theme (window #2b2b2b, base #1e1e1e, text #e6e6e6).
QPalette darkPalette();

// Each test draws into a shown 1000 x 320 chart, as in the window.
bool show(TimelineChart& chart);
QValueAxis* xAxis(const TimelineChart& chart);
// The texts of the labels drawn in the chart now (markers, counts, spans).
QStringList drawnTexts(const TimelineChart& chart);
// Those of them drawn whole inside the plot area: a label placed outside it is clipped away,
// not seen, though its item is visible.
QStringList textsInPlot(const TimelineChart& chart);

}  // namespace ratelab::test
