#include "run/step_session.h"

#include <QDateTime>
#include <chrono>
#include <cmath>

#include "redis/redis_error.h"
#include "traffic/traffic_schedule.h"

namespace ratelab {

StepSession::StepSession(Scenario scenario, RedisUrl url, bool explain)
    : scenario_(std::move(scenario)), requests_(scenario_.traffic) {
    // The session's clock stands still between two Steps while Redis's TTLs run on: its keys
    // get a day more, so a slow step finds the state a quick one would (and so does a run that
    // continues the session).
    LimiterOptions options;
    options.ttlExtraMs = kClockStandstillMs;
    std::vector<const Limiter*> limiters;
    for (const LimiterSpec& spec : scenario_.limiters) {
        limiters_.push_back(makeLimiter(spec, options));
        limiters.push_back(limiters_.back().get());
    }
    durationUs_ = static_cast<qint64>(std::llround(scenario_.traffic.durationS * 1e6));
    startEpochMs_ = scenario_.traffic.clock.isVirtual ? scenario_.traffic.clock.startMs
                                                      : QDateTime::currentMSecsSinceEpoch();
    lastNowMs_ = startEpochMs_;
    walk_ = std::make_unique<ScheduleWalk>(scenario_, startEpochMs_);
    decider_ = std::make_unique<WalkDecider>(std::move(limiters), scenario_.traffic,
                                             WalkDecider::batchRequests(scenario_));
    decider_->setReleaseSink([this](int limiter, qint64, WalkDecider::Release release) {
        recordRelease(limiter, release);
    });
    router_ = std::make_unique<RedisRouter>(std::move(url));
    router_->setReconnectBackoff(false);  // each Step is one user action: always try again
    for (const auto& limiter : limiters_) {
        limiter->reset(*router_);
    }
    decider_->reset(*router_);
    if (explain) {
        const QString base = explainScratchBase();
        const int gateways = std::max(1, scenario_.traffic.gateways.count);
        for (size_t l = 0; l < limiters_.size(); ++l) {
            const LimiterSpec& spec = limiters_[l]->spec();
            const bool local = spec.gateway.mode == GatewayMode::Local;
            explainers_.emplace_back();
            for (int g = 0; g < (local ? gateways : 1); ++g) {
                explainers_[l].push_back(std::make_unique<DecisionExplainer>(
                    *router_, decider_->limiter(int(l), g),
                    local ? GatewayState::localName(spec.name, g) : spec.name,
                    base + QString::number(l) + (local ? QStringLiteral("g%1").arg(g) : QString()) +
                        QLatin1Char('-'),
                    false));
            }
        }
    }
    const qint64 bucketUs = scenario_.bucketMs * 1000;
    stats_ = std::make_unique<RunStats>(
        scenario_.limiters, requests_.clientNames(), 1,
        static_cast<int>(std::max<qint64>(1, (durationUs_ + bucketUs - 1) / bucketUs)),
        requests_.groups());
}

StepSession::~StepSession() = default;

std::vector<LimiterSpec> StepSession::scratchLimiters() const {
    std::vector<LimiterSpec> specs;
    for (const auto& perGateway : explainers_) {
        for (const auto& explainer : perGateway) {
            const std::vector<LimiterSpec> own = explainer->scratchLimiters();
            specs.insert(specs.end(), own.begin(), own.end());
        }
    }
    return specs;
}

DecisionExplainer& StepSession::explainerOf(size_t l, const ScheduleWalk::Step& step) {
    const auto& perGateway = explainers_[l];
    return *perGateway[perGateway.size() > 1 ? size_t(step.gateway) : 0];
}

void StepSession::recordRelease(int limiter, WalkDecider::Release release) {
    LimiterCounters& counters = stats_->worker(0).limiter(limiter);
    if (release == WalkDecider::Release::Leaked) {
        counters.recordLeaked();
    } else {
        counters.recordRelease(release == WalkDecider::Release::Late);
    }
}

StepSession::Step StepSession::next() {
    Step step;
    const ScheduleWalk::Step walked = walk_->next();
    if (walked.index < 0) {
        over_ = true;
        return step;
    }
    const qint64 runUs = walked.runUs;
    step.index = walked.index;
    k_ = walked.index + 1;
    step.client = walked.request.client;
    step.permits = walked.request.permits;
    step.gateway = walked.gateway;
    step.nowMs = startEpochMs_ + runUs / 1000;
    lastRunUs_ = runUs;
    lastNowMs_ = step.nowMs;
    WorkerStats& stats = stats_->worker(0);
    stats.addScheduled(1);
    const int bucket = static_cast<int>(
        std::min<qint64>(runUs / (scenario_.bucketMs * 1000), stats.limiter(0).bucketCount() - 1));
    // The router reconnects a broken node itself. The releases due by now go first (a failed
    // one leaves its slots to their lease, as in a run).
    decider_->begin(*router_, walked);
    for (size_t l = 0; l < limiters_.size(); ++l) {
        LimiterCounters& counters = stats.limiter(int(l));
        try {
            // A skewed client asks at its own clock, through its gateway (whose clock may be off
            // too): the walked request's now. A step is sent when the user asks, so its latency
            // counts from the send.
            Decision d;
            qint64 latencyUs = 0;
            if (!explainers_.empty()) {
                bool byGateway = false;
                Explanation explained = explainerOf(l, walked).decide(
                    walked.request, DecisionExplainer::Gateway{
                                        walked.gateway, [&] {
                                            std::optional<Decision> local =
                                                decider_->decideLocally(*router_, int(l), walked);
                                            byGateway = local.has_value();
                                            return local;
                                        }});
                decider_->decided(int(l), walked, explained.decision, !byGateway);
                explained.index = step.index;
                explained.requests = step.index + 1;
                explained.runMs = runUs / 1000;
                explained.startEpochMs = startEpochMs_;
                explained.scenario = scenario_.name;
                d = explained.decision;
                latencyUs = explained.decideUs;
                step.explanations.resize(l);
                step.explanations.push_back(std::move(explained));
            } else {
                const auto sentAt = std::chrono::steady_clock::now();
                d = decider_->decide(*router_, int(l), walked);
                latencyUs = std::chrono::duration_cast<std::chrono::microseconds>(
                                std::chrono::steady_clock::now() - sentAt)
                                .count();
            }
            counters.recordAttempt(latencyUs);
            counters.recordGatewayDecision(walked.gateway, d.calledRedis);
            counters.recordExpiredLeases(d.expiredLeases);
            counters.recordOutcome(bucket, walked.client,
                                   d.allowed ? Outcome::Accepted : Outcome::Rejected, 0);
            if (d.allowed) {
                counters.recordAccepted(runUs / 1000, d.atMs - startEpochMs_, walked.client,
                                        step.permits);
            }
            step.decisions.push_back(d);
            step.errors.push_back(QString());
        } catch (const RedisError& e) {
            counters.recordGatewayDecision(walked.gateway, true);
            counters.recordOutcome(bucket, walked.client,
                                   failedOutcome(limiters_[l]->spec().onError), 0);
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
    if (!explainers_.empty()) {
        step.explanations.resize(limiters_.size());  // none for a failed decision
    }
    if (limiters_.size() > 1 && scenario_.traffic.mode == AcquireMode::Try) {
        // As a run's worker does: how the limiters' decisions of this request compare.
        std::vector<signed char> outcomes;
        for (size_t l = 0; l < limiters_.size(); ++l) {
            outcomes.push_back(!step.errors[int(l)].isEmpty() ? -1
                               : step.decisions[l].allowed    ? 1
                                                              : 0);
        }
        stats.agreement().record(outcomes.data(), bucket);
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
    s.targetRate = durationUs_ > 0 ? scheduleExpectedSends(scenario_.traffic, durationUs_) /
                                         (double(durationUs_) / 1e6)
                                   : 0;
    stats_->fill(s);
    return s;
}

}  // namespace ratelab
