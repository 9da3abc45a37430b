#pragma once

#include <QCommandLineParser>
#include <QList>
#include <QStringList>

#include "distributed/queue_worker.h"
#include "redis/redis_target.h"

namespace ratelab::cli {

// `ratelab worker [--redis URL] [--queue NAME] [--claim-ms MS]`: works a queue's batches until
// SIGINT, SIGTERM or SIGHUP (docs/distributed.md), logging each batch taken and finished.
int workerCommand(const QStringList& args);

// --queue and --claim-ms, which `worker` and `sweep`/`hunt --distributed` share.
QList<QCommandLineOption> queueOptions();
// --distributed (`doing`: what the coordinator does with the batches), --batch (`batchHelp`)
// and queueOptions(): what `sweep` and `hunt` add to run on workers.
QList<QCommandLineOption> distributedOptions(const QString& doing, const QString& batchHelp);
// The worker a command runs as: its queue (bad names throw InputError naming --queue), claim
// time, consumer name ("host:pid" and `suffix`), version, and URL: `target` must be a server
// others can reach, not a managed one (InputError naming --redis, `command` in the message).
WorkerIdentity workerIdentity(const QCommandLineParser& parser, const RedisTarget& target,
                              const QString& suffix);
// InputError unless --redis or REDIS_URL is given: `what` ("a worker", "--distributed") says who
// needs the server every worker reaches.
void requireSharedRedis(const QCommandLineParser& parser, const QString& what);

}  // namespace ratelab::cli
