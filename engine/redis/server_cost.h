#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ratelab {

class RedisConnection;

// What Redis itself spends: its per-command CPU time (INFO commandstats) and the memory of a
// set of keys (MEMORY USAGE). Read-only commands; a server that refuses them (an ACL user
// without +info or +memory) is reported, not treated as a failure.

// One line of INFO commandstats: "cmdstat_<name>:calls=N,usec=N,usec_per_call=F,...".
struct CommandStat {
    long long calls = 0;
    long long usec = 0;
};

// Command name (lower case, "client|list" for subcommands) -> its counters. Lines that are not
// cmdstat lines, or lack calls= or usec=, are skipped; other fields are ignored.
std::map<std::string, CommandStat> parseCommandStats(const std::string& info);

// Server time spent in script calls (EVALSHA and EVAL) between two readings, and the other
// commands run meanwhile: the ones the scripts called (and any a client sent itself; a
// connection's own bookkeeping — INFO, PING, HELLO, AUTH, SELECT, CLIENT, SCRIPT — is left out).
struct ScriptTime {
    long long calls = 0;
    long long usec = 0;
    long long commands = 0;
    double usecPerCall() const { return calls > 0 ? double(usec) / double(calls) : 0.0; }
    // The Redis commands per script call: what one decision asks of Redis.
    double commandsPerCall() const { return calls > 0 ? double(commands) / double(calls) : 0.0; }
    // Decisions one Redis core could make per second at this cost.
    double callsPerCoreSecond() const {
        return usec > 0 ? 1e6 * double(calls) / double(usec) : 0.0;
    }
};
ScriptTime scriptTimeBetween(const std::map<std::string, CommandStat>& before,
                             const std::map<std::string, CommandStat>& after);

// INFO commandstats of one server. Nothing when the server refuses INFO (`refusal`, if given,
// gets its error text); a broken connection throws RedisError.
std::optional<std::map<std::string, CommandStat>> readCommandStats(RedisConnection& connection,
                                                                   std::string* refusal = nullptr);

// MEMORY USAGE summed over `exactKeys` and every key SCAN finds for `pattern` on this
// connection (one node). `samples` is MEMORY USAGE's SAMPLES: 0 counts every element (exact,
// costs the server O(n) per key), a few (Redis's default is 5) estimate from that many.
struct KeyMemory {
    long long keys = 0;
    long long bytes = 0;
};
// Nothing when the server refuses MEMORY USAGE (`refusal` gets the error text).
std::optional<KeyMemory> readKeyMemory(RedisConnection& connection,
                                       const std::vector<std::string>& exactKeys,
                                       const std::string& pattern, std::string* refusal = nullptr,
                                       int samples = 0);

}  // namespace ratelab
