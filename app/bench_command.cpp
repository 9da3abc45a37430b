#include "bench_command.h"

#include <QDateTime>
#include <cstdio>
#include <optional>

#include "command_line.h"
#include "input_error.h"
#include "interrupt.h"
#include "limiters/limiter_cost.h"
#include "redis/redis_router.h"
#include "redis/redis_target.h"
#include "run/throughput_bench.h"

namespace ratelab::cli {
namespace {

// Redis's own cost of the run: server time per decision from INFO commandstats around it, and
// the memory the limiters' keys hold at its end (every element counted). When decisions
// failed the script calls include failed ones (an OOM refusal is cheap): no per-core figure.
void printServerCost(LimiterCostReader& cost, const std::vector<const Limiter*>& limiters,
                     bool measured) {
    const LimiterCostReader::Reading reading = cost.read(limiters, 0);
    if (reading.scripts) {
        const ScriptTime& total = *reading.scripts;
        std::printf(
            "redis_us_per_decision: %.2f  (INFO commandstats, EVALSHA+EVAL: %lld calls, "
            "%lld us of server time)\n",
            total.usecPerCall(), total.calls, total.usec);
        std::printf("redis_calls_per_decision: %.2f  (the commands the script called, per call)\n",
                    total.commandsPerCall());
        if (measured) {
            std::printf("decisions_per_redis_core_s: %.0f\n", total.callsPerCoreSecond());
        }
    } else {
        std::printf("redis_us_per_decision: not available (the server refused INFO: %s)\n",
                    reading.scriptsRefusal.c_str());
    }
    KeyMemory memory;
    for (const std::optional<KeyMemory>& keys : reading.memory) {
        if (!keys) {
            std::printf("key_memory_bytes: not available (the server refused MEMORY USAGE: %s)\n",
                        reading.memoryRefusal.c_str());
            return;
        }
        memory.keys += keys->keys;
        memory.bytes += keys->bytes;
    }
    std::printf("key_memory_bytes: %lld in %lld keys (MEMORY USAGE at the end of the run)\n",
                memory.bytes, memory.keys);
}

// A script limiter's reference, benched alone with the same options after the script: what the
// built-in it claims to implement costs, beside the script's figures ("reference: …" lines).
void benchReference(const Limiter& script, const RedisUrl& url, const BenchOptions& options) {
    const Limiter* reference = script.reference();
    if (reference == nullptr || interrupted()) {
        return;
    }
    RedisRouter control(url);
    reference->reset(control);
    LimiterCostReader cost(control);
    cost.markBaseline({reference});
    const BenchResult result = runThroughputBench(*reference, url, options);
    const LimiterCostReader::Reading reading = cost.read({reference}, 0);
    reference->reset(control);
    QString line = QStringLiteral("reference %1: accepted %2  rejected %3  errors %4")
                       .arg(limiterTypeName(reference->spec().type))
                       .arg(result.accepted)
                       .arg(result.rejected)
                       .arg(result.errors);
    if (result.errors == 0 && !result.stopped) {
        line += QStringLiteral("  decisions_per_s %1").arg(result.decisionsPerSecond(), 0, 'f', 0);
    }
    if (reading.scripts) {
        line += QStringLiteral("  redis_us_per_decision %1  redis_calls_per_decision %2")
                    .arg(reading.scripts->usecPerCall(), 0, 'f', 2)
                    .arg(reading.scripts->commandsPerCall(), 0, 'f', 2);
    }
    std::printf("%s\n", qPrintable(line));
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
    parser.addOptions(tlsOptions());
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
        options.stop = &interruptFlag();
        const RedisTarget target = resolveRedisTarget(parser);
        auto resetAll = [&] {
            RedisRouter control(target.url());
            for (const auto& limiter : limiters) {
                limiter->reset(control);
            }
        };
        resetAll();
        {
            // A user's script that does not compile is bad input, before anything is timed.
            RedisRouter control(target.url());
            limiters.front()->loadScripts(control);
        }
        RedisRouter costRouter(target.url());
        LimiterCostReader cost(costRouter);
        cost.markBaseline(used);
        const BenchResult result = runThroughputBench(used, target.url(), options);
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
        // A throughput figure is only printed for a clean, complete run: failed decisions are
        // cheap and would inflate it, and an interrupted run measured less than asked.
        const bool measured = result.errors == 0 && !result.stopped && !interrupted();
        if (result.errors > 0) {
            std::printf("errors by cause: %s\n",
                        qPrintable(errorCausesText(nonZeroCauses(result.errorCauses))));
        }
        for (const BenchResult::Node& node : result.nodes) {
            if (measured) {
                std::printf("node %s: decisions %lld  decisions_per_s %.0f\n",
                            qPrintable(node.name), static_cast<long long>(node.decisions),
                            result.seconds > 0 ? double(node.decisions) / result.seconds : 0.0);
            } else {
                std::printf("node %s: decisions %lld\n", qPrintable(node.name),
                            static_cast<long long>(node.decisions));
            }
        }
        printServerCost(cost, used, measured);
        resetAll();
        benchReference(first, target.url(), options);
        std::printf("same script with redis-benchmark: %s\n",
                    qPrintable(redisBenchmarkCommand(first, target.url(), options,
                                                     QDateTime::currentMSecsSinceEpoch())));
        if (!measured) {
            std::fflush(stdout);
            if (result.stopped || interrupted()) {
                printError(
                    QStringLiteral("interrupted by %1: no throughput figure").arg(interruptName()));
                return interruptExitCode();
            }
            printError(QStringLiteral("%1 of %2 decisions failed (%3): no throughput figure")
                           .arg(result.errors)
                           .arg(result.accepted + result.rejected + result.errors)
                           .arg(errorCausesText(nonZeroCauses(result.errorCauses))));
            return int(kRedisFailed);
        }
        std::printf("decisions_per_s: %.0f\n", result.decisionsPerSecond());
        std::fflush(stdout);
        return int(kDone);
    });
}

}  // namespace ratelab::cli
