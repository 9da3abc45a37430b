#include "live/redisson_watcher.h"
#include "redis/redis_router.h"

#include <QDateTime>
#include <QTimer>
#include <algorithm>

namespace ratelab {

// Lives on the watcher's thread: owns the connection and reads on a single-shot timer, every
// periodMs, or after a doubling backoff (up to 2 s) while Redis cannot be reached.
class RedissonPollWorker : public QObject {
public:
    using Status = RedissonWatcher::Status;

    RedissonPollWorker(const RedisUrl& url, const RedissonLimiterReader& reader, int periodMs,
                       std::shared_ptr<LatestValue<Status>> latest)
        : url_(url),
          reader_(reader),
          periodMs_(periodMs),
          backoffMs_(periodMs),
          latest_(std::move(latest)) {
        next_.setSingleShot(true);
        connect(&next_, &QTimer::timeout, this, &RedissonPollWorker::poll);
    }

    void poll() {
        Status status = latest_->value();  // only this worker publishes: a safe base
        status.polledAtMs = QDateTime::currentMSecsSinceEpoch();
        status.error.clear();
        status.failure = RedissonWatcher::Failure::None;
        bool failedToConnect = false;
        try {
            if (!connection_) {
                connection_ = openRedissonConnection(url_, reader_);
            } else if (connection_->broken()) {
                connection_->reconnect();
            }
            status.snapshot = reader_.read(*connection_, status.polledAtMs);
            ++status.goodPolls;
        } catch (const RedissonNotFound& e) {
            status.error = QString::fromStdString(e.what());
            status.failure = RedissonWatcher::Failure::NotFound;
            status.snapshot.reset();  // it is gone: do not keep drawing its old state
        } catch (const std::exception& e) {
            status.error = QString::fromStdString(e.what());  // never holds the password
            status.failure = RedissonWatcher::Failure::Redis;
            failedToConnect = !connection_ || connection_->broken();
            if (url_.isCluster()) {
                connection_.reset();  // the slot may have moved (MOVED): find its owner again
            }
        }
        ++status.polls;
        latest_->publish(std::move(status));
        int waitMs = periodMs_;
        if (failedToConnect) {
            waitMs = backoffMs_;
            backoffMs_ = std::min(backoffMs_ * 2, 2000);
        } else {
            backoffMs_ = periodMs_;
        }
        next_.start(waitMs);
    }

private:
    RedisUrl url_;
    RedissonLimiterReader reader_;
    int periodMs_;
    int backoffMs_;
    std::shared_ptr<LatestValue<Status>> latest_;
    std::unique_ptr<RedisConnection> connection_;
    QTimer next_{this};
};

RedissonWatcher::RedissonWatcher(const RedisUrl& url, const QString& name, int periodMs)
    : reader_(name),
      latest_(std::make_shared<LatestValue<Status>>()),
      thread_(QStringLiteral("ratelab-redisson"), url, reader_, std::max(10, periodMs), latest_) {
    thread_.post([](RedissonPollWorker& w) { w.poll(); });
}

RedissonWatcher::~RedissonWatcher() = default;

}  // namespace ratelab
