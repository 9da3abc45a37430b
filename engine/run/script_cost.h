#pragma once

#include <QString>
#include <optional>

#include "scenario/scenario.h"

namespace ratelab {

class RedisRouter;

// What one limiter's decisions cost Redis, measured alone: server time per decision (INFO
// commandstats, EVALSHA and EVAL) and the Redis commands its script called per decision.
struct AloneCost {
    qint64 decisions = 0;  // decided (a failed decision's time counts, it is not one of these)
    qint64 failed = 0;
    double usPerDecision = 0;
    double commandsPerDecision = 0;
};

// A script limiter against its reference, each measured alone on keys of its own.
struct ScriptCostComparison {
    std::optional<AloneCost> script;     // nothing when the server refused INFO
    std::optional<AloneCost> reference;  // nothing without a reference, or INFO refused
    QString refusal;                     // the server's error when it refused INFO
};

// During a run a script limiter and its reference decide in the same round on the same server,
// so INFO commandstats counts them together. This decides the first `requests` requests of the
// scenario's schedule (at their scheduled times on a virtual clock, as a virtual run would)
// once with the script alone and once with its reference alone, one call each, under scratch
// names ("cost-<random>-…", keys deleted afterwards), reading the server's counters around
// each. Another client's scripts on that server meanwhile count too. Throws RedisError when
// Redis cannot be reached; InputError if the limiter is not a script limiter.
ScriptCostComparison measureScriptAndReference(RedisRouter& router, const Scenario& scenario,
                                               int limiter, int requests);

}  // namespace ratelab
