#include "watch_command.h"

#include <QDateTime>
#include <cstdio>
#include <limits>
#include <optional>

#include "command_line.h"
#include "input_error.h"
#include "interrupt.h"
#include "json_input.h"
#include "live/redisson_watcher.h"
#include "redis/redis_error.h"
#include "redis/redis_target.h"
#include "standard_output.h"

namespace ratelab::cli {
namespace {

QString clock(qint64 ms) {
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm:ss.zzz"));
}

QString configLine(const RedissonSnapshot& s) {
    return QStringLiteral("config rate=%1 interval_ms=%2 type=%3 keepAliveTime_ms=%4")
        .arg(s.rate)
        .arg(s.intervalMs)
        .arg(s.perClient ? QStringLiteral("PER_CLIENT") : QStringLiteral("OVERALL"))
        .arg(s.keepAliveTimeMs);
}

QString scopeLine(const RedissonSnapshot& s, const RedissonScope& scope) {
    QString line = QStringLiteral("available=%1/%2 window_grants=%3 window_permits=%4")
                       .arg(scope.available)
                       .arg(s.rate)
                       .arg(scope.grantsInWindow)
                       .arg(scope.permitsInWindow);
    line += scope.hasValue ? QStringLiteral(" value=%1").arg(scope.storedValue)
                           : QStringLiteral(" value=none");
    line += scope.lastGrantMs >= 0 ? QStringLiteral(" last_grant=%1 (%2 ms ago)")
                                         .arg(clock(scope.lastGrantMs))
                                         .arg(s.nowMs - scope.lastGrantMs)
                                   : QStringLiteral(" last_grant=none");
    if (scope.nextReleaseMs >= 0) {
        line += QStringLiteral(" next_release_in_ms=%1").arg(scope.nextReleaseMs - s.nowMs);
    }
    if (scope.available != scope.availableFromGrants) {
        line += QStringLiteral(" (grants say %1: value and grants disagree)")
                    .arg(scope.availableFromGrants);
    }
    if (scope.estimated) {
        line +=
            QStringLiteral(" (permit sums estimated: %1 records not read)").arg(scope.unreadGrants);
    }
    return line;
}

// Each poll's lines as they come (a client's name from its key with its control characters
// escaped); a stdout that no longer takes them ends the watch (exit 4).
void printLine(const QString& line) {
    writeStdout((json_input::printable(line) + QLatin1Char('\n')).toLocal8Bit());
}

void printSnapshot(const RedissonSnapshot& s) {
    if (!s.perClient) {
        printLine(clock(s.nowMs) + QLatin1Char(' ') + scopeLine(s, s.scopes.value(0)));
        return;
    }
    printLine(QStringLiteral("%1 clients=%2").arg(clock(s.nowMs)).arg(s.totalScopes));
    for (const RedissonScope& scope : s.scopes) {
        printLine(QStringLiteral("%1   client=%2 %3")
                      .arg(clock(s.nowMs), scope.clientId, scopeLine(s, scope)));
    }
}

// The watcher's next poll after the `seen`-th; none once a stop is requested (Ctrl+C).
std::optional<RedissonWatcher::Status> nextPoll(const RedissonWatcher& watcher, quint64 seen) {
    while (!interrupted()) {
        if (watcher.waitForPoll(seen, 50)) {
            return watcher.status();
        }
    }
    return std::nullopt;
}

}  // namespace

int watchCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.addOptions({
        {QStringLiteral("redis"), QStringLiteral("Redis URL (or REDIS_URL)."),
         QStringLiteral("URL")},
        {QStringLiteral("redisson"), QStringLiteral("The RRateLimiter's name."),
         QStringLiteral("NAME")},
        {QStringLiteral("interval-ms"), QStringLiteral("Time between polls (default 200)."),
         QStringLiteral("N")},
        {QStringLiteral("count"), QStringLiteral("Stop after N polls."), QStringLiteral("N")},
    });
    parser.addOptions(tlsOptions());
    if (!parseArguments(parser, args, {QStringLiteral("redisson")})) {
        return kBadInput;
    }
    const auto watch = [&] {
        // All input is checked before Redis is touched.
        const qint64 periodMs =
            integerOption(parser, QStringLiteral("interval-ms"), 200, 10, 3600 * 1000);
        const qint64 count =
            integerOption(parser, QStringLiteral("count"), 0, 1, std::numeric_limits<int>::max());
        const RedissonLimiterReader reader(parser.value(QStringLiteral("redisson")));
        if (parser.value(QStringLiteral("redis")).isEmpty() &&
            qEnvironmentVariable("REDIS_URL").isEmpty()) {
            throw InputError(QStringLiteral("--redis"),
                             QStringLiteral("watch needs the URL of the Redis the application "
                                            "uses (--redis URL or REDIS_URL); a managed local "
                                            "server would hold no Redisson limiter"));
        }
        const RedisTarget target = resolveRedisTarget(parser);
        // The window's reader: it polls on a thread of its own; this thread prints each poll.
        const RedissonWatcher watcher(target.url(), reader.name(), int(periodMs));
        const std::optional<RedissonWatcher::Status> first = nextPoll(watcher, 0);
        if (!first) {
            return int(kDone);  // stopped before the first answer
        }
        if (first->failure == RedissonWatcher::Failure::NotFound) {
            throw InputError(QStringLiteral("--redisson"),
                             QStringLiteral("%1 at %2").arg(first->error, target.description()));
        }
        if (first->failure == RedissonWatcher::Failure::Redis) {
            throw RedisError(RedisError::Kind::Reply, first->error.toStdString());
        }
        printLine(QStringLiteral("watching Redisson limiter \"%1\" at %2 (read-only), every %3 ms")
                      .arg(reader.name(), target.description())
                      .arg(periodMs));
        QString lastConfig = configLine(*first->snapshot);
        printLine(lastConfig);

        qint64 polls = 0;
        for (std::optional<RedissonWatcher::Status> status = first; status;
             status = nextPoll(watcher, status->polls)) {
            if (status->failure != RedissonWatcher::Failure::None) {
                // The limiter may be recreated and Redis may come back: report and go on.
                printLine(
                    QStringLiteral("%1 error: %2").arg(clock(status->polledAtMs), status->error));
            } else {
                const RedissonSnapshot& s = *status->snapshot;
                if (configLine(s) != lastConfig) {
                    lastConfig = configLine(s);
                    printLine(lastConfig);
                }
                printSnapshot(s);
            }
            if (count > 0 && ++polls >= count) {
                break;
            }
        }
        return int(kDone);
    };
    // SIGINT, SIGTERM and SIGHUP end the watch (exit 0): its normal way to stop without --count.
    return runGuarded(watch, OnInterrupt::EndsNormally);
}

}  // namespace ratelab::cli
