#include "replay_command.h"

#include <cstdio>

#include "command_line.h"
#include "interrupt.h"
#include "limiters/limiter.h"
#include "redis/redis_error.h"
#include "redis/redis_target.h"
#include "run/replay.h"
#include "run/replay_options.h"

namespace ratelab::cli {

int replayCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.addOptions({
        {QStringLiteral("limiter"), QStringLiteral("Limiter spec (JSON)."), QStringLiteral("SPEC")},
        {QStringLiteral("trace"), QStringLiteral("Trace CSV: t_ms,client,permits."),
         QStringLiteral("TRACE")},
        {QStringLiteral("redis"), QStringLiteral("Redis URL."), QStringLiteral("URL")},
        {QStringLiteral("explain"),
         QStringLiteral("Two more columns: rule (the deciding rule, 0-based) and reason (why, in "
                        "one sentence with its numbers).")},
        maxMemoryOption(QStringLiteral("Refuse traces that would need more memory")),
    });
    parser.addOptions(tlsOptions());
    if (!parseArguments(parser, args, {QStringLiteral("limiter"), QStringLiteral("trace")})) {
        return kBadInput;
    }
    return runGuarded([&] {
        // All input is checked before Redis is touched.
        const LimiterSpec spec = loadLimiterSpecFile(parser.value(QStringLiteral("limiter")));
        TraceBudget budget;
        budget.maxBytes = maxMemory(parser);
        budget.limitName = QStringLiteral("--max-memory");
        const Trace trace = readTraceFile(parser.value(QStringLiteral("trace")), budget);
        installInterruptHandlers();
        const RedisTarget target = resolveRedisTarget(parser);
        RedisRouter router(target.url());
        const auto limiter = makeLimiter(spec, replayLimiterOptions(trace));
        checkTraceFitsLimiter(*limiter, trace, parser.value(QStringLiteral("trace")));

        const bool explain = parser.isSet(QStringLiteral("explain"));
        const QByteArray header = replayCsvHeader(explain);
        std::fwrite(header.constData(), 1, header.size(), stdout);
        QByteArray buffer;
        qint64 done = 0;
        auto writeOut = [&] {
            std::fwrite(buffer.constData(), 1, buffer.size(), stdout);
            std::fflush(stdout);
            buffer.clear();
        };
        try {
            done = replayTrace(
                router, *limiter, trace,
                [&](const TraceRow& row, const Decision& d) {
                    buffer += explain ? replayCsvLine(row, d, spec) : replayCsvLine(row, d);
                    if (buffer.size() > 64 * 1024) {
                        writeOut();
                    }
                },
                &interruptFlag());
        } catch (const RedisError&) {
            writeOut();  // every row decided so far is printed, whatever happens next
            throw;
        }
        writeOut();
        if (interrupted()) {
            printError(QStringLiteral("interrupted by %1 after %2 of %3 rows (each row printed "
                                      "was decided)")
                           .arg(interruptName())
                           .arg(done)
                           .arg(trace.size()));
            return interruptExitCode();
        }
        return int(kDone);
    });
}

}  // namespace ratelab::cli
