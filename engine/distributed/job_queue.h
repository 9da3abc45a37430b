#pragma once

#include <QByteArray>
#include <QString>
#include <QVector>
#include <memory>
#include <optional>

#include "distributed/queue_keys.h"
#include "distributed/queue_messages.h"
#include "redis/connect_options.h"
#include "redis/redis_reply.h"
#include "url/redis_url.h"

namespace ratelab {

class RedisRouter;

// A job queue's Redis commands (QueueKeys): the jobs stream and its consumer group, a job's
// mark and its results stream. Every command goes to the node of the queue's slot. Not
// thread-safe (one per thread); a RedisError of one command leaves it usable: the next
// command connects again.
class JobQueue {
public:
    // Connects lazily: constructing never fails for an unreachable server.
    JobQueue(QueueKeys keys, RedisUrl url, ConnectOptions options = {});
    ~JobQueue();
    JobQueue(const JobQueue&) = delete;
    JobQueue& operator=(const JobQueue&) = delete;

    const QueueKeys& keys() const { return keys_; }

    // How long the jobs stream (and its group) is kept after the last job that used it.
    static constexpr qint64 kStreamTtlMs = 24LL * 60 * 60 * 1000;
    // A job's mark and results live this long past the coordinator's last keepJob.
    static constexpr qint64 kJobTtlMs = 10LL * 60 * 1000;

    // --- a worker's side (every call throws RedisError) ---
    // The next batch for `consumer`: first one pending longer than `claimMs` at any consumer
    // (XAUTOCLAIM; `claimedFrom` says so), else a new one (XREADGROUP, waiting up to `blockMs`;
    // 0: not at all). The group is created when missing (also after the stream expired).
    std::optional<StreamEntry> take(const QString& consumer, qint64 claimMs, qint64 blockMs,
                                    bool* claimed);
    // Claims entry `id` for `consumer` at once, whoever holds it (a batch its worker refused).
    std::optional<StreamEntry> claim(const QString& consumer, const QByteArray& id);
    void ack(const QByteArray& id);
    bool jobAlive(const QString& job);
    // Appends a result to the job's results stream; false when the stream is gone (the job
    // ended or expired), which creates nothing.
    bool postResult(const ResultMessage& result);
    // Removes `consumer` from the group once it holds no pending batch (a worker that ends).
    void leave(const QString& consumer);

    // --- a coordinator's side ---
    // Marks the job alive, creates its results stream and the group, gives both TTLs.
    void startJob(const QString& job);
    QByteArray publish(const BatchMessage& batch);
    // Refreshes the job's TTLs; false when its mark is gone (Redis lost its data).
    bool keepJob(const QString& job);
    // Results after `after` (an entry id; "0-0" from the start), at most 100, waiting up to
    // `blockMs` for one when there are none (0: not at all).
    QVector<StreamEntry> results(const QString& job, const QByteArray& after, qint64 blockMs);
    // The end of a job: its batches acknowledged and deleted from the jobs stream (`entries`),
    // its mark and results deleted, the consumers that hold no batch and have been idle longer
    // than `claimMs` removed from the group (workers killed -9, which never left), the jobs
    // stream trimmed to what other jobs still need and expiring kStreamTtlMs after now. Never
    // throws: with Redis gone, the TTLs collect them. A live worker removed so is back in the
    // group at its next read.
    void endJob(const QString& job, const QVector<QByteArray>& entries, qint64 claimMs) noexcept;

    struct Consumer {
        QString name;
        qint64 pending = 0;  // batches delivered to it and not acknowledged
        qint64 idleMs = -1;  // since its last read
    };
    // The consumers of the group (XINFO CONSUMERS); throws RedisError while the stream or the
    // group does not exist.
    QVector<Consumer> consumers();

private:
    RedisRouter& router();
    RedisReply send(const std::vector<std::string>& args);
    void ensureGroup();

    QueueKeys keys_;
    RedisUrl url_;
    ConnectOptions options_;
    std::unique_ptr<RedisRouter> router_;
};

}  // namespace ratelab
