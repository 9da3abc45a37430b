#include "redisson/redisson_watcher.h"

#include <QDateTime>
#include <algorithm>
#include <chrono>

namespace ratelab {

RedissonWatcher::RedissonWatcher(const RedisUrl& url, const QString& name, int periodMs)
    : url_(url), reader_(name), periodMs_(std::max(10, periodMs)) {
    thread_ = std::thread([this] { run(); });
}

RedissonWatcher::~RedissonWatcher() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

RedissonWatcher::Status RedissonWatcher::status() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return status_;
}

void RedissonWatcher::run() {
    std::unique_ptr<RedisConnection> connection;
    int backoffMs = periodMs_;
    for (;;) {
        QString error;
        std::optional<RedissonSnapshot> snapshot;
        bool failedToConnect = false;
        bool gone = false;
        try {
            if (!connection) {
                connection = openRedissonConnection(url_, reader_);
            } else if (connection->broken()) {
                connection->reconnect();
            }
            snapshot = reader_.read(*connection, QDateTime::currentMSecsSinceEpoch());
        } catch (const RedissonNotFound& e) {
            error = QString::fromStdString(e.what());
            gone = true;
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());  // never holds the password
            failedToConnect = !connection || connection->broken();
            if (url_.isCluster()) {
                connection.reset();  // the slot may have moved (MOVED): find its owner again
            }
        }
        int waitMs = periodMs_;
        if (failedToConnect) {
            waitMs = backoffMs;
            backoffMs = std::min(backoffMs * 2, 2000);
        } else {
            backoffMs = periodMs_;
        }
        std::unique_lock<std::mutex> lock(mutex_);
        ++status_.polls;
        status_.error = error;
        if (snapshot) {
            ++status_.goodPolls;
            status_.snapshot = std::move(snapshot);
        } else if (gone) {
            status_.snapshot.reset();  // it is gone: do not keep drawing its old state
        }
        if (wake_.wait_for(lock, std::chrono::milliseconds(waitMs), [this] { return stop_; })) {
            return;
        }
    }
}

}  // namespace ratelab
