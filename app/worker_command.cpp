#include "worker_command.h"

#include <QCoreApplication>
#include <QDateTime>
#include <cstdio>

#include "command_line.h"
#include "input_error.h"
#include "interrupt.h"

namespace ratelab::cli {

QList<QCommandLineOption> queueOptions() {
    return {
        {QStringLiteral("queue"),
         QStringLiteral("The queue's name (default \"default\"): letters, digits, '.', '_', '-'."),
         QStringLiteral("NAME")},
        {QStringLiteral("claim-ms"),
         QStringLiteral("Claim a batch pending this long at another worker (default 30000)."),
         QStringLiteral("MS")},
    };
}

QList<QCommandLineOption> distributedOptions(const QString& doing, const QString& batchHelp) {
    QList<QCommandLineOption> options{
        {QStringLiteral("distributed"),
         QStringLiteral("Publish the batches to a queue that `ratelab worker` processes work, "
                        "work batches here too, and ") +
             doing},
        {QStringLiteral("batch"), batchHelp, QStringLiteral("N")},
    };
    return options + queueOptions();
}

void requireSharedRedis(const QCommandLineParser& parser, const QString& what) {
    if (parser.value(QStringLiteral("redis")).isEmpty() &&
        qEnvironmentVariable("REDIS_URL").isEmpty()) {
        throw InputError(QStringLiteral("--redis"),
                         QStringLiteral("%1 needs the Redis every worker reaches (--redis URL or "
                                        "REDIS_URL); a managed local server is private to one "
                                        "process")
                             .arg(what));
    }
}

WorkerIdentity workerIdentity(const QCommandLineParser& parser, const RedisTarget& target,
                              const QString& suffix) {
    const QString queue = parser.isSet(QStringLiteral("queue"))
                              ? parser.value(QStringLiteral("queue"))
                              : QueueKeys::kDefaultName;
    WorkerIdentity id{QueueKeys(queue, QStringLiteral("--queue")),
                      target.url(),
                      ConnectOptions(),
                      QString(),
                      QString(),
                      30000};
    id.claimMs = integerOption(parser, QStringLiteral("claim-ms"), 30000, 100, 24LL * 3600 * 1000);
    id.version = QCoreApplication::applicationVersion();
    id.consumer = consumerName(suffix);
    return id;
}

int workerCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.addOptions({{QStringLiteral("redis"),
                        QStringLiteral("Redis URL (or REDIS_URL): the queue's, and where this "
                                       "worker's decisions go."),
                        QStringLiteral("URL")}});
    parser.addOptions(queueOptions());
    parser.addOptions(tlsOptions());
    if (!parseArguments(parser, args, {})) {
        return kBadInput;
    }
    return runGuarded(
        [&] {
            const QString queue = parser.isSet(QStringLiteral("queue"))
                                      ? parser.value(QStringLiteral("queue"))
                                      : QueueKeys::kDefaultName;
            QueueKeys(queue, QStringLiteral("--queue"));  // checked before Redis is touched
            requireSharedRedis(parser, QStringLiteral("a worker"));
            const RedisTarget target = resolveRedisTarget(parser);
            const WorkerIdentity identity = workerIdentity(parser, target, {});
            const auto log = [](const QString& line) {
                std::fprintf(stderr, "%s worker: %s\n",
                             qPrintable(QDateTime::currentDateTime().toString(Qt::ISODate)),
                             qPrintable(line));
                std::fflush(stderr);
            };
            log(QStringLiteral("%1 (ratelab %2) joined queue %3 at %4, claiming after %5 ms")
                    .arg(identity.consumer, identity.version, identity.queue.name(),
                         target.description())
                    .arg(identity.claimMs));
            QueueWorker worker(identity, log);
            worker.run(interruptFlag());
            log(QStringLiteral("stopped by %1 after %2 batches")
                    .arg(interrupted() ? interruptName() : QStringLiteral("request"))
                    .arg(worker.batchesDone()));
            return int(kDone);
        },
        OnInterrupt::EndsNormally);
}

}  // namespace ratelab::cli
