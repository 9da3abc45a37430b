#include "scenario/step_session.h"

#include <QDateTime>
#include <chrono>
#include <cmath>

#include "redis/redis_error.h"

namespace ratelab {

StepSession::StepSession(Scenario scenario, RedisUrl url)
    : scenario_(std::move(scenario)), requests_(scenario_.traffic) {
    // The session's clock stands still between two Steps while Redis's TTLs run on: its keys
    // get a day more, so a slow step finds the state a quick one would (and so does a run that
    // continues the session).
    LimiterOptions options;
    options.ttlExtraMs = kClockStandstillMs;
    for (const LimiterSpec& spec : scenario_.limiters) {
        limiters_.push_back(makeLimiter(spec, options));
    }
    durationUs_ = static_cast<qint64>(std::llround(scenario_.traffic.durationS * 1e6));
    pacer_ = makePacer(scenario_.traffic.shape, durationUs_, scenario_.traffic.seed);
    router_ = std::make_unique<RedisRouter>(std::move(url));
    router_->setReconnectBackoff(false);  // each Step is one user action: always try again
    for (const auto& limiter : limiters_) {
        limiter->reset(*router_);
    }
    const qint64 bucketUs = scenario_.bucketMs * 1000;
    stats_ = std::make_unique<RunStats>(
        scenario_.limiters, requests_.clientNames(), 1,
        static_cast<int>(std::max<qint64>(1, (durationUs_ + bucketUs - 1) / bucketUs)));
    startEpochMs_ = scenario_.traffic.clock.isVirtual ? scenario_.traffic.clock.startMs
                                                      : QDateTime::currentMSecsSinceEpoch();
    lastNowMs_ = startEpochMs_;
}

StepSession::~StepSession() = default;

StepSession::Step StepSession::next() {
    Step step;
    const qint64 runUs = pacer_->next();
    if (runUs == Pacer::kNoMore) {
        over_ = true;
        return step;
    }
    step.index = k_;
    const RequestFactory::Draw draw = requests_.draw(k_++);
    step.client = requests_.clientNames()[draw.client];
    step.permits = draw.permits;
    step.nowMs = startEpochMs_ + runUs / 1000;
    lastRunUs_ = runUs;
    lastNowMs_ = step.nowMs;
    WorkerStats& stats = stats_->worker(0);
    stats.addScheduled(1);
    const int bucket = static_cast<int>(
        std::min<qint64>(runUs / (scenario_.bucketMs * 1000), stats.limiter(0).bucketCount() - 1));
    for (size_t l = 0; l < limiters_.size(); ++l) {
        LimiterCounters& counters = stats.limiter(int(l));
        try {
            // The router reconnects a broken node itself.
            // A skewed client asks at its own clock (traffic "clock_skew_ms").
            const auto sentAt = std::chrono::steady_clock::now();
            const Decision d = limiters_[l]->decide(
                *router_, Request{step.nowMs + requests_.clockSkewMs(draw.client), step.client,
                                  step.permits});
            // A step is sent when the user asks, so its latency counts from the send.
            counters.recordAttempt(std::chrono::duration_cast<std::chrono::microseconds>(
                                       std::chrono::steady_clock::now() - sentAt)
                                       .count());
            counters.recordOutcome(bucket, draw.client,
                                   d.allowed ? Outcome::Accepted : Outcome::Rejected, 0);
            if (d.allowed) {
                counters.recordAccepted(runUs / 1000, d.atMs - startEpochMs_, draw.client,
                                        step.permits);
            }
            step.decisions.push_back(d);
            step.errors.push_back(QString());
        } catch (const RedisError& e) {
            counters.recordOutcome(bucket, draw.client, failedOutcome(limiters_[l]->spec().onError),
                                   0);
            step.decisions.push_back(Decision{});
            QString why = QString::fromStdString(e.what());
            switch (limiters_[l]->spec().onError) {
                case FailurePolicy::Error:
                    break;
                case FailurePolicy::Open:
                    why += QStringLiteral("; let through by on_error \"open\"");
                    break;
                case FailurePolicy::Closed:
                    why += QStringLiteral("; refused by on_error \"closed\"");
                    break;
            }
            step.errors.push_back(why);
        }
    }
    if (limiters_.size() > 1 && scenario_.traffic.mode == AcquireMode::Try) {
        // As a run's worker does: how the limiters' decisions of this request compare.
        std::vector<signed char> outcomes;
        for (size_t l = 0; l < limiters_.size(); ++l) {
            outcomes.push_back(!step.errors[int(l)].isEmpty() ? -1
                               : step.decisions[l].allowed    ? 1
                                                              : 0);
        }
        stats.agreement().record(outcomes.data());
    }
    return step;
}

RunSnapshot StepSession::snapshot() const {
    RunSnapshot s;
    s.scenarioName = scenario_.name;
    s.startEpochMs = startEpochMs_;
    s.bucketMs = scenario_.bucketMs;
    s.durationUs = durationUs_;
    s.elapsedUs = lastRunUs_;
    s.targetRate = durationUs_ > 0 ? expectedSends(scenario_.traffic.shape, durationUs_) /
                                         (double(durationUs_) / 1e6)
                                   : 0;
    stats_->fill(s);
    return s;
}

}  // namespace ratelab
