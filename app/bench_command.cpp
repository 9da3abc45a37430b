#include "bench_command.h"

#include <QDateTime>
#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>

#include "command_line.h"
#include "input_error.h"
#include "redis/redis_target.h"
#include "redis/server_cost.h"
#include "scenario/throughput_bench.h"

namespace ratelab::cli {
namespace {

// The nodes holding the limiters' slots (one for a single server), each once.
std::vector<RedisConnection*> limiterNodes(RedisRouter& router,
                                           const std::vector<const Limiter*>& limiters) {
    std::vector<RedisConnection*> nodes;
    for (const Limiter* limiter : limiters) {
        RedisConnection* node = &router.connectionForSlot(limiter->slot());
        if (std::find(nodes.begin(), nodes.end(), node) == nodes.end()) {
            nodes.push_back(node);
        }
    }
    return nodes;
}

// INFO commandstats of every node, or nothing when one refuses it (`refusal` says why).
std::optional<std::vector<std::map<std::string, CommandStat>>> readAllCommandStats(
    const std::vector<RedisConnection*>& nodes, std::string* refusal) {
    std::vector<std::map<std::string, CommandStat>> all;
    for (RedisConnection* node : nodes) {
        std::optional<std::map<std::string, CommandStat>> stats = readCommandStats(*node, refusal);
        if (!stats) {
            return std::nullopt;
        }
        all.push_back(std::move(*stats));
    }
    return all;
}

// Redis's own cost of the run: server time per decision from INFO commandstats around it, and
// the memory the limiters' keys hold at its end.
void printServerCost(const std::optional<std::vector<std::map<std::string, CommandStat>>>& before,
                     const std::optional<std::vector<std::map<std::string, CommandStat>>>& after,
                     const std::string& refusal, RedisRouter& router,
                     const std::vector<const Limiter*>& limiters) {
    if (before && after) {
        ScriptTime total;
        for (size_t i = 0; i < before->size(); ++i) {
            const ScriptTime node = scriptTimeBetween((*before)[i], (*after)[i]);
            total.calls += node.calls;
            total.usec += node.usec;
        }
        std::printf(
            "redis_us_per_decision: %.2f  (INFO commandstats, EVALSHA+EVAL: %lld calls, "
            "%lld us of server time)\n",
            total.usecPerCall(), total.calls, total.usec);
        std::printf("decisions_per_redis_core_s: %.0f\n", total.callsPerCoreSecond());
    } else {
        std::printf("redis_us_per_decision: not available (the server refused INFO: %s)\n",
                    refusal.c_str());
    }
    KeyMemory memory;
    std::string memoryRefusal;
    for (const Limiter* limiter : limiters) {
        const std::optional<KeyMemory> keys =
            readKeyMemory(router.connectionForSlot(limiter->slot()), limiter->exactKeys(),
                          limiter->scanPattern(), &memoryRefusal);
        if (!keys) {
            std::printf("key_memory_bytes: not available (the server refused MEMORY USAGE: %s)\n",
                        memoryRefusal.c_str());
            return;
        }
        memory.keys += keys->keys;
        memory.bytes += keys->bytes;
    }
    std::printf("key_memory_bytes: %lld in %lld keys (MEMORY USAGE at the end of the run)\n",
                memory.bytes, memory.keys);
}

}  // namespace

int benchCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.addOptions({
        {QStringLiteral("limiter"), QStringLiteral("Limiter spec (JSON)."), QStringLiteral("SPEC")},
        {QStringLiteral("connections"), QStringLiteral("Connections (threads)."),
         QStringLiteral("N")},
        {QStringLiteral("pipeline"), QStringLiteral("Requests in flight per connection."),
         QStringLiteral("P")},
        {QStringLiteral("requests"), QStringLiteral("Decisions in total."), QStringLiteral("N")},
        {QStringLiteral("names"),
         QStringLiteral("Limiters: NAME-0 .. NAME-(N-1), spread over a cluster's masters."),
         QStringLiteral("N")},
        {QStringLiteral("redis"), QStringLiteral("Redis URL."), QStringLiteral("URL")},
    });
    if (!parseArguments(parser, args, {QStringLiteral("limiter")})) {
        return kBadInput;
    }
    return runGuarded([&] {
        const LimiterSpec spec = loadLimiterSpecFile(parser.value(QStringLiteral("limiter")));
        BenchOptions options;
        options.connections = int(integerOption(parser, QStringLiteral("connections"), 1, 1, 256));
        options.pipeline = int(integerOption(parser, QStringLiteral("pipeline"), 1, 1, 10000));
        options.requests =
            integerOption(parser, QStringLiteral("requests"), 100000, 1, 1'000'000'000);
        const int names = int(integerOption(parser, QStringLiteral("names"), 1, 1, 100000));
        std::vector<std::unique_ptr<Limiter>> limiters;
        std::vector<const Limiter*> used;
        for (int i = 0; i < names; ++i) {
            LimiterSpec copy = spec;
            if (names > 1) {
                copy.name = spec.name + QLatin1Char('-') + QString::number(i);
                if (copy.name.size() > spec_limits::kMaxNameLength) {
                    throw InputError(QStringLiteral("--names"),
                                     QStringLiteral("\"%1\" is longer than %2 characters")
                                         .arg(copy.name)
                                         .arg(spec_limits::kMaxNameLength));
                }
            }
            limiters.push_back(makeLimiter(copy));
            used.push_back(limiters.back().get());
        }
        const RedisTarget target = RedisTarget::resolve(parser.value(QStringLiteral("redis")));
        auto resetAll = [&] {
            RedisRouter control(target.url());
            for (const auto& limiter : limiters) {
                limiter->reset(control);
            }
        };
        resetAll();
        RedisRouter costRouter(target.url());
        const std::vector<RedisConnection*> nodes = limiterNodes(costRouter, used);
        std::string refusal;
        const auto statsBefore = readAllCommandStats(nodes, &refusal);
        const BenchResult result = runThroughputBench(used, target.url(), options);
        const auto statsAfter =
            statsBefore ? readAllCommandStats(nodes, &refusal) : decltype(statsBefore)();
        const Limiter& first = *limiters.front();
        std::printf("limiter: %s (%s)%s\n", qPrintable(spec.name),
                    qPrintable(limiterTypeName(spec.type)),
                    names > 1 ? qPrintable(QStringLiteral(" x %1 names").arg(names)) : "");
        std::printf("redis: %s\n", qPrintable(target.description()));
        std::printf("connections: %d  pipeline: %d  requests: %lld\n", options.connections,
                    options.pipeline, static_cast<long long>(options.requests));
        std::printf("accepted: %lld  rejected: %lld  errors: %lld  seconds: %.3f\n",
                    static_cast<long long>(result.accepted),
                    static_cast<long long>(result.rejected), static_cast<long long>(result.errors),
                    result.seconds);
        for (const BenchResult::Node& node : result.nodes) {
            std::printf("node %s: decisions %lld  decisions_per_s %.0f\n", qPrintable(node.name),
                        static_cast<long long>(node.decisions),
                        result.seconds > 0 ? double(node.decisions) / result.seconds : 0.0);
        }
        printServerCost(statsBefore, statsAfter, refusal, costRouter, used);
        resetAll();
        std::printf("same script with redis-benchmark: %s\n",
                    qPrintable(redisBenchmarkCommand(first, target.url(), options,
                                                     QDateTime::currentMSecsSinceEpoch())));
        std::printf("decisions_per_s: %.0f\n", result.decisionsPerSecond());
        std::fflush(stdout);
        return int(result.errors > 0 ? kRedisFailed : kDone);
    });
}

}  // namespace ratelab::cli
