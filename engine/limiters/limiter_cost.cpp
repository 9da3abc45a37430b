#include "limiters/limiter_cost.h"

#include <algorithm>

#include "limiters/limiter.h"
#include "redis/redis_router.h"

namespace ratelab {

LimiterCostReader::LimiterCostReader(RedisRouter& router) : router_(router) {}

// The nodes holding the limiters' slots (one for a single server), each once.
std::vector<RedisConnection*> LimiterCostReader::nodes(
    const std::vector<const Limiter*>& limiters) {
    std::vector<RedisConnection*> found;
    for (const Limiter* limiter : limiters) {
        RedisConnection* node = &router_.connectionForSlot(limiter->slot());
        if (std::find(found.begin(), found.end(), node) == found.end()) {
            found.push_back(node);
        }
    }
    return found;
}

void LimiterCostReader::markBaseline(const std::vector<const Limiter*>& limiters) {
    baseline_.clear();
    baselineRefusal_.clear();
    baselineRead_ = true;
    for (RedisConnection* node : nodes(limiters)) {
        std::optional<Stats> stats = readCommandStats(*node, &baselineRefusal_);
        if (!stats) {
            baseline_.clear();
            baselineRead_ = false;
            return;
        }
        baseline_[node] = std::move(*stats);
    }
}

LimiterCostReader::Reading LimiterCostReader::read(const std::vector<const Limiter*>& limiters,
                                                   int samples) {
    Reading reading;
    if (!baselineRead_) {
        reading.scriptsRefusal =
            baselineRefusal_.empty() ? std::string("no baseline read") : baselineRefusal_;
    } else {
        ScriptTime total;
        bool refused = false;
        for (RedisConnection* node : nodes(limiters)) {
            const auto start = baseline_.find(node);
            if (start == baseline_.end()) {
                continue;  // a node that appeared since (a slot moved): its counters are not ours
            }
            const std::optional<Stats> now = readCommandStats(*node, &reading.scriptsRefusal);
            if (!now) {
                refused = true;
                break;
            }
            ScriptTime time = scriptTimeBetween(start->second, *now);
            if (time.calls < 0 || time.usec < 0) {
                time = scriptTimeBetween({}, *now);  // the server restarted since
            }
            total.calls += time.calls;
            total.usec += time.usec;
        }
        if (!refused) {
            reading.scripts = total;
        }
    }
    for (const Limiter* limiter : limiters) {
        reading.memory.push_back(readKeyMemory(router_.connectionForSlot(limiter->slot()),
                                               limiter->exactKeys(), limiter->scanPattern(),
                                               &reading.memoryRefusal, samples));
    }
    return reading;
}

}  // namespace ratelab
