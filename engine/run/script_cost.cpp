#include "run/script_cost.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <memory>

#include "input_error.h"
#include "input_limits.h"
#include "limiters/limiter_cost.h"
#include "limiters/scratch_keys.h"
#include "limiters/script_spec.h"
#include "run/schedule_walk.h"
#include "traffic/decision_path.h"

namespace ratelab {
namespace {

// `spec` decides `requests` of the schedule alone under a scratch name; the server's counters
// read around it.
std::optional<AloneCost> measureAlone(RedisRouter& router, const Scenario& scenario,
                                      LimiterSpec spec, const QString& scratch, int requests,
                                      QString* refusal) {
    spec.name = (scratch + spec.name).left(spec_limits::kMaxNameLength);
    const std::unique_ptr<Limiter> limiter = makeLimiter(spec, scratchOptions());
    const std::vector<const Limiter*> limiters{limiter.get()};
    deleteScratchKeys(router, limiters);
    // Its keys go however this ends (deleteScratchKeys never throws).
    const std::shared_ptr<void> deleteAfter(nullptr,
                                            [&](void*) { deleteScratchKeys(router, limiters); });
    LimiterCostReader reader(router);
    reader.markBaseline(limiters);
    AloneCost cost;
    const ClockSpec& clock = scenario.traffic.clock;
    ScheduleWalk walk(scenario, clock.isVirtual && clock.startMs > 0
                                    ? clock.startMs
                                    : QDateTime::currentMSecsSinceEpoch());
    for (int i = 0; i < requests; ++i) {
        const ScheduleWalk::Step step = walk.next();
        if (step.index < 0) {
            break;
        }
        try {
            DecisionPath::decideAlone(router, *limiter, step.request);
            ++cost.decisions;
        } catch (const InputError&) {
            throw;
        } catch (const std::exception&) {
            ++cost.failed;  // an error reply: its time counts, it decided nothing
        }
    }
    const LimiterCostReader::Reading reading = reader.read(limiters, 1);
    if (!reading.scripts) {
        *refusal = QString::fromStdString(reading.scriptsRefusal);
        return std::nullopt;
    }
    cost.usPerDecision = reading.scripts->usecPerCall();
    cost.commandsPerDecision = reading.scripts->commandsPerCall();
    return cost;
}

}  // namespace

ScriptCostComparison measureScriptAndReference(RedisRouter& router, const Scenario& scenario,
                                               int limiter, int requests) {
    const LimiterSpec& spec = scenario.limiters.at(limiter);
    if (!spec.script) {
        throw InputError(QString(), QStringLiteral("%1 is not a script limiter").arg(spec.name));
    }
    const QString scratch = QStringLiteral("cost-%1-")
                                .arg(QRandomGenerator::global()->generate64() & 0xffffffffffULL, 10,
                                     16, QLatin1Char('0'));
    ScriptCostComparison out;
    LimiterSpec alone = spec;
    auto script = std::make_shared<ScriptSpec>(*spec.script);
    script->reference.reset();  // the script's own calls only
    alone.script = script;
    out.script = measureAlone(router, scenario, alone, scratch, requests, &out.refusal);
    if (const std::optional<LimiterSpec> reference = referenceSpecOf(spec);
        reference && out.script) {
        out.reference = measureAlone(router, scenario, *reference, scratch, requests, &out.refusal);
    }
    return out;
}

}  // namespace ratelab
