#pragma once

#include <QJsonObject>
#include <QPair>
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
    // What makes the results doubtful, each a sentence (SweepPlan::warnings); empty when none.
    QStringList warnings;

    // Indexes into `combinations`, best first: by the objective in its direction, NaN last,
    // ties by the combination's index.
    QVector<int> ranking() const;
    // The best feasible combination (an index into `combinations`), -1 when none is. Of the
    // feasible combinations equal on the best objective (bestTie), the one with the most
    // headroom on the constraints (headroom: the smallest of its constraints' first, then the
    // next smallest, ...), then the one nearest the middle of those with that headroom (per
    // varied key, its distance from the centre of their values, in steps of the key's sorted
    // values, as a share of their span), then the first in the sweep's order.
    int best() const;
    // The feasible combinations equal to the best on the objective (indexes into
    // `combinations`, ascending); empty when none is feasible. More than one: a tie, which
    // best() breaks.
    QVector<int> bestTie() const;
    // The best feasible combination, or when none is, the one whose failing constraints miss
    // by least (the sum of their misses, constraintMiss), ties by the better objective then
    // the sweep's order; -1 when no combination finished.
    int nearest() const;
    // Constraint c's figure against its bound b, in units of the bound's size: for a
    // failing constraint how far the figure is on the wrong side (f - b for < and <=, b - f for
    // > and >=, |f - b| for ==; infinity for a figure the run lacks), for a holding one 0. The
    // size is |b|, or for a bound of 0 (`rejected_pct <= 0`) the largest |f| of that constraint
    // over the finished combinations (1 when that is 0 too), so that a miss of the worst
    // combination against 0 counts as 1, as a miss of a whole bound does. constraintHeadroom:
    // the same for a holding constraint on the right side (b - f, f - b; 0 for ==).
    double constraintMiss(int combination, int constraint) const;
    double constraintHeadroom(int combination, int constraint) const;
    // The sum of a combination's constraint misses (0 when it is feasible).
    double missOf(int combination) const;
    // Per varied key, the smallest and the largest value of `of` (indexes into combinations).
    QVector<QPair<qint64, qint64>> valueRanges(const QVector<int>& of) const;
    // The combinations no other beats on both the objective and constraint c's figure
    // (SweepCombination::constraintFigure, better in the direction its operator prefers:
    // lower for < and <=, higher for > and >=, nearer the number for ==), ordered by that
    // figure, then by the objective. Indexes into `combinations`; NaN figures are left out, and
    // of combinations alike on both figures only the first in the sweep's order is listed.
    QVector<int> paretoFront(int constraint) const;
    // The admitted-burst windows any row has, ascending.
    std::vector<qint64> burstWindows() const;

private:
    // Per constraint, the size its misses and headroom are counted in (constraintMiss).
    QVector<double> constraintScales() const;
    double miss(int combination, int constraint, const QVector<double>& scales) const;
    double missOf(int combination, const QVector<double>& scales) const;
    double headroom(int combination, int constraint, const QVector<double>& scales) const;
};

}  // namespace ratelab
