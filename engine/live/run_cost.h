#pragma once

#include <QMetaType>
#include <QString>
#include <QVector>

#include "limiters/limiter_cost.h"
#include "run/script_cost.h"

namespace ratelab {

// Redis's own cost of the limiters a run (or step session) uses, as the window shows it while
// the run goes: the server time per decision since the run started (INFO commandstats of the
// nodes holding them: every script call there counts, other limiters' and other clients'
// too) and the memory each limiter's keys hold (MEMORY USAGE; sampled while running, every
// element counted in the final reading).
struct RunCost {
    bool scriptsKnown = false;
    qint64 calls = 0;
    qint64 usec = 0;
    double usPerDecision = 0;
    double decisionsPerCoreSecond = 0;
    // The Redis commands the scripts called per script call (ScriptTime::commandsPerCall).
    double commandsPerDecision = 0;
    QString scriptsRefusal;  // why the script time is unknown (the server's error)
    QVector<qint64> bytes;   // per limiter; -1 when the server refused MEMORY USAGE
    QVector<qint64> keys;
    // Per limiter, its reference's keys (a script limiter with a "reference"); -1 for none.
    QVector<qint64> referenceBytes;
    QVector<qint64> referenceKeys;
    QString memoryRefusal;
    bool exact = false;  // memory with every element counted (SAMPLES 0)
    // Once a run is over: each script limiter with a reference (by its index among the run's
    // limiters), the script's and the reference's cost measured apart (measureScriptAndReference);
    // the figures above count both together.
    struct ScriptAgainstReference {
        int limiter = -1;
        ScriptCostComparison cost;
    };
    QVector<ScriptAgainstReference> scripts;
    qint64 scriptRequests = 0;  // how many of the schedule's requests each decided
};

RunCost runCostOf(const LimiterCostReader::Reading& reading, bool exact);

}  // namespace ratelab

Q_DECLARE_METATYPE(ratelab::RunCost)
