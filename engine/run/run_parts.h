#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "limiters/limiter.h"
#include "scenario/scenario.h"
#include "stats/run_stats.h"
#include "traffic/gateway_state.h"
#include "traffic/pacer.h"
#include "traffic/request_factory.h"
#include "traffic/run_clock.h"
#include "traffic/worker.h"

namespace ratelab {

// What a run of a scenario decides with, made once from the scenario: its limiters, who sends
// what (RequestFactory), the schedule, the gateways' own state, the counters, and the context
// its workers share. A threaded run (ScenarioRunner) and a run decided on the caller's thread
// (ScheduleDecider: Step, explain, replay) are made the same way.
struct RunParts {
    // `scenario` and `clock` outlive this; `workers` is the number of workers the stats count.
    RunParts(const Scenario& scenario, const RedisUrl& url, const ConnectOptions& connect,
             const LimiterOptions& options, RunClock& clock, int workers,
             bool keepAcceptedLogs = true);

    // Deletes every limiter's keys and the gateways' own (mode local), then loads the script
    // limiters' scripts (Limiter::loadScripts: an InputError for one that does not compile).
    // Throws RedisError.
    void resetKeys(RedisRouter& router) const;
    // The run's end: batched gateways add the grants they have not added yet.
    void flushGateways(RedisRouter& router) const;
    // Every limiter whose keys the run writes: the scenario's (and any a live change replaced)
    // and the gateways' own.
    std::vector<const Limiter*> limitersWithKeys() const;
    // The limiter in slot `index` now.
    const Limiter& limiter(int index) const { return *context.limiters[size_t(index)].load(); }

    LimiterOptions limiterOptions;
    RequestFactory requests;
    std::vector<std::unique_ptr<Limiter>> limiters;  // the live ones and every replaced one
    std::unique_ptr<GatewayState> gateways;
    std::unique_ptr<Pacer> pacer;
    qint64 durationUs = 0;
    std::unique_ptr<RunStats> stats;
    RunContext context;
    std::atomic<bool> stop{false};
    std::atomic<qint64> progressUs{0};
};

}  // namespace ratelab
