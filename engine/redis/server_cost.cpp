#include "redis/server_cost.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "redis/redis_error.h"
#include "redis/redis_scan.h"

namespace ratelab {
namespace {

// The integer after "<field>=" in a comma-separated field list, if there is a valid one.
std::optional<long long> field(const std::string& fields, const std::string& name) {
    size_t at = 0;
    while (at < fields.size()) {
        const size_t end = std::min(fields.find(',', at), fields.size());
        const size_t eq = fields.find('=', at);
        if (eq < end && fields.compare(at, eq - at, name) == 0) {
            const std::string text = fields.substr(eq + 1, end - eq - 1);
            char* stop = nullptr;
            const long long value = std::strtoll(text.c_str(), &stop, 10);
            if (text.empty() || *stop != '\0' || value < 0) {
                return std::nullopt;
            }
            return value;
        }
        at = end + 1;
    }
    return std::nullopt;
}

bool refused(const redisReply* reply, std::string* refusal) {
    if (reply->type != REDIS_REPLY_ERROR) {
        return false;
    }
    if (refusal != nullptr) {
        *refusal = std::string(reply->str, reply->len);
    }
    return true;
}

}  // namespace

std::map<std::string, CommandStat> parseCommandStats(const std::string& info) {
    static const std::string kPrefix = "cmdstat_";
    std::map<std::string, CommandStat> stats;
    std::istringstream lines(info);
    std::string line;
    while (std::getline(lines, line)) {
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        const size_t colon = line.find(':');
        if (line.compare(0, kPrefix.size(), kPrefix) != 0 || colon == std::string::npos ||
            colon == kPrefix.size()) {
            continue;
        }
        const std::string fields = line.substr(colon + 1);
        const std::optional<long long> calls = field(fields, "calls");
        const std::optional<long long> usec = field(fields, "usec");
        if (!calls || !usec) {
            continue;
        }
        stats[line.substr(kPrefix.size(), colon - kPrefix.size())] = CommandStat{*calls, *usec};
    }
    return stats;
}

ScriptTime scriptTimeBetween(const std::map<std::string, CommandStat>& before,
                             const std::map<std::string, CommandStat>& after) {
    ScriptTime time;
    for (const char* command : {"evalsha", "eval"}) {
        const auto a = after.find(command);
        if (a == after.end()) {
            continue;
        }
        const auto b = before.find(command);
        const CommandStat start = b == before.end() ? CommandStat{} : b->second;
        time.calls += a->second.calls - start.calls;
        time.usec += a->second.usec - start.usec;
    }
    static const std::string kOwn[] = {"evalsha", "eval",  "evalsha_ro", "eval_ro", "info",
                                       "ping",    "hello", "auth",       "select"};
    for (const auto& [command, stat] : after) {
        const bool own = std::find(std::begin(kOwn), std::end(kOwn), command) != std::end(kOwn) ||
                         command.rfind("client", 0) == 0 || command.rfind("script", 0) == 0;
        if (own) {
            continue;
        }
        const auto b = before.find(command);
        time.commands += stat.calls - (b == before.end() ? 0 : b->second.calls);
    }
    return time;
}

std::optional<std::map<std::string, CommandStat>> readCommandStats(RedisConnection& connection,
                                                                   std::string* refusal) {
    RedisReply reply = connection.command({"INFO", "commandstats"});
    if (refused(reply.get(), refusal)) {
        return std::nullopt;
    }
    return parseCommandStats(replyString(reply.get(), "INFO commandstats"));
}

std::optional<KeyMemory> readKeyMemory(RedisConnection& connection,
                                       const std::vector<std::string>& exactKeys,
                                       const std::string& pattern, std::string* refusal,
                                       int samples) {
    const std::string sampleCount = std::to_string(std::max(0, samples));
    KeyMemory memory;
    bool denied = false;
    // A key that vanished since SCAN (expired) answers nil and counts for nothing.
    auto measure = [&](const std::vector<std::string>& keys) {
        for (const std::string& key : keys) {
            connection.append({"MEMORY", "USAGE", key, "SAMPLES", sampleCount});
        }
        for (size_t i = 0; i < keys.size(); ++i) {
            RedisReply reply = connection.readReply();
            if (denied || refused(reply.get(), refusal)) {
                denied = true;
                continue;
            }
            if (reply->type == REDIS_REPLY_INTEGER) {
                memory.keys += 1;
                memory.bytes += reply->integer;
            }
        }
    };
    measure(exactKeys);
    scanEach(connection, pattern, [&](std::vector<std::string>& keys) { measure(keys); });
    if (denied) {
        return std::nullopt;
    }
    return memory;
}

}  // namespace ratelab
