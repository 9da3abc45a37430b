#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>
#include <algorithm>
#include <vector>

#include "stats/admitted_burst.h"
#include "stats/expectation.h"

namespace ratelab {

// The results of a sweep (`ratelab sweep`, the window's Tune tab): per combination of the
// varied values, each limiter's figures (and each group's), the objective and the constraints
// checked. sweep.csv, sweep.json, the printed table and the heatmap are made from it.

// One row of sweep.csv: the figures of one limiter, or of one group of clients at it.
struct SweepFigures {
    QString limiter;                      // the limiter's own name
    QString group = QStringLiteral("*");  // "*": every client
    qint64 fired = 0;
    qint64 accepted = 0;
    qint64 rejected = 0;
    qint64 errors = 0;
    std::vector<BusiestInterval> admittedBurst;  // on the limiter's clock, ascending by window

    double rejectedPct() const { return fired > 0 ? 100.0 * double(rejected) / double(fired) : 0; }
};

// One combination of the varied values and what its run gave.
struct SweepCombination {
    qint64 index = 0;        // in the sweep's order (SweepSpec::valuesOf)
    QVector<qint64> values;  // one per varied key
    QVector<SweepFigures> rows;
    // The objective's figure: of its limiter, or the worst over the varied limiters (the
    // largest when minimizing, the smallest when maximizing); NaN when the run lacks it.
    double objective = 0;
    // The objective's figure per limiter it applies to ("login" -> 12).
    QVector<ExpectationResult> objectiveParts;
    // Per constraint (in the sweep's order), its check on every limiter it applies to.
    QVector<QVector<ExpectationResult>> checks;

    // Whether constraint c held on every limiter it applies to.
    bool holds(int c) const {
        const QVector<ExpectationResult> on = checks.value(c);
        return std::all_of(on.begin(), on.end(), [](const ExpectationResult& r) { return r.held; });
    }
    bool feasible() const;   // every check held (a figure the run lacks fails)
    int checksHeld() const;  // constraints whose every check held
    // Constraint c's figure: its worst over the limiters it applies to (the largest for < and
    // <=, the smallest for > and >=, the farthest from the number for ==); NaN when none.
    double constraintFigure(int c) const;
};

// A whole sweep, or the part of it that finished.
struct SweepTable {
    QString scenario;
    QStringList keys;                     // the varied keys, in the combinations' value order
    QVector<QVector<qint64>> axisValues;  // each key's values, in the sweep's order
    QString objective;                    // "group.attacker.accepted" or "login:accepted"
    bool maximize = false;
    QStringList constraints;                 // as the scenario writes them
    qint64 total = 0;                        // combinations planned
    bool complete = true;                    // false: stopped before every combination ran
    QString note;                            // e.g. why the clock was changed; empty when none
    QVector<SweepCombination> combinations;  // finished ones, ascending by index
    // The best combination as a scenario `ratelab run` runs (sweep.json's "best.scenario");
    // empty when none is feasible.
    QJsonObject bestScenario;

    // Indexes into `combinations`, best first: by the objective in its direction, NaN last,
    // ties by the combination's index.
    QVector<int> ranking() const;
    // The best feasible combination (an index into `combinations`), -1 when none is.
    int best() const;
    // The best feasible combination, or when none is, the one that holds the most constraints
    // (ties: the better objective); -1 when no combination finished.
    int nearest() const;
    // The combinations no other beats on both the objective and constraint c's figure
    // (SweepCombination::constraintFigure, better in the direction its operator prefers:
    // lower for < and <=, higher for > and >=, nearer the number for ==), ordered by that
    // figure, then by the objective. Indexes into `combinations`; NaN figures are left out, and
    // of combinations alike on both figures only the first in the sweep's order is listed.
    QVector<int> paretoFront(int constraint) const;
    // The admitted-burst windows any row has, ascending.
    std::vector<qint64> burstWindows() const;
};

}  // namespace ratelab
