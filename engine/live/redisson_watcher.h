#pragma once

#include <QString>
#include <memory>
#include <optional>

#include "live/latest_value.h"
#include "live/worker_thread.h"
#include "redisson/redisson_limiter_reader.h"

namespace ratelab {

class RedissonPollWorker;

// Polls one Redisson limiter in the background (read-only, see RedissonLimiterReader) and keeps
// the newest status in a mailbox for the window's timer or the command line to take: neither
// ever waits on Redis. A lost connection is retried with a backoff; errors are kept next to the
// last good snapshot.
class RedissonWatcher {
public:
    enum class Failure {
        None,
        NotFound,  // the limiter's config hash is missing (the name is wrong, or it was deleted)
        Redis,     // Redis failed or holds something Redisson would not have written
    };

    struct Status {
        std::optional<RedissonSnapshot> snapshot;  // the latest good read
        QString error;                             // the latest read's error, empty when fine
        Failure failure = Failure::None;           // the latest read's
        qint64 polledAtMs = 0;                     // when the latest read started (epoch ms)
        quint64 polls = 0;                         // reads tried so far
        quint64 goodPolls = 0;                     // reads that gave a snapshot
    };

    // Throws InputError for a bad name. Starts polling at once, every periodMs.
    RedissonWatcher(const RedisUrl& url, const QString& name, int periodMs = 50);
    ~RedissonWatcher();  // stops the thread (after at most one poll)
    RedissonWatcher(const RedissonWatcher&) = delete;
    RedissonWatcher& operator=(const RedissonWatcher&) = delete;

    Status status() const { return latest_->value(); }
    // Waits up to timeoutMs for a poll after the `seenPolls`-th; true when one came.
    bool waitForPoll(quint64 seenPolls, int timeoutMs) const {
        return latest_->waitNewer(seenPolls, timeoutMs);
    }
    const QString& name() const { return reader_.name(); }

private:
    RedissonLimiterReader reader_;                 // checks the name before the thread starts
    std::shared_ptr<LatestValue<Status>> latest_;  // shared with the worker
    WorkerThread<RedissonPollWorker> thread_;
};

}  // namespace ratelab
