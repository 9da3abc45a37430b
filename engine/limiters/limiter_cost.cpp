#include "limiters/limiter_cost.h"

#include <algorithm>

#include "limiters/limiter.h"

namespace ratelab {

LimiterCostReader::LimiterCostReader(RedisRouter& router, std::vector<const Limiter*> limiters)
    : router_(router), limiters_(std::move(limiters)) {}

// The nodes holding the limiters' slots (one for a single server), each once, in a stable
// order so that a baseline and a later reading pair up node by node.
std::vector<RedisConnection*> LimiterCostReader::nodes() {
    std::vector<RedisConnection*> found;
    for (const Limiter* limiter : limiters_) {
        RedisConnection* node = &router_.connectionForSlot(limiter->slot());
        if (std::find(found.begin(), found.end(), node) == found.end()) {
            found.push_back(node);
        }
    }
    return found;
}

std::optional<std::vector<std::map<std::string, CommandStat>>> LimiterCostReader::readStats(
    std::string* refusal) {
    std::vector<std::map<std::string, CommandStat>> all;
    for (RedisConnection* node : nodes()) {
        std::optional<std::map<std::string, CommandStat>> stats = readCommandStats(*node, refusal);
        if (!stats) {
            return std::nullopt;
        }
        all.push_back(std::move(*stats));
    }
    return all;
}

void LimiterCostReader::markBaseline() {
    baselineRefusal_.clear();
    baseline_ = readStats(&baselineRefusal_);
}

LimiterCostReader::Reading LimiterCostReader::read(int samples) {
    Reading reading;
    if (!baseline_) {
        reading.scriptsRefusal =
            baselineRefusal_.empty() ? std::string("no baseline read") : baselineRefusal_;
    } else if (const auto now = readStats(&reading.scriptsRefusal)) {
        // A node that appeared since the baseline (a slot moved) has no pair: its counters
        // since the server started would not be this run's, so it is left out.
        ScriptTime total;
        for (size_t i = 0; i < std::min(now->size(), baseline_->size()); ++i) {
            ScriptTime node = scriptTimeBetween((*baseline_)[i], (*now)[i]);
            if (node.calls < 0 || node.usec < 0) {
                node = scriptTimeBetween({}, (*now)[i]);  // the server restarted since
            }
            total.calls += node.calls;
            total.usec += node.usec;
        }
        reading.scripts = total;
    }
    for (const Limiter* limiter : limiters_) {
        reading.memory.push_back(readKeyMemory(router_.connectionForSlot(limiter->slot()),
                                               limiter->exactKeys(), limiter->scanPattern(),
                                               &reading.memoryRefusal, samples));
    }
    return reading;
}

}  // namespace ratelab
