// How a worker forms its batches. A batch holds the requests due now. On a virtual clock that
// does not wait, it also holds the requests after them, as long as no decision among them can
// depend on a reply the batch has not read yet; Redis runs a pipeline in order, so the batch
// then decides exactly as requests sent one at a time do. What a decision may depend on:
//  - a wait-mode refusal's retry, due at a time only its reply tells: in wait mode a batch
//    holds one instant's requests;
//  - a grant's release (the concurrency limiter with a hold): a batch ends before the time the
//    release of a grant in it would be due, and before a release queued;
//  - a refusal a cache_refusals gateway learns: a request of the same limiter, gateway and scope
//    key as one in the batch waits for the next batch;
//  - Redis's own clock ("time": "redis"): one instant's requests;
//  - a state sample of the run (the timelines): a batch ends before its time.
// A batched window's gateway decides from its own counts as it goes (its Redis reads and adds
// are commands of their own, in order), so it does not end a batch. On a real clock, or a
// virtual one that waits, a batch takes what is due when it is sent, as before.
#include "traffic/worker.h"

#include <algorithm>

namespace ratelab {

bool Worker::pipelinesAhead() const {
    return ctx_.clock->isVirtual() && !ctx_.clock->waits();
}

qint64 Worker::releaseHorizon(const Job& job) const {
    if (job.holdMs < 0 || ctx_.traffic->hold.type == HoldSpec::Type::None ||
        !limiterOf(job).holdsGrants()) {
        return Pacer::kNoMore;
    }
    // Its release, if it is granted, comes before the requests at its time.
    return job.dueRunUs + job.holdMs * 1000 - 1;
}

bool Worker::waitsForBatch(int limiter, int gateway, int client,
                           const std::vector<Job>& batch) const {
    if (ctx_.gateways == nullptr) {
        return false;
    }
    const LimiterSpec& spec = ctx_.limiters[size_t(limiter)].load()->spec();
    if (!spec.gateway.cacheRefusals) {
        return false;
    }
    return std::any_of(batch.begin(), batch.end(), [&](const Job& job) {
        return job.limiter == limiter && job.gateway == gateway &&
               (spec.scope == Scope::Global || job.client == client);
    });
}

void Worker::collectDue(qint64 nowRunUs, qint64 lastK, qint64 untilUs, std::vector<Job>& batch) {
    const size_t budget = static_cast<size_t>(ctx_.traffic->pipeline);
    const int limiters = ctx_.limiterCount;
    const bool isVirtual = ctx_.clock->isVirtual();
    // How far past now this batch may reach, and what set that bound.
    qint64 horizon = nowRunUs;
    PipelineEnd bound = PipelineEnd::Due;
    if (pipelinesAhead()) {
        bool redisTime = false;
        for (int l = 0; l < limiters && !redisTime; ++l) {
            redisTime = ctx_.limiters[size_t(l)].load()->spec().time == TimeSource::Redis;
        }
        if (ctx_.traffic->mode == AcquireMode::Wait) {
            bound = PipelineEnd::WaitMode;
        } else if (redisTime) {
            bound = PipelineEnd::RedisTime;
        } else {
            horizon = std::max(nowRunUs, ctx_.clock->nextSampleUs() - 1);
            bound = ctx_.clock->nextSampleUs() == RunClock::kNoSample ? PipelineEnd::Schedule
                                                                      : PipelineEnd::Sample;
        }
    }
    const auto lower = [&](qint64 to, PipelineEnd why) {
        if (to < horizon) {
            horizon = to;
            bound = why;
        }
    };
    lower(untilUs - 1, PipelineEnd::Schedule);  // this call's share of the schedule ends there
    batchEnd_ = PipelineEnd::Schedule;
    while (true) {
        if (batch.size() >= budget) {
            batchEnd_ = PipelineEnd::Full;
            return;
        }
        const bool sendDue = nextSendUs_ <= horizon && nextK_ <= lastK;
        const bool retryDue = !retries_.empty() && retries_.top().dueRunUs <= horizon;
        // A release due at a request's instant goes first; it is one call of its own, after
        // the requests already taken have been decided.
        if (retryDue && retries_.top().releases &&
            (!sendDue || retries_.top().dueRunUs <= nextSendUs_)) {
            if (!batch.empty()) {
                batchEnd_ = PipelineEnd::Releases;
                return;
            }
            const Job job = retries_.top();
            retries_.pop();
            --releasesQueued_;
            releaseSlots(job);
            continue;
        }
        if (sendDue && (!retryDue || nextSendUs_ <= retries_.top().dueRunUs)) {
            const bool explained = observer_ != nullptr && observer_->explains(nextK_);
            if (explained && !batch.empty()) {
                batchEnd_ = PipelineEnd::Explained;
                return;
            }
            const RequestFactory::Draw draw = ctx_.requests->draw(nextK_, nextOrigin_);
            const int gateway = ctx_.requests->gatewayOf(nextK_, draw.client);
            if (isVirtual) {
                for (int l = 0; l < limiters; ++l) {
                    if (waitsForBatch(l, gateway, draw.client, batch)) {
                        batchEnd_ = PipelineEnd::CachedRefusals;
                        return;
                    }
                }
            }
            stats_.addScheduled(1);
            stats_.recordLag(ctx_.clock->waits() ? nowRunUs - nextSendUs_ : 0);
            // The same request goes to every limiter of the scenario.
            for (int l = 0; l < limiters; ++l) {
                batch.push_back(Job{nextSendUs_, nextSendUs_, -1, l, draw.client, draw.permits,
                                    false, nextK_, draw.holdMs, false, gateway});
                if (isVirtual) {
                    lower(releaseHorizon(batch.back()), PipelineEnd::Releases);
                }
            }
            advanceSchedule();
            if (explained) {
                batchEnd_ = PipelineEnd::Explained;
                return;
            }
        } else if (retryDue) {
            const Job job = retries_.top();
            if (!job.held && isVirtual &&
                waitsForBatch(job.limiter, job.gateway, job.client, batch)) {
                batchEnd_ = PipelineEnd::CachedRefusals;
                return;
            }
            retries_.pop();
            if (job.held) {
                complete(job);
            } else {
                batch.push_back(job);
                if (isVirtual) {
                    lower(releaseHorizon(job), PipelineEnd::Releases);
                }
            }
        } else {
            // Nothing more within reach: the schedule (or this call's share of it) is over, or
            // what comes next is past the bound.
            const bool more = (nextSendUs_ != Pacer::kNoMore && nextK_ <= lastK) ||
                              retries_.size() > releasesQueued_;
            batchEnd_ = more ? bound : PipelineEnd::Schedule;
            return;
        }
    }
}

}  // namespace ratelab
