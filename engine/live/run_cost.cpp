#include "live/run_cost.h"

namespace ratelab {

RunCost runCostOf(const LimiterCostReader::Reading& reading, bool exact) {
    RunCost cost;
    cost.exact = exact;
    if (reading.scripts) {
        cost.scriptsKnown = true;
        cost.calls = reading.scripts->calls;
        cost.usec = reading.scripts->usec;
        cost.usPerDecision = reading.scripts->usecPerCall();
        cost.decisionsPerCoreSecond = reading.scripts->callsPerCoreSecond();
        cost.commandsPerDecision = reading.scripts->commandsPerCall();
    } else {
        cost.scriptsRefusal = QString::fromStdString(reading.scriptsRefusal);
    }
    for (const std::optional<KeyMemory>& memory : reading.memory) {
        cost.bytes.push_back(memory ? memory->bytes : -1);
        cost.keys.push_back(memory ? memory->keys : -1);
    }
    for (const std::optional<KeyMemory>& memory : reading.referenceMemory) {
        cost.referenceBytes.push_back(memory ? memory->bytes : -1);
        cost.referenceKeys.push_back(memory ? memory->keys : -1);
    }
    cost.memoryRefusal = QString::fromStdString(reading.memoryRefusal);
    return cost;
}

}  // namespace ratelab
