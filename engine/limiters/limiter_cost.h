#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "redis/server_cost.h"

namespace ratelab {

class Limiter;
class RedisConnection;
class RedisRouter;

// What a set of limiters costs Redis, read from Redis itself: the server time per script call
// since a baseline (INFO commandstats of the nodes holding the limiters' slots) and the memory
// each limiter's keys hold (MEMORY USAGE over its keys). Used by `ratelab bench` and by the
// window's comparison view while a run goes.
//
// INFO commandstats counts every script call a node ran, not only these limiters' calls: with
// several limiters on one server the time is theirs together (a script limiter's reference's
// too: measure each alone, as `ratelab bench` does, to tell them apart), and another client's
// scripts count too. Memory is per limiter, a script limiter's reference's apart.
class LimiterCostReader {
public:
    struct Reading {
        std::optional<ScriptTime> scripts;  // since markBaseline(); nothing when INFO is refused
        std::string scriptsRefusal;         // the server's error when it refused INFO
        std::vector<std::optional<KeyMemory>> memory;  // per limiter, in the constructor's order
        // Per limiter, its reference's keys (a script limiter with a "reference"); none for
        // the others.
        std::vector<std::optional<KeyMemory>> referenceMemory;
        std::string memoryRefusal;  // the server's error when it refused MEMORY USAGE
    };

    // `router` must outlive the reader.
    explicit LimiterCostReader(RedisRouter& router);

    // Reads the script counters of every node holding one of `limiters` as the baseline.
    // Throws RedisError when a node cannot be reached (a refusal is not an error: read() then
    // reports it).
    void markBaseline(const std::vector<const Limiter*>& limiters);

    // Script time since the baseline on the nodes holding `limiters` (a node without a
    // baseline is left out) and each limiter's key memory, in their order (`samples` as in
    // readKeyMemory: 0 exact, a few for a cheap estimate). Throws RedisError on a broken
    // connection.
    Reading read(const std::vector<const Limiter*>& limiters, int samples = 0);

private:
    using Stats = std::map<std::string, CommandStat>;
    std::vector<RedisConnection*> nodes(const std::vector<const Limiter*>& limiters);
    // A limiter's keys: its slot's node, or (a script limiter's, in the user's hash tags) every
    // master's, over each of its key patterns.
    std::optional<KeyMemory> memoryOf(const Limiter& limiter, int samples, std::string* refusal);

    RedisRouter& router_;
    bool baselineRead_ = false;
    std::map<const RedisConnection*, Stats> baseline_;  // per node
    std::string baselineRefusal_;
};

}  // namespace ratelab
