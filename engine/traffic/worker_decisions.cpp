// How a worker decides a batch (through its DecisionPath) and records what each attempt came to.
#include <algorithm>

#include "redis/redis_error.h"
#include "redis/redis_reply.h"
#include "redis/redis_router.h"
#include "traffic/worker.h"

namespace ratelab {

void Worker::execute(std::vector<Job>& batch) {
    if (batch.empty()) {
        return;
    }
    const bool waits = ctx_.clock->waits();
    const qint64 sendRunUs = waits ? ctx_.clock->elapsedUs() : batch.front().dueRunUs;
    if (!ensureConnected()) {
        for (const Job& job : batch) {
            finish(job, nullptr, sendRunUs, connectCause_);
            if (observer_ != nullptr) {
                DecisionPath::Result failed;
                failed.cause = connectCause_;
                failed.failure = connectFailure_;
                observer_->decided({job, requestOf(job, sendRunUs), job.firstTryRunUs < 0}, failed);
            }
        }
        return;
    }
    path_.clear();
    for (const Job& job : batch) {
        const Request request = requestOf(job, sendRunUs);
        if (observer_ != nullptr && observer_->explains(job.k)) {
            observer_->before({job, request, job.firstTryRunUs < 0}, limiterOf(job));
        }
        path_.add(*router_, job.limiter, job.gateway, request, job.dueRunUs / 1000);
    }
    path_.run(*router_, ctx_.connectOptions.commandTimeout,
              waits ? replyClock_ : DecisionBatch::ReplyClock{}, sendRunUs);
    stopOnBusyScript(batch);
    qint64 sentToRedis = 0;
    for (size_t i = 0; i < batch.size(); ++i) {
        const Job& job = batch[i];
        const DecisionPath::Result& result = path_.result(i);
        LimiterCounters& counters = stats_.limiter(job.limiter);
        const bool calledRedis = !result.decided || result.decision.calledRedis;
        counters.recordGatewayDecision(job.gateway, calledRedis,
                                       result.decided && result.decision.allowed,
                                       bucketOf(job.scheduledRunUs));
        if (!result.byGateway) {
            counters.recordAttempt(waits ? result.replyTime - job.dueRunUs : 0);
            ++sentToRedis;
        }
        if (result.decided && result.referenceDecided) {
            // A script limiter's decision against its reference's of the same request: the
            // one place they are counted, for runs, sweeps, Step, explain and replay alike.
            counters.recordComparison(bucketOf(job.scheduledRunUs), job.client, result.disagrees());
        }
        finish(job, result.decided ? &result.decision : nullptr, sendRunUs, result.cause);
        if (observer_ != nullptr) {
            observer_->decided({job, path_.request(i), job.firstTryRunUs < 0}, result);
        }
    }
    stats_.recordBatch(sentToRedis, path_.roundTrips(), batchEnd_);
    if (ctx_.url.isSentinel()) {
        notePrimary(sendRunUs);
    }
    if (ctx_.traffic->mode == AcquireMode::Try) {
        compareDecisions(batch);
    }
}

namespace {

// Whether a decision failed because its deadline passed (not a connection lost or refused).
bool timedOut(const std::exception_ptr& failure) {
    try {
        if (failure) {
            std::rethrow_exception(failure);
        }
    } catch (const RedisError& e) {
        return e.kind() == RedisError::Kind::Timeout;
    } catch (...) {
    }
    return false;
}

}  // namespace

bool Worker::stopOnBusyScript(const std::vector<Job>& batch) {
    // The first decision of a user's script that failed as BUSY, or without an answer.
    size_t i = 0;
    for (; i < batch.size(); ++i) {
        const DecisionPath::Result& result = path_.result(i);
        if (!result.decided && !result.byGateway && limiterOf(batch[i]).userScript() &&
            (result.cause == ErrorCause::Busy ||
             (result.cause == ErrorCause::UnknownOutcome && timedOut(result.failure)))) {
            break;
        }
    }
    if (i == batch.size()) {
        return false;
    }
    const DecisionPath::Result& result = path_.result(i);
    const Limiter& limiter = limiterOf(batch[i]);
    const int slot = limiter.slotOf(limiter.prepare(path_.request(i)));
    QString why = QStringLiteral(
                      "limiter '%1': Redis answered BUSY: a script runs past Redis's busy limit "
                      "(busy-reply-threshold, lua-time-limit)")
                      .arg(limiter.spec().name);
    try {
        // One look per batch: if Redis answers BUSY now and our decision waited for its script
        // past the deadline, the script still running is that one.
        RedisConnection probe(router_->nodeUrlForSlot(slot), ctx_.connectOptions);
        const RedisReply pong = probe.command({"PING"});
        const bool busy = pong->type == REDIS_REPLY_ERROR &&
                          std::string_view(pong->str, pong->len).substr(0, 4) == "BUSY";
        if (!busy && result.cause != ErrorCause::Busy) {
            return false;  // only slow: an unknown outcome like any other
        }
        if (busy && result.cause == ErrorCause::UnknownOutcome) {
            const RedisReply killed = probe.command({"SCRIPT", "KILL"});
            why += QStringLiteral(
                       "; it is this limiter's script (its decision was waiting for it), so "
                       "ratelab ended it with SCRIPT KILL: %1")
                       .arg(QString::fromUtf8(killed->str, int(killed->len)));
        }
    } catch (const RedisError& e) {
        if (result.cause != ErrorCause::Busy) {
            return false;  // Redis cannot be asked: the decisions count it
        }
        why += QStringLiteral(" (%1)").arg(QString::fromStdString(e.what()));
    }
    stats_.recordStopCause(why + QStringLiteral("; the run stopped"));
    ctx_.stop->store(true);
    return true;
}

void Worker::notePrimary(qint64 sendRunUs) {
    // A failover moves the connection to the new primary (RedisConnection asks the sentinels
    // again): the address it reached says so. Only after a batch some decision came back from,
    // so that looking never connects anew; a connection that fails meanwhile is the next
    // batch's concern.
    bool decided = false;
    for (size_t i = 0; i < path_.size() && !decided; ++i) {
        decided = path_.result(i).decided && !path_.result(i).byGateway;
    }
    if (!decided) {
        return;
    }
    QString primary;
    try {
        primary = router_->connectionForSlot(0).serverAddress();
    } catch (const RedisError&) {
        return;
    }
    if (!primary_.isEmpty() && primary != primary_) {
        stats_.recordFailover(sendRunUs, primary_, primary);
    }
    primary_ = primary;
}

qint64 Worker::skewMs(const Job& job) const {
    // A client whose clock is off asks at its own wrong time (traffic "clock_skew_ms"), through
    // a gateway whose clock may be off too.
    return ctx_.requests->clockSkewMs(job.client) + ctx_.requests->gatewaySkewMs(job.gateway);
}

Request Worker::requestOf(const Job& job, qint64 sendRunUs) const {
    const qint64 runNowMs = ctx_.clock->limiterNowMs(job.dueRunUs, sendRunUs);
    Request request{runNowMs + skewMs(job), ctx_.requests->clientNames()[job.client], job.permits};
    request.id = job.k;
    if (ctx_.redisClockIsRunClock && limiterOf(job).spec().time == TimeSource::Redis) {
        request.nowMs = runNowMs;  // Redis's one clock: no client's or gateway's skew
        request.nowFromRedis = true;
    }
    return request;
}

const Limiter& Worker::limiterOf(const Job& job) const {
    return path_.limiter(job.limiter, job.gateway);
}

void Worker::compareDecisions(const std::vector<Job>& batch) {
    // Without retries a request's jobs sit together in the batch, one per limiter, in order.
    const size_t limiters = size_t(ctx_.limiterCount);
    if (limiters < 2) {
        return;
    }
    outcomes_.resize(limiters);
    for (size_t start = 0; start + limiters <= batch.size(); start += limiters) {
        for (size_t l = 0; l < limiters; ++l) {
            const DecisionPath::Result& result = path_.result(start + l);
            outcomes_[l] = result.decided ? (result.decision.allowed ? 1 : 0) : -1;
        }
        stats_.agreement().record(outcomes_.data(), bucketOf(batch[start].scheduledRunUs));
    }
}

void Worker::releaseSlots(const Job& job) {
    const Limiter& limiter = limiterOf(job);
    if (!limiter.holdsGrants() || !ensureConnected()) {
        return;  // a live change to a type that holds nothing, or no Redis: the lease runs out
    }
    const Request grant =
        requestOf(job, ctx_.clock->waits() ? ctx_.clock->elapsedUs() : job.dueRunUs);
    DecisionObserver::Release release = DecisionObserver::Release::Leaked;
    try {
        const bool late = DecisionPath::release(*router_, limiter, grant);
        stats_.limiter(job.limiter).recordRelease(late, bucketOf(job.dueRunUs));
        release = late ? DecisionObserver::Release::Late : DecisionObserver::Release::InTime;
    } catch (const RedisError&) {
        // A release that failed leaves the slots to their lease, as a crashed worker's.
        stats_.limiter(job.limiter).recordLeaked(bucketOf(job.scheduledRunUs));
    }
    if (observer_ != nullptr) {
        observer_->released(job.limiter, job.k, release);
    }
}

void Worker::giveUp(const Job& job) {
    if (job.releases) {
        return;  // the grant's outcome is counted; its slots stay held as the run leaves them
    }
    if (job.held) {
        complete(job);  // already granted: the stop only ends the hold
        return;
    }
    stats_.limiter(job.limiter)
        .recordOutcome(bucketOf(job.scheduledRunUs), job.client, Outcome::Rejected, 0);
}

void Worker::complete(const Job& job) {
    stats_.limiter(job.limiter)
        .recordOutcome(bucketOf(job.scheduledRunUs), job.client, Outcome::Accepted,
                       job.dueRunUs - job.firstTryRunUs);
}

void Worker::finish(const Job& job, const Decision* decision, qint64 sendRunUs, ErrorCause cause) {
    LimiterCounters& counters = stats_.limiter(job.limiter);
    const int bucket = bucketOf(job.scheduledRunUs);
    if (decision == nullptr) {
        // A failed decision is never counted as accepted or rejected: it is an error, which the
        // limiter's on_error policy may also count as let through or refused (final either way,
        // no wait-mode retry). The slot is loaded now: a live change may have changed the policy.
        const FailurePolicy policy = ctx_.limiters[size_t(job.limiter)].load()->spec().onError;
        counters.recordOutcome(bucket, job.client, failedOutcome(policy), 0, cause);
        return;
    }
    // In virtual time the attempt happens exactly when it is due; in real time when it was sent.
    const qint64 attemptRunUs = ctx_.clock->isVirtual() ? job.dueRunUs : sendRunUs;
    const qint64 firstTry = job.firstTryRunUs < 0 ? attemptRunUs : job.firstTryRunUs;
    const TrafficSpec& traffic = *ctx_.traffic;
    counters.recordExpiredLeases(decision->expiredLeases);
    const Limiter& limiter = limiterOf(job);
    if (decision->allowed && limiter.holdsGrants() && traffic.hold.type != HoldSpec::Type::None) {
        // The grant holds its slots until it releases them after its hold, or never (leak).
        if (job.holdMs < 0) {
            counters.recordLeaked(bucket);
            if (observer_ != nullptr) {
                observer_->released(job.limiter, job.k, DecisionObserver::Release::Leaked);
            }
        } else {
            Job release = job;
            release.dueRunUs = attemptRunUs + job.holdMs * 1000;
            release.releases = true;
            push(release);
        }
    }
    if (decision->allowed) {
        // The admitted burst counts a grant, held or not, on two clocks (BurstClock): the time
        // the limiter decided at (what it enforces, whatever order the threads' requests reached
        // Redis in) and the run's own time of the attempt (what skewed clocks break).
        counters.recordAccepted(attemptRunUs / 1000, decision->atMs - ctx_.clock->startEpochMs(),
                                job.client, job.permits);
    }
    if (decision->allowed && traffic.mode == AcquireMode::Wait && decision->delayMs > 0) {
        // As nginx, the leaky bucket holds the request delay_ms before it proceeds: it completes
        // then (the worker goes on meanwhile) and the hold counts as waited.
        push(Job{attemptRunUs + decision->delayMs * 1000, job.scheduledRunUs, firstTry, job.limiter,
                 job.client, job.permits, true, job.k});
        return;
    }
    if (decision->allowed) {
        counters.recordOutcome(bucket, job.client, Outcome::Accepted, attemptRunUs - firstTry);
        return;
    }
    if (traffic.mode == AcquireMode::Wait && decision->retryAfterMs >= 0) {
        // In virtual time the retry is due when the limiter's clock (the client's, skewed)
        // reaches the decision's time plus the wait; Redis's own clock has no place in the
        // run's time, so time: redis waits from the attempt.
        const bool redisTime =
            ctx_.limiters[size_t(job.limiter)].load()->spec().time == TimeSource::Redis;
        const qint64 due =
            ctx_.clock->isVirtual() && !redisTime
                ? ctx_.clock->runUsForEpochMs(decision->atMs + decision->retryAfterMs - skewMs(job))
                : (ctx_.clock->isVirtual() ? attemptRunUs : sendRunUs) +
                      decision->retryAfterMs * 1000;
        if (due - firstTry <= traffic.timeoutMs * 1000) {
            push(Job{due, job.scheduledRunUs, firstTry, job.limiter, job.client, job.permits, false,
                     job.k, job.holdMs, false, job.gateway});
            return;
        }
    }
    counters.recordOutcome(bucket, job.client, Outcome::Rejected, 0);
}

}  // namespace ratelab
