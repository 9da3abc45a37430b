#include "distributed/queue_worker.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSysInfo>
#include <QThread>
#include <optional>

#include "distributed/batch_work.h"
#include "input_error.h"
#include "redis/redis_error.h"
#include "redis/redis_reply.h"
#include "redis/redis_router.h"

namespace ratelab {
namespace {

// A batch whose decisions failed (Redis went away under it) is worked again this many times
// before its result, errors and all, is posted as a local sweep would report it.
constexpr int kAttempts = 5;
constexpr int kRetryPauseMs = 500;

// Sleeps `ms` in slices, returning early once `stop` is set.
void pause(const std::atomic<bool>& stop, int ms) {
    for (int slept = 0; slept < ms && !stop.load(); slept += 20) {
        QThread::msleep(20);
    }
}

// The run_id of every master: a server restarted meanwhile has another, and may have lost the
// state a batch's decisions read without any of them failing (a reconnect between two).
QStringList serverRunIds(const RedisUrl& url, const ConnectOptions& options) {
    RedisRouter router(url, options);
    QStringList ids;
    for (RedisConnection* node : router.masterConnections()) {
        RedisReply info = node->command({"INFO", "server"});
        const QString text = QString::fromStdString(replyString(info.get(), "INFO server"));
        const qsizetype at = text.indexOf(QLatin1String("run_id:"));
        ids << (at < 0 ? QString() : text.mid(at + 7, 40));
    }
    return ids;
}

QString batchName(const StreamEntry& entry) {
    return QStringLiteral("batch %1 of job %2")
        .arg(QString::fromUtf8(entry.field("batch")), QString::fromUtf8(entry.field("job")));
}

}  // namespace

QString consumerName(const QString& suffix) {
    QString name = QStringLiteral("%1:%2")
                       .arg(QSysInfo::machineHostName())
                       .arg(QCoreApplication::applicationPid());
    return suffix.isEmpty() ? name : name + QLatin1Char(':') + suffix;
}

QueueWorker::QueueWorker(WorkerIdentity identity, Log log)
    : identity_(std::move(identity)),
      log_(std::move(log)),
      queue_(identity_.queue, identity_.url, identity_.options) {}

bool QueueWorker::step(const std::atomic<bool>& stop, qint64 blockMs) {
    bool claimed = false;
    const std::optional<StreamEntry> entry =
        queue_.take(identity_.consumer, identity_.claimMs, blockMs, &claimed);
    if (!entry) {
        return false;
    }
    work(*entry, claimed, stop);
    return true;
}

bool QueueWorker::workClaimed(const std::atomic<bool>& stop, const QByteArray& id) {
    const std::optional<StreamEntry> entry = queue_.claim(identity_.consumer, id);
    if (!entry) {
        return false;
    }
    work(*entry, true, stop);
    return true;
}

void QueueWorker::run(const std::atomic<bool>& stop) {
    bool down = false;
    while (!stop.load()) {
        try {
            step(stop, 1000);
            if (down) {
                log_(QStringLiteral("redis is back"));
                down = false;
            }
        } catch (const RedisError& e) {
            if (stop.load()) {
                break;
            }
            if (!down) {
                log_(QStringLiteral("redis: %1; trying again")
                         .arg(QString::fromStdString(e.what())));
                down = true;
            }
            pause(stop, kRetryPauseMs);
        }
    }
    try {
        queue_.leave(identity_.consumer);
    } catch (const RedisError&) {
        // Gone with the stream, a day after its last job.
    }
}

void QueueWorker::refuse(const StreamEntry& entry, const QString& reason) {
    log_(QStringLiteral("refused %1: %2").arg(batchName(entry), reason));
    ResultMessage r;
    r.job = QString::fromUtf8(entry.field("job"));
    r.batch = entry.field("batch").toLongLong();
    r.entry = entry.id;
    r.worker = identity_.consumer;
    r.version = identity_.version;
    r.status = ResultMessage::Status::Refused;
    r.reason = reason;
    // Left pending for the coordinator to claim; a job that is over has no results stream,
    // and its batch is only acknowledged.
    if (r.job.isEmpty() || !queue_.postResult(r)) {
        queue_.ack(entry.id);
    }
}

void QueueWorker::work(const StreamEntry& entry, bool claimed, const std::atomic<bool>& stop) {
    const QString version = QString::fromUtf8(entry.field("version"));
    if (version != identity_.version) {
        refuse(entry, QStringLiteral("this worker is ratelab %1 and the batch was published by "
                                     "ratelab %2: run one version everywhere")
                          .arg(identity_.version, version));
        return;
    }
    QString problem;
    const std::optional<BatchMessage> batch = readBatch(entry, &problem);
    if (!batch) {
        log_(QStringLiteral("dropped entry %1 of the queue: it is no batch (%2)")
                 .arg(QString::fromUtf8(entry.id), problem));
        queue_.ack(entry.id);
        return;
    }
    const QString name = batchName(entry);
    if (!queue_.jobAlive(batch->job)) {
        log_(QStringLiteral("skipped %1: the job is over").arg(name));
        queue_.ack(entry.id);
        return;
    }
    log_(QStringLiteral("%1 %2 (%3)")
             .arg(claimed ? QStringLiteral("claimed") : QStringLiteral("took"), name,
                  batchRangeText(*batch)));
    BatchWork once;
    try {
        once = batchWork(*batch, identity_.url, identity_.options);
    } catch (const InputError& e) {
        refuse(entry, QStringLiteral("cannot work it here: %1").arg(e.message()));
        return;
    }
    QElapsedTimer timer;
    timer.start();
    BatchAttempt run;
    for (int attempt = 1;; ++attempt) {
        QString failure;
        try {
            const QStringList servers = serverRunIds(identity_.url, identity_.options);
            run = once(stop);
            if (serverRunIds(identity_.url, identity_.options) != servers) {
                failure = QStringLiteral("Redis restarted while it ran");
            }
        } catch (const RedisError& e) {
            failure = QString::fromStdString(e.what());
            run = BatchAttempt();
        }
        if (stop.load()) {
            refuse(entry, QStringLiteral("the worker was stopped before it finished"));
            return;
        }
        const bool whole = failure.isEmpty() && run.whole;
        if (failure.isEmpty() && !whole) {
            failure = QStringLiteral("it did not finish");
        }
        if (whole && (run.failedDecisions == 0 || attempt >= kAttempts)) {
            break;
        }
        if (!whole && attempt >= kAttempts) {
            refuse(entry, QStringLiteral("it failed %1 times: %2").arg(kAttempts).arg(failure));
            return;
        }
        log_(QStringLiteral("%1: %2; working it again")
                 .arg(name, failure.isEmpty()
                                ? QStringLiteral("%1 decisions failed").arg(run.failedDecisions)
                                : failure));
        pause(stop, kRetryPauseMs);
    }
    ResultMessage r;
    r.job = batch->job;
    r.batch = batch->batch;
    r.entry = entry.id;
    r.worker = identity_.consumer;
    r.version = identity_.version;
    r.data = run.data;
    const bool posted = queue_.postResult(r);
    queue_.ack(entry.id);
    ++done_;
    log_(posted ? QStringLiteral("finished %1: %2 decisions in %3 s%4")
                      .arg(name)
                      .arg(run.decisions)
                      .arg(double(timer.elapsed()) / 1000, 0, 'f', 1)
                      .arg(run.note.isEmpty() ? QString() : QStringLiteral("; ") + run.note)
                : QStringLiteral("finished %1 after the job ended: result dropped").arg(name));
}

}  // namespace ratelab
