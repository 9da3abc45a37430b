#include "replay_command.h"

#include <cstdio>

#include "command_line.h"
#include "input_error.h"
#include "interrupt.h"
#include "limiters/limiter.h"
#include "limiters/script_spec.h"
#include "redis/redis_error.h"
#include "redis/redis_router.h"
#include "redis/redis_target.h"
#include "run/replay.h"
#include "run/replay_options.h"
#include "standard_output.h"
#include "run/script_ttls.h"

namespace ratelab::cli {
namespace {

// A replay decides each row at its t_ms; a "time": "redis" limiter decides at Redis's own
// clock instead, so the rows printed would not say when each was decided.
void refuseRedisTime(const LimiterSpec& spec, const QString& file) {
    if (spec.time == TimeSource::Redis) {
        throw InputError(file + QStringLiteral(": $.time"),
                         QStringLiteral("\"redis\": a replay decides each row at its t_ms, and a "
                                        "limiter on Redis's time would decide at Redis's clock "
                                        "instead of the trace's; replay it without \"time\" (or "
                                        "with \"time\": \"client\")"));
    }
}

// On stderr: a script limiter's decisions against its reference's, and a key whose TTL a replay
// in virtual time may have outrun.
void reportScriptChecks(RedisRouter& router, const Limiter& limiter, const Trace& trace,
                        const ReferenceCounts& reference) {
    if (const std::optional<LimiterSpec> ref = referenceSpecOf(limiter.spec());
        ref && !interrupted()) {
        std::fprintf(stderr, "%s\n",
                     qPrintable(QStringLiteral("reference %1: %2 of %3 decisions disagree")
                                    .arg(limiterTypeName(ref->type))
                                    .arg(reference.disagreed)
                                    .arg(reference.compared)));
    }
    if (trace.isEmpty() || !limiter.spec().script ||
        limiter.spec().script->clock != ScriptClock::Args) {
        return;
    }
    const qint64 spanMs = trace.tMsAt(trace.size() - 1) - trace.tMsAt(0) + 1;
    try {
        for (const ShortScriptTtl& found : shortScriptTtls(router, {&limiter}, spanMs)) {
            printError(QStringLiteral("warning: ") + shortScriptTtlWarning(found, spanMs));
        }
    } catch (const RedisError&) {
        // Redis gone after the last row: nothing to look at.
    }
}

}  // namespace

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
        refuseRedisTime(spec, parser.value(QStringLiteral("limiter")));
        TraceBudget budget;
        budget.maxBytes = maxMemory(parser);
        budget.limitName = QStringLiteral("--max-memory");
        const Trace trace = readTraceFile(parser.value(QStringLiteral("trace")), budget);
        const RedisTarget target = resolveRedisTarget(parser);
        RedisRouter router(target.url());
        const bool explain = parser.isSet(QStringLiteral("explain"));
        LimiterOptions options = replayLimiterOptions(trace);
        options.keepRawReplies = explain;  // a script limiter's reply in the reason column
        const auto limiter = makeLimiter(spec, options);
        checkTraceFitsLimiter(*limiter, trace, parser.value(QStringLiteral("trace")));
        // A user's script that does not compile is bad input, before the header is printed.
        limiter->loadScripts(router);

        QByteArray buffer = replayCsvHeader(explain);
        qint64 done = 0;
        const auto writeOut = [&] {
            writeStdout(buffer);
            buffer.clear();
        };
        ReferenceCounts reference;
        try {
            // The header goes out with the first rows: a replay refused before its first
            // decision (a key ratelab did not create, limiter.h) prints nothing.
            replayTrace(
                router, *limiter, trace,
                [&](const TraceRow& row, const Decision& d) {
                    ++done;
                    buffer += explain ? replayCsvLine(row, d, spec) : replayCsvLine(row, d);
                    if (buffer.size() > 64 * 1024) {
                        writeOut();
                    }
                },
                &interruptFlag(), &reference);
            writeOut();
        } catch (const RedisError&) {
            try {
                writeOut();  // every row decided so far is printed, whatever happens next
            } catch (const StdoutFailed&) {
            }
            throw;
        } catch (StdoutFailed& failed) {
            // stdout could not be written (EPIPE: the reader went away, as `| head` does;
            // ENOSPC): the replay stops instead of deciding rows nobody reads.
            failed.detail = QStringLiteral("the replay stopped after deciding %1 of %2 rows")
                                .arg(done)
                                .arg(trace.size());
            throw;
        }
        reportScriptChecks(router, *limiter, trace, reference);
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
