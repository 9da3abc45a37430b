#include "live/queue_watcher.h"

#include <QTimer>
#include <algorithm>
#include <exception>

#include "distributed/job_queue.h"

namespace ratelab {

// Lives on the watcher's thread: owns the queue's connection (JobQueue reconnects by itself
// after a failed command) and reads on a single-shot timer.
class QueueWatchWorker : public QObject {
public:
    using Status = QueueWatcher::Status;

    QueueWatchWorker(const RedisUrl& url, const QueueKeys& keys, int periodMs,
                     std::shared_ptr<LatestValue<Status>> latest)
        : queue_(keys, url), periodMs_(periodMs), latest_(std::move(latest)) {
        next_.setSingleShot(true);
        connect(&next_, &QTimer::timeout, this, &QueueWatchWorker::poll);
    }

    void start() { next_.start(std::min(periodMs_, QueueWatcher::kFirstReadMs)); }

    void poll() {
        Status status = latest_->value();  // only this worker publishes: a safe base
        try {
            status.consumers.clear();
            for (const JobQueue::Consumer& c : queue_.consumers()) {
                status.consumers.append(QueueConsumer{c.name, c.pending, c.idleMs});
            }
            status.read = true;
            status.error.clear();
        } catch (const std::exception& e) {  // RedisError
            // Before the coordinator made the group the stream may not exist yet: the first
            // read's error is no news.
            if (status.polls > 0 || status.read)
                status.error = QString::fromStdString(e.what());  // never holds the password
        }
        ++status.polls;
        latest_->publish(std::move(status));
        next_.start(periodMs_);
    }

private:
    JobQueue queue_;
    int periodMs_;
    std::shared_ptr<LatestValue<Status>> latest_;
    QTimer next_{this};
};

QueueWatcher::QueueWatcher(const RedisUrl& url, const QueueKeys& keys, int periodMs)
    : latest_(std::make_shared<LatestValue<Status>>()),
      thread_(QStringLiteral("ratelab-queue"), url, keys, std::max(50, periodMs), latest_) {
    thread_.post([](QueueWatchWorker& w) { w.start(); });
}

QueueWatcher::~QueueWatcher() = default;

}  // namespace ratelab
