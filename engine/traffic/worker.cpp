#include "traffic/worker.h"

#include <algorithm>
#include <limits>

#include "redis/redis_error.h"
#include "redis/redis_router.h"
#include "traffic/redis_error_cause.h"

namespace ratelab {
namespace {

constexpr std::chrono::milliseconds kMinBackoff{50};
constexpr std::chrono::milliseconds kMaxBackoff{2000};
constexpr qint64 kEveryRequest = std::numeric_limits<qint64>::max();

}  // namespace

Worker::Worker(const RunContext& context, int index, WorkerStats& stats)
    : ctx_(context),
      index_(index),
      stats_(stats),
      pacer_(context.pacer->clone()),
      path_([&context](int l) -> const Limiter& { return *context.limiters[size_t(l)].load(); },
            context.gateways, context.traffic->roundTripPerLimiter),
      replyClock_([clock = context.clock] { return clock->elapsedUs(); }) {
    advanceSchedule();
    for (const Job& job : ctx_.pending) {
        if (job.k % ctx_.workers == index_) {
            push(job);
        }
    }
}

void Worker::push(const Job& job) {
    retries_.push(job);
    if (job.releases) {
        ++releasesQueued_;
    }
}

void Worker::advanceSchedule() {
    // Every worker walks the whole schedule and keeps the sends whose index is its own (and
    // that were not already decided).
    do {
        nextSendUs_ = pacer_->next();
        ++nextK_;
    } while (nextSendUs_ != Pacer::kNoMore &&
             (nextK_ < ctx_.firstK || nextK_ % ctx_.workers != index_));
    nextOrigin_ = pacer_->origin();
}

int Worker::bucketOf(qint64 runUs) const {
    const qint64 bucket = std::max<qint64>(0, runUs / ctx_.bucketUs);
    return static_cast<int>(std::min<qint64>(bucket, stats_.limiter(0).bucketCount() - 1));
}

void Worker::sleepUntil(qint64 runUs) {
    ctx_.clock->sleepUntil(runUs, *ctx_.stop);  // a held (paused) virtual clock moves it on
}

void Worker::run() {
    loop(kEveryRequest);
    // Stopped early: waits still pending give up, so every fired request has an outcome.
    while (!retries_.empty()) {
        giveUp(retries_.top());
        retries_.pop();
    }
}

bool Worker::advanceThrough(qint64 k) {
    loop(k);
    return nextK_ > k;
}

void Worker::advanceUntil(qint64 runUs) {
    loop(kEveryRequest, runUs);
}

void Worker::loop(qint64 lastK, qint64 untilUs) {
    while (!ctx_.stop->load(std::memory_order_relaxed)) {
        if (nextK_ > lastK) {
            break;  // request lastK is decided; what is due after it waits for the next call
        }
        const qint64 nextRetry = retries_.empty() ? Pacer::kNoMore : retries_.top().dueRunUs;
        const qint64 nextDue = std::min(nextSendUs_, nextRetry);
        if (nextDue >= untilUs) {
            break;  // what is due from untilUs on waits for the next call
        }
        // Once every request has its outcome, releases still to come are the run's end's: the
        // slots stay held as the run leaves them.
        if (nextDue == Pacer::kNoMore ||
            (nextSendUs_ == Pacer::kNoMore && retries_.size() == releasesQueued_)) {
            break;
        }
        // A virtual run's state reads at their run times, before the decisions after them.
        ctx_.clock->sampleUntil(nextDue, *ctx_.stop);
        if (ctx_.clock->waits()) {
            sleepUntil(nextDue);
        } else {
            ctx_.clock->waitWhileHeld(*ctx_.stop);  // paused
        }
        if (ctx_.stop->load(std::memory_order_relaxed)) {
            break;
        }
        // A lagging worker takes what is due, but not past the next state sample.
        const qint64 nowRunUs =
            ctx_.clock->waits() ? std::min(ctx_.clock->elapsedUs(), ctx_.clock->nextSampleUs() - 1)
                                : nextDue;
        batch_.clear();
        collectDue(nowRunUs, lastK, untilUs, batch_);
        execute(batch_);
        qint64 reached = nextDue;  // pipelining ahead, the batch's last request is further on
        for (const Job& job : batch_) {
            reached = std::max(reached, job.dueRunUs);
        }
        qint64 seen = ctx_.progressUs->load(std::memory_order_relaxed);
        while (seen < reached &&
               !ctx_.progressUs->compare_exchange_weak(seen, reached, std::memory_order_relaxed)) {
        }
    }
}

std::vector<WorkerJob> Worker::takePending() {
    std::vector<Job> pending;
    for (; !retries_.empty(); retries_.pop()) {
        pending.push_back(retries_.top());
    }
    releasesQueued_ = 0;
    nextSendUs_ = Pacer::kNoMore;
    return pending;
}

bool Worker::ensureConnected() {
    if (router_) {
        return true;  // from here on the router reconnects each node with its own backoff
    }
    if (ctx_.reconnectBackoff && RunClock::Steady::now() < nextReconnect_) {
        return false;
    }
    try {
        router_ = std::make_unique<RedisRouter>(ctx_.url, ctx_.connectOptions);
        router_->setReconnectBackoff(ctx_.reconnectBackoff);
        backoff_ = std::chrono::milliseconds(0);
        return true;
    } catch (const RedisError& e) {
        connectCause_ = errorCauseOf(e);
        connectFailure_ = std::current_exception();
        backoff_ = std::clamp(backoff_ * 2, kMinBackoff, kMaxBackoff);
        nextReconnect_ = RunClock::Steady::now() + backoff_;
        return false;
    }
}

}  // namespace ratelab
