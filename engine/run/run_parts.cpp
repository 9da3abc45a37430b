#include "run/run_parts.h"

#include <cmath>

#include "scenario/scenario_budget.h"
#include "traffic/traffic_schedule.h"

namespace ratelab {

RunParts::RunParts(const Scenario& scenario, const RedisUrl& url, const ConnectOptions& connect,
                   const LimiterOptions& options, RunClock& clock, int workers,
                   bool keepAcceptedLogs)
    : limiterOptions(options), requests(scenario.traffic) {
    const TrafficSpec& traffic = scenario.traffic;
    for (const LimiterSpec& spec : scenario.limiters) {
        limiters.push_back(makeLimiter(spec, limiterOptions));
    }
    durationUs = static_cast<qint64>(std::llround(traffic.durationS * 1e6));
    pacer = makeSchedule(traffic, durationUs);
    const qint64 bucketUs = scenario.bucketMs * 1000;
    const int buckets =
        static_cast<int>(std::max<qint64>(1, (durationUs + bucketUs - 1) / bucketUs));
    stats = std::make_unique<RunStats>(scenario.limiters, requests.clientNames(), workers, buckets,
                                       requests.groups(), extraBucketSeries(traffic));
    if (!keepAcceptedLogs) {
        stats->dropAcceptedLogs();
    }
    gateways =
        std::make_unique<GatewayState>(scenario.limiters, traffic.gateways.count, limiterOptions);

    context.traffic = &traffic;
    context.limiterCount = int(limiters.size());
    context.limiters = std::make_unique<std::atomic<const Limiter*>[]>(limiters.size());
    for (size_t i = 0; i < limiters.size(); ++i) {
        context.limiters[i] = limiters[i].get();
    }
    context.requests = &requests;
    context.gateways = gateways.get();
    context.pacer = pacer.get();
    context.clock = &clock;
    context.url = url;
    context.connectOptions = connect;
    context.bucketUs = bucketUs;
    context.workers = workers;
    context.stop = &stop;
    context.progressUs = &progressUs;
}

void RunParts::resetKeys(RedisRouter& router) const {
    for (const auto& limiter : limiters) {
        limiter->reset(router);
    }
    gateways->reset(router);
    // Before any decision: a user's script that does not compile is bad input.
    for (const auto& limiter : limiters) {
        limiter->loadScripts(router);
    }
}

std::vector<const Limiter*> RunParts::limitersWithKeys() const {
    std::vector<const Limiter*> out;
    for (const auto& limiter : limiters) {
        out.push_back(limiter.get());
    }
    if (gateways) {
        const std::vector<const Limiter*> local = gateways->localLimiters();
        out.insert(out.end(), local.begin(), local.end());
    }
    return out;
}

void RunParts::flushGateways(RedisRouter& router) const {
    std::vector<const Limiter*> live;
    for (int i = 0; i < context.limiterCount; ++i) {
        live.push_back(&limiter(i));
    }
    gateways->flush(router, live);
}

}  // namespace ratelab
