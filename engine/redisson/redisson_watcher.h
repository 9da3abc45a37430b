#pragma once

#include <QString>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include "redisson/redisson_limiter_reader.h"

namespace ratelab {

// Polls one Redisson limiter on a thread of its own (read-only, see RedissonLimiterReader) and
// keeps the latest snapshot for a UI timer to pick up: the UI thread never waits on Redis.
// A lost connection is retried with a backoff; errors are kept next to the last good snapshot.
class RedissonWatcher {
public:
    struct Status {
        std::optional<RedissonSnapshot> snapshot;  // the latest good read
        QString error;                             // the latest read's error, empty when fine
        quint64 polls = 0;                         // reads tried so far
        quint64 goodPolls = 0;                     // reads that gave a snapshot
    };

    // Throws InputError for a bad name. Starts polling at once, every periodMs.
    RedissonWatcher(const RedisUrl& url, const QString& name, int periodMs = 50);
    ~RedissonWatcher();  // stops and joins the thread
    RedissonWatcher(const RedissonWatcher&) = delete;
    RedissonWatcher& operator=(const RedissonWatcher&) = delete;

    Status status() const;
    const QString& name() const { return reader_.name(); }

private:
    void run();

    RedisUrl url_;
    RedissonLimiterReader reader_;
    int periodMs_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
    Status status_;
    std::thread thread_;
};

}  // namespace ratelab
