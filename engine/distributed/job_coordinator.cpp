#include "distributed/job_coordinator.h"

#include <QRandomGenerator>
#include <QThread>
#include <algorithm>

#include "input_error.h"
#include "json_input.h"
#include "redis/redis_error.h"

namespace ratelab {
namespace {

using Clock = std::chrono::steady_clock;

// How often the coordinator renews its job's TTLs (JobQueue::kJobTtlMs) and checks its mark.
constexpr std::chrono::seconds kKeepEvery{2};

// Batches published beyond the first one not merged: a hunt of a billion traces keeps a
// bounded queue, and one that ends at an early counterexample leaves little to delete.
constexpr qint64 kPublishAhead = 256;

}  // namespace

JobCoordinator::JobCoordinator(WorkerIdentity identity, std::chrono::milliseconds giveUpAfter,
                               qint64 batches, Log log)
    : log_(std::move(log)),
      identity_(std::move(identity)),
      giveUpAfter_(giveUpAfter),
      batches_(batches) {
    job_ = QStringLiteral("%1").arg(QRandomGenerator::global()->generate64() & 0xffffffffffULL, 10,
                                    16, QLatin1Char('0'));
}

JobCoordinator::~JobCoordinator() {
    stopAndWait();
}

void JobCoordinator::stopAndWait() {
    requestStop();
    wait();
}

void JobCoordinator::start() {
    if (thread_.joinable() || finished_.load()) {
        return;
    }
    thread_ = std::thread([this] { runAll(); });
}

void JobCoordinator::wait() {
    if (thread_.joinable()) {
        thread_.join();
    }
}

QString JobCoordinator::error() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return error_;
}

void JobCoordinator::setError(const QString& error) {
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = error;
}

QMap<QString, qint64> JobCoordinator::batchesByWorker() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return batchesBy_;
}

bool JobCoordinator::merged(qint64 batch) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return merged_.contains(batch);
}

void JobCoordinator::publishMissing(JobQueue& queue) {
    qint64 published = 0;
    qint64 firstOpen = 0;
    while (firstOpen < batches_ && merged(firstOpen)) {
        ++firstOpen;
    }
    const qint64 end = std::min(batches_, firstOpen + kPublishAhead);
    for (qint64 b = firstOpen; b < end; ++b) {
        if (merged(b) || entries_.contains(b)) {
            continue;
        }
        BatchMessage m = batchMessage(b);
        m.job = job_;
        m.batch = b;
        m.version = identity_.version;
        const QByteArray id = queue.publish(m);
        entries_.insert(b, id);
        published_.append(id);
        ++published;
    }
    if (published > 0) {
        log_(QStringLiteral("published %1 batches of job %2 to queue %3")
                 .arg(published)
                 .arg(job_, identity_.queue.name()));
    }
}

void JobCoordinator::readResults(JobQueue& queue, QueueWorker& self) {
    for (const StreamEntry& entry : queue.results(job_, lastResult_, 0)) {
        lastResult_ = entry.id;
        const std::optional<ResultMessage> r = readResult(entry);
        if (!r || r->job != job_) {
            continue;
        }
        const QString from = json_input::printable(r->worker);
        if (r->batch < 0 || r->batch >= batches_) {
            log_(QStringLiteral("a result from %1 names a batch job %2 does not have: ignored")
                     .arg(from, job_));
            continue;
        }
        const bool done = merged(r->batch);
        if (r->status == ResultMessage::Status::Refused) {
            if (refusals_.value(r->worker) != r->reason) {
                refusals_.insert(r->worker, r->reason);
                log_(QStringLiteral("worker %1 refused batch %2: %3")
                         .arg(from)
                         .arg(r->batch)
                         .arg(json_input::printable(r->reason)));
            }
            if (!done && !stop_.load() && r->worker != identity_.consumer) {
                self.workClaimed(stop_, r->entry);  // here, now, rather than after the claim time
            }
            continue;
        }
        if (done) {
            log_(QStringLiteral("batch %1 done twice (again by %2): counted once")
                     .arg(r->batch)
                     .arg(from));
            continue;
        }
        try {
            accept(r->batch, r->data, r->worker);
            std::lock_guard<std::mutex> lock(mutex_);
            merged_.insert(r->batch);
            ++batchesBy_[r->worker];
        } catch (const InputError& e) {
            log_(QStringLiteral("error: the result of batch %1 from %2 does not parse (%3): "
                                "nothing of it counted; the batch is worked here")
                     .arg(r->batch)
                     .arg(from, e.message()));
            entries_.remove(r->batch);
            publishMissing(queue);
            self.workClaimed(stop_, entries_.value(r->batch));
        }
    }
}

void JobCoordinator::runAll() {
    QueueWorker self(identity_, log_);
    JobQueue& queue = self.queue();
    bool started = false;
    bool down = false;
    bool done = false;
    auto lastGood = Clock::now();
    auto nextKeep = Clock::now() + kKeepEvery;
    while (!stop_.load()) {
        try {
            if (!started) {
                queue.startJob(job_);
                publishMissing(queue);
                started = true;
            } else if (Clock::now() >= nextKeep) {
                nextKeep = Clock::now() + kKeepEvery;
                if (!queue.keepJob(job_)) {
                    log_(QStringLiteral("job %1 is gone from Redis (a restart without its data?): "
                                        "publishing its batches again")
                             .arg(job_));
                    queue.startJob(job_);
                    entries_.clear();
                    published_.clear();
                    lastResult_ = "0-0";
                    publishMissing(queue);
                }
            }
            readResults(queue, self);
            publishMissing(queue);  // the window moves on as batches are merged
            if (answered()) {
                done = true;
                break;
            }
            self.step(stop_, 100);  // a batch of its own, or a wait for one
            lastGood = Clock::now();
            if (down) {
                log_(QStringLiteral("redis is back"));
                down = false;
            }
        } catch (const RedisError& e) {
            if (stop_.load()) {
                break;
            }
            if (!down) {
                log_(QStringLiteral("redis: %1; trying again")
                         .arg(QString::fromStdString(e.what())));
                down = true;
            }
            if (Clock::now() - lastGood > giveUpAfter_) {
                setError(QString::fromStdString(e.what()));
                break;
            }
            QThread::msleep(200);
        }
    }
    queue.endJob(job_, published_, identity_.claimMs);
    try {
        queue.leave(identity_.consumer);
    } catch (const RedisError&) {
        // Gone with the stream, a day after its last job.
    }
    if (done && !stop_.load()) {
        finish();
    }
    finished_ = true;
}

}  // namespace ratelab
