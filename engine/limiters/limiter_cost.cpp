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
        std::vector<RedisConnection*> holding{&router_.connectionForSlot(limiter->slot())};
        if (!limiter->keysInOneSlot()) {
            holding = router_.masterConnections();  // the user's keys may live anywhere
        }
        for (RedisConnection* node : holding) {
            if (std::find(found.begin(), found.end(), node) == found.end()) {
                found.push_back(node);
            }
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
            total.commands += time.commands;
        }
        if (!refused) {
            reading.scripts = total;
        }
    }
    for (const Limiter* limiter : limiters) {
        reading.memory.push_back(memoryOf(*limiter, samples, &reading.memoryRefusal));
        const Limiter* reference = limiter->reference();
        reading.referenceMemory.push_back(
            reference != nullptr ? memoryOf(*reference, samples, &reading.memoryRefusal)
                                 : std::nullopt);
    }
    return reading;
}

std::optional<KeyMemory> LimiterCostReader::memoryOf(const Limiter& limiter, int samples,
                                                     std::string* refusal) {
    if (limiter.keysInOneSlot()) {
        return readKeyMemory(router_.connectionForSlot(limiter.slot()), limiter.exactKeys(),
                             limiter.scanPattern(), refusal, samples);
    }
    KeyMemory total;
    for (RedisConnection* node : router_.masterConnections()) {
        for (const std::string& pattern : limiter.keyPatterns()) {
            const std::optional<KeyMemory> part =
                readKeyMemory(*node, {}, pattern, refusal, samples);
            if (!part) {
                return std::nullopt;
            }
            total.keys += part->keys;
            total.bytes += part->bytes;
        }
    }
    return total;
}

}  // namespace ratelab
