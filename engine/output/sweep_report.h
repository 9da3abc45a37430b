#pragma once

#include <QString>

#include "output/sweep_table.h"

namespace ratelab {

// What `ratelab sweep` prints (docs/command-line.md, "sweep").

// One line per combination, sorted by the objective (best first): a mark ("best" on the best
// feasible one), the varied values, the objective, each constraint's figure (FAILED where it
// does not hold; a constraint on several limiters shows its worst) and whether every
// constraint holds. Headed by the sweep's name and how many combinations ran.
QString sweepTableText(const SweepTable& table);

// Per constraint, the combinations no other beats on both the objective and that constraint's
// figure (SweepTable::paretoFront), ordered by the figure; empty without constraints.
QString sweepParetoText(const SweepTable& table);

// "best: login.rate = 10, login.burst = 5 (group.attacker.accepted 130; every constraint
// holds)" and, when other feasible combinations equal it on the objective, sweepTieText; or
// which combination came nearest when none holds every constraint (SweepTable::nearest) and
// the constraints it fails.
QString sweepVerdictText(const SweepTable& table);

// "a tie: 4 feasible combinations give accepted 20, over login.rate 5 to 8, login.burst 20;
// ..." (SweepTable::bestTie); empty when the best is alone.
QString sweepTieText(const SweepTable& table);

// "login.rate = 10, login.burst = 5".
QString sweepValuesText(const SweepTable& table, const SweepCombination& combination);

}  // namespace ratelab
