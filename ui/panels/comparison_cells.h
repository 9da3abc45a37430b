#pragma once

#include <QString>
#include <array>

#include "output/run_baseline.h"
#include "stats/run_snapshot.h"

namespace ratelab::comparison {

// The comparison table's cells (ComparisonTable lays them out): a limiter's row, a traffic
// group's row under it, and the baseline's rows under each of those.

enum Column {
    kLimiter,
    kType,
    kFired,
    kAccepted,
    kRejected,
    kErrors,
    kErrorsOpen,
    kErrorsClosed,
    kAcceptedPct,
    kP50,
    kP99,
    kFairness,
    kRedisCalls,
    kBurst,
    kReference,  // a script limiter's disagreements with its reference
    kColumns
};

// A cell's text, its tooltip (empty: the text itself, which may be elided), whether it is a
// figure past the limit (drawn bold in the palette's error colour) and the columns it spans (a
// row that only says why it has no figures: its first cell across the row).
struct Cell {
    QString text;
    QString toolTip;
    bool alert = false;
    int span = 1;
};
using Row = std::array<Cell, kColumns>;

// Several gateways, or a limiter's own gateway use: its decisions that called Redis are worth
// a column and a line.
bool reportsGateways(const LimiterSnapshot& s);
// "3 gateways, local, cached refusals": how a limiter's decisions reach Redis.
QString gatewaysText(const LimiterSnapshot& s);

// The admitted-burst column's window when every limiter's marked burst (panel::markedBurst) is
// in the same one, else 0 (each cell then names its window); -1 without any burst (the column
// hides).
qint64 burstColumnWindow(const RunSnapshot& run);

// A window's length as the burst column names it: "1 s", "2 min", "250 ms".
QString windowText(qint64 windowMs);

// `withScope`: the type cell names the scope too ("sliding_window (per_client)"); without, the
// header says the one scope every limiter has (sharedScope).
Row limiterRow(const LimiterSnapshot& s, qint64 columnWindowMs, bool withScope = true);
// The scope every limiter of `run` has ("per_client", "global"); empty when they differ or
// there are none.
QString sharedScope(const RunSnapshot& run);
// A traffic group at limiter `s`: its counts, accepted share and fairness; its admitted burst in
// the limiter's marked window; no latency or Redis calls (counted per limiter).
Row groupRow(const LimiterSnapshot& s, const GroupTotals& g, qint64 columnWindowMs);
// The baseline's figures for `s` (or "not in baseline #3"): each its value and this run's
// difference, "118 (Δ +2)", spelled out in the tooltip.
Row baselineRow(const RunBaseline& baseline, const LimiterSnapshot& s, qint64 columnWindowMs);
// The baseline's figures for group `g` of `s`, or why it has none across the row ("no groups in
// baseline #3: its traffic had none, or its summary was written before groups were kept").
Row groupBaselineRow(const RunBaseline& baseline, const LimiterSnapshot& s, const GroupTotals& g,
                     qint64 columnWindowMs);

}  // namespace ratelab::comparison
