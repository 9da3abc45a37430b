#include "replay_command.h"

#include <cstdio>

#include "command_line.h"
#include "limiters/limiter.h"
#include "redis/redis_target.h"
#include "scenario/replay.h"
#include "scenario/replay_options.h"

namespace ratelab::cli {

int replayCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.addOptions({
        {QStringLiteral("limiter"), QStringLiteral("Limiter spec (JSON)."), QStringLiteral("SPEC")},
        {QStringLiteral("trace"), QStringLiteral("Trace CSV: t_ms,client,permits."),
         QStringLiteral("TRACE")},
        {QStringLiteral("redis"), QStringLiteral("Redis URL."), QStringLiteral("URL")},
    });
    if (!parseArguments(parser, args, {QStringLiteral("limiter"), QStringLiteral("trace")})) {
        return kBadInput;
    }
    return runGuarded([&] {
        // All input is checked before Redis is touched.
        const LimiterSpec spec = loadLimiterSpecFile(parser.value(QStringLiteral("limiter")));
        const QVector<TraceRow> trace = readTraceFile(parser.value(QStringLiteral("trace")));
        const RedisTarget target = RedisTarget::resolve(parser.value(QStringLiteral("redis")));
        RedisRouter router(target.url());
        const auto limiter = makeLimiter(spec, replayLimiterOptions(trace));

        std::fwrite(replayCsvHeader().constData(), 1, replayCsvHeader().size(), stdout);
        QByteArray buffer;
        replayTrace(router, *limiter, trace, [&](const TraceRow& row, const Decision& d) {
            buffer += replayCsvLine(row, d);
            if (buffer.size() > 64 * 1024) {
                std::fwrite(buffer.constData(), 1, buffer.size(), stdout);
                buffer.clear();
            }
        });
        std::fwrite(buffer.constData(), 1, buffer.size(), stdout);
        std::fflush(stdout);
        return int(kDone);
    });
}

}  // namespace ratelab::cli
