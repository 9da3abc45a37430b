#include "traffic/worker.h"

#include <algorithm>
#include <optional>

#include "redis/redis_error.h"
#include "traffic/redis_error_cause.h"

namespace ratelab {
namespace {

constexpr std::chrono::milliseconds kMinBackoff{50};
constexpr std::chrono::milliseconds kMaxBackoff{2000};

}  // namespace

Worker::Worker(const RunContext& context, int index, WorkerStats& stats)
    : ctx_(context),
      index_(index),
      stats_(stats),
      pacer_(context.pacer->clone()),
      replyClock_([clock = context.clock] { return clock->elapsedUs(); }) {
    advanceSchedule();
    for (const HeldGrant& held : ctx_.heldGrants) {
        if (held.k % ctx_.workers == index_) {
            retries_.push(Job{held.dueRunUs, held.grantRunUs, -1, held.limiter, held.client,
                              held.permits, false, held.k, -1, true, held.gateway});
            ++releasesQueued_;
        }
    }
}

void Worker::advanceSchedule() {
    // Every worker walks the whole schedule and keeps the sends whose index is its own (and
    // that were not already stepped).
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
    std::vector<Job> batch;
    while (!ctx_.stop->load(std::memory_order_relaxed)) {
        const qint64 nextRetry = retries_.empty() ? Pacer::kNoMore : retries_.top().dueRunUs;
        const qint64 nextDue = std::min(nextSendUs_, nextRetry);
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
        batch.clear();
        collectDue(nowRunUs, batch);
        execute(batch);
        qint64 seen = ctx_.progressUs->load(std::memory_order_relaxed);
        while (seen < nextDue &&
               !ctx_.progressUs->compare_exchange_weak(seen, nextDue, std::memory_order_relaxed)) {
        }
    }
    // Stopped early: waits still pending give up, so every fired request has an outcome.
    while (!retries_.empty()) {
        giveUp(retries_.top());
        retries_.pop();
    }
}

void Worker::collectDue(qint64 nowRunUs, std::vector<Job>& batch) {
    const size_t budget = static_cast<size_t>(ctx_.traffic->pipeline);
    const int limiters = ctx_.limiterCount;
    while (batch.size() < budget) {
        const bool sendDue = nextSendUs_ <= nowRunUs;
        const bool retryDue = !retries_.empty() && retries_.top().dueRunUs <= nowRunUs;
        // A release due at a request's instant goes first; it is one call of its own, after
        // the requests already taken have been decided.
        if (retryDue && retries_.top().releases && retries_.top().dueRunUs <= nextSendUs_) {
            if (!batch.empty()) {
                break;
            }
            const Job job = retries_.top();
            retries_.pop();
            --releasesQueued_;
            releaseSlots(job);
            continue;
        }
        if (sendDue && (!retryDue || nextSendUs_ <= retries_.top().dueRunUs)) {
            const RequestFactory::Draw draw = ctx_.requests->draw(nextK_, nextOrigin_);
            const int gateway = ctx_.requests->gatewayOf(nextK_, draw.client);
            stats_.addScheduled(1);
            stats_.recordLag(ctx_.clock->waits() ? nowRunUs - nextSendUs_ : 0);
            // The same request goes to every limiter of the scenario.
            for (int l = 0; l < limiters; ++l) {
                batch.push_back(Job{nextSendUs_, nextSendUs_, -1, l, draw.client, draw.permits,
                                    false, nextK_, draw.holdMs, false, gateway});
            }
            advanceSchedule();
        } else if (retryDue) {
            if (retries_.top().held) {
                release(retries_.top());
            } else {
                batch.push_back(retries_.top());
            }
            retries_.pop();
        } else {
            break;
        }
    }
}

bool Worker::ensureConnected() {
    if (router_) {
        return true;  // from here on the router reconnects each node with its own backoff
    }
    if (RunClock::Steady::now() < nextReconnect_) {
        return false;
    }
    try {
        router_ = std::make_unique<RedisRouter>(ctx_.url, ctx_.connectOptions);
        backoff_ = std::chrono::milliseconds(0);
        return true;
    } catch (const RedisError& e) {
        connectCause_ = errorCauseOf(e);
        backoff_ = std::clamp(backoff_ * 2, kMinBackoff, kMaxBackoff);
        nextReconnect_ = RunClock::Steady::now() + backoff_;
        return false;
    }
}

void Worker::execute(std::vector<Job>& batch) {
    if (batch.empty()) {
        return;
    }
    const qint64 sendRunUs = ctx_.clock->waits() ? ctx_.clock->elapsedUs() : batch.front().dueRunUs;
    if (!ensureConnected()) {
        for (const Job& job : batch) {
            finish(job, nullptr, sendRunUs, connectCause_);
        }
        return;
    }
    const bool perLimiter = ctx_.traffic->roundTripPerLimiter;
    rounds_.resize(perLimiter ? size_t(std::max(1, ctx_.limiterCount)) : 1);
    for (DecisionBatch& round : rounds_) {
        round.clear();
    }
    local_.clear();
    slots_.clear();
    roundOf_.clear();
    for (const Job& job : batch) {
        const Request request = requestOf(job, sendRunUs);
        // A gateway that remembers a refusal covering this request refuses it itself; a
        // batched window's gateway decides from its own counts.
        if (std::optional<LocalResult> local = decideLocally(job, request)) {
            slots_.push_back(-1 - std::ptrdiff_t(local_.size()));
            roundOf_.push_back(-1);
            local_.push_back(*local);
            continue;
        }
        const int round = perLimiter ? job.limiter : 0;
        DecisionBatch& decisions = rounds_[size_t(round)];
        slots_.push_back(std::ptrdiff_t(decisions.size()));
        roundOf_.push_back(round);
        decisions.add(*router_, limiterOf(job), request);
    }
    // Each decision's latency ends when its own reply is read: limiters on one pipeline share
    // its round trip (their replies come back together), limiters on rounds of their own each
    // have their own, counted from when their round was sent.
    const bool waits = ctx_.clock->waits();
    roundStartUs_.assign(rounds_.size(), sendRunUs);
    std::optional<qint64> firstRoundUs;  // when the first round that called Redis was sent
    for (size_t r = 0; r < rounds_.size(); ++r) {
        if (rounds_[r].empty()) {
            continue;
        }
        roundStartUs_[r] = waits ? ctx_.clock->elapsedUs() : sendRunUs;
        if (!firstRoundUs) {
            firstRoundUs = roundStartUs_[r];
        }
        rounds_[r].run(*router_, ctx_.connectOptions.commandTimeout,
                       waits ? replyClock_ : DecisionBatch::ReplyClock{});
    }
    if (ctx_.url.isSentinel()) {
        notePrimary(sendRunUs);
    }
    for (size_t i = 0; i < batch.size(); ++i) {
        const Job& job = batch[i];
        LimiterCounters& counters = stats_.limiter(job.limiter);
        if (slots_[i] < 0) {
            const LocalResult& local = local_[size_t(-1 - slots_[i])];
            counters.recordGatewayDecision(job.gateway,
                                           !local.decided || local.decision.calledRedis);
            finish(job, local.decided ? &local.decision : nullptr, sendRunUs, local.cause);
            continue;
        }
        const DecisionBatch::Result& result = resultOf(i);
        // A later round's wait for the rounds before it is not its own reply time.
        const qint64 endUs =
            waits ? result.replyTime - (roundStartUs_[size_t(roundOf_[i])] - *firstRoundUs)
                  : sendRunUs;
        counters.recordAttempt(endUs - job.dueRunUs);
        counters.recordGatewayDecision(job.gateway, true);
        if (result.decided && ctx_.gateways) {
            ctx_.gateways->remember(job.limiter, job.gateway, requestOf(job, sendRunUs),
                                    result.decision);
        }
        finish(job, result.decided ? &result.decision : nullptr, sendRunUs, result.cause);
    }
    if (ctx_.traffic->mode == AcquireMode::Try) {
        compareDecisions(batch);
    }
}

void Worker::notePrimary(qint64 sendRunUs) {
    // A failover moves the connection to the new primary (RedisConnection asks the sentinels
    // again): the address it reached says so. Only after a round some decision came back from,
    // so that looking never connects anew; a connection that fails meanwhile is the next
    // round's concern.
    bool decided = false;
    for (const DecisionBatch& round : rounds_) {
        for (size_t i = 0; i < round.size() && !decided; ++i) {
            decided = round.result(i).decided;
        }
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
    Request request{ctx_.clock->limiterNowMs(job.dueRunUs, sendRunUs) + skewMs(job),
                    ctx_.requests->clientNames()[job.client], job.permits};
    request.id = job.k;
    return request;
}

const Limiter& Worker::limiterOf(const Job& job) const {
    const Limiter& shared = *ctx_.limiters[size_t(job.limiter)].load();
    return ctx_.gateways ? ctx_.gateways->limiter(job.limiter, job.gateway, shared) : shared;
}

std::optional<Worker::LocalResult> Worker::decideLocally(const Job& job, const Request& request) {
    if (ctx_.gateways == nullptr) {
        return std::nullopt;
    }
    if (std::optional<Decision> cached =
            ctx_.gateways->cachedRefusal(job.limiter, job.gateway, request)) {
        return LocalResult{*cached, true, ErrorCause::Other};
    }
    const Limiter& limiter = limiterOf(job);
    if (!ctx_.gateways->batched(job.limiter) || limiter.spec().type != LimiterType::FixedWindow) {
        return std::nullopt;
    }
    try {
        return LocalResult{ctx_.gateways->decideBatched(job.limiter, job.gateway, limiter, *router_,
                                                        request, job.dueRunUs / 1000),
                           true, ErrorCause::Other};
    } catch (const RedisError& e) {
        return LocalResult{Decision{}, false, errorCauseOf(e)};
    }
}

const Decision* Worker::decisionOf(size_t i) const {
    if (slots_[i] < 0) {
        const LocalResult& local = local_[size_t(-1 - slots_[i])];
        return local.decided ? &local.decision : nullptr;
    }
    const DecisionBatch::Result& result = resultOf(i);
    return result.decided ? &result.decision : nullptr;
}

const DecisionBatch::Result& Worker::resultOf(size_t i) const {
    return rounds_[size_t(roundOf_[i])].result(size_t(slots_[i]));
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
            const Decision* decision = decisionOf(start + l);
            outcomes_[l] = decision != nullptr ? (decision->allowed ? 1 : 0) : -1;
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
    try {
        stats_.limiter(job.limiter).recordRelease(limiter.release(*router_, grant));
    } catch (const RedisError&) {
        // A release that failed leaves the slots to their lease, as a crashed worker's.
        stats_.limiter(job.limiter).recordLeaked();
    }
}

void Worker::giveUp(const Job& job) {
    if (job.releases) {
        return;  // the grant's outcome is counted; its slots stay held as the run leaves them
    }
    if (job.held) {
        release(job);  // already granted: the stop only ends the hold
        return;
    }
    stats_.limiter(job.limiter)
        .recordOutcome(bucketOf(job.scheduledRunUs), job.client, Outcome::Rejected, 0);
}

void Worker::release(const Job& job) {
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
            counters.recordLeaked();
        } else {
            Job release = job;
            release.dueRunUs = attemptRunUs + job.holdMs * 1000;
            release.releases = true;
            retries_.push(release);
            ++releasesQueued_;
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
        retries_.push(Job{attemptRunUs + decision->delayMs * 1000, job.scheduledRunUs, firstTry,
                          job.limiter, job.client, job.permits, true});
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
            retries_.push(Job{due, job.scheduledRunUs, firstTry, job.limiter, job.client,
                              job.permits, false, job.k, job.holdMs, false, job.gateway});
            return;
        }
    }
    counters.recordOutcome(bucket, job.client, Outcome::Rejected, 0);
}

}  // namespace ratelab
