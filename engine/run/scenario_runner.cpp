#include "run/scenario_runner.h"

#include <QJsonObject>
#include <algorithm>
#include <cmath>

#include "redis/redis_error.h"
#include "run/step_session.h"
#include "traffic/traffic_schedule.h"

namespace ratelab {

ScenarioRunner::ScenarioRunner(Scenario scenario, RedisUrl url, ConnectOptions options)
    : scenario_(std::move(scenario)),
      url_(std::move(url)),
      options_(options),
      clock_(scenario_.traffic.clock),
      requests_(scenario_.traffic) {
    const TrafficSpec& traffic = scenario_.traffic;
    // Slow motion stretches server-side TTLs so state outlives its (virtual) windows.
    if (clock_.isVirtual() && clock_.speed() > 0 && clock_.speed() < 1) {
        limiterOptions_.ttlScale = 1.0 / clock_.speed();
    }
    for (const LimiterSpec& spec : scenario_.limiters) {
        limiters_.push_back(makeLimiter(spec, limiterOptions_));
    }
    durationUs_ = static_cast<qint64>(std::llround(traffic.durationS * 1e6));
    pacer_ = makeSchedule(traffic, durationUs_);
    workerCount_ = clock_.isVirtual() ? 1 : traffic.threads;
    const qint64 bucketUs = scenario_.bucketMs * 1000;
    const int buckets =
        static_cast<int>(std::max<qint64>(1, (durationUs_ + bucketUs - 1) / bucketUs));
    stats_ = std::make_unique<RunStats>(scenario_.limiters, requests_.clientNames(), workerCount_,
                                        buckets, requests_.groups());

    context_.traffic = &scenario_.traffic;
    context_.limiterCount = int(limiters_.size());
    context_.limiters = std::make_unique<std::atomic<const Limiter*>[]>(limiters_.size());
    for (size_t i = 0; i < limiters_.size(); ++i) {
        context_.limiters[i] = limiters_[i].get();
    }
    context_.requests = &requests_;
    gateways_ =
        std::make_unique<GatewayState>(scenario_.limiters, traffic.gateways.count, limiterOptions_);
    context_.gateways = gateways_.get();
    context_.pacer = pacer_.get();
    context_.clock = &clock_;
    context_.url = url_;
    context_.connectOptions = options_;
    context_.bucketUs = bucketUs;
    context_.workers = workerCount_;
    context_.stop = &stop_;
    context_.progressUs = &progressUs_;
    if (clock_.isVirtual()) {
        clock_.setHoldWatcher([this](bool held) { holdKeyTtls(held); });
    }
}

bool ScenarioRunner::sameSchedule(const Scenario& a, const Scenario& b) {
    const auto schedule = [](const Scenario& s) {
        QJsonObject json = scenarioToJson(s);
        json.remove(QStringLiteral("name"));
        json.remove(QStringLiteral("expect"));
        return json;
    };
    return schedule(a) == schedule(b);
}

void ScenarioRunner::continueFrom(StepSession& session) {
    if (started_) {
        return;
    }
    Q_ASSERT(sameSchedule(session.scenario(), scenario_));
    resetKeys_ = false;
    context_.firstK = session.sent();
    fromRunUs_ = session.lastRunUs();
    fromEpochMs_ = session.startEpochMs();
    progressUs_ = fromRunUs_;
    stats_->adoptWorker(session.takeStats());
    // The stepped grants still release their slots, and the gateways go on with what they keep.
    context_.heldGrants = session.takeHeldGrants();
    gateways_ = session.takeGateways();
    context_.gateways = gateways_.get();
}

void ScenarioRunner::updateLimiter(int index, const LimiterSpec& spec) {
    limiters_.push_back(makeLimiter(spec, limiterOptions_));  // the old one stays alive
    context_.limiters[size_t(index)] = limiters_.back().get();
    scenario_.limiters[index] = spec;
    gateways_->update(index, spec);
    stats_->setSpec(index, spec);
}

ScenarioRunner::~ScenarioRunner() {
    requestStop();
    wait();
}

void ScenarioRunner::start() {
    if (started_) {
        return;
    }
    if (resetKeys_ && !resetLimiterKeys()) {
        // Interrupted before the first request: a run stopped early at run time 0.
        started_ = true;
        stoppedEarly_ = true;
        stop_ = true;
        clock_.start(fromRunUs_, fromEpochMs_);
        return;
    }
    for (int i = 0; i < workerCount_; ++i) {
        workers_.push_back(std::make_unique<Worker>(context_, i, stats_->worker(i)));
    }
    started_ = true;
    clock_.start(fromRunUs_, fromEpochMs_);
    running_ = workerCount_;
    for (int i = 0; i < workerCount_; ++i) {
        threads_.emplace_back([this, i] {
            workers_[size_t(i)]->run();
            if (i == 0) {
                clock_.sampleUntil(durationUs_, stop_);  // the samples after the last decision
            }
            if (running_.fetch_sub(1) == 1) {
                flushGateways();
                finishedAtUs_ = clock_.waits() ? clock_.elapsedUs() : progressUs_.load();
            }
        });
    }
}

void ScenarioRunner::flushGateways() {
    std::vector<const Limiter*> limiters;
    for (int i = 0; i < context_.limiterCount; ++i) {
        limiters.push_back(context_.limiters[size_t(i)].load());
    }
    try {
        RedisRouter control(url_, options_);
        gateways_->flush(control, limiters);
    } catch (const RedisError&) {
        // Redis gone at the end: the grants not added stay uncounted, as a gateway's that died.
    }
}

bool ScenarioRunner::resetLimiterKeys() {
    try {
        RedisRouter control(url_, options_);
        for (const auto& limiter : limiters_) {
            limiter->reset(control);
        }
        gateways_->reset(control);
        return true;
    } catch (const RedisError&) {
        if (!RedisConnection::interrupted()) {
            throw;
        }
        return false;  // the interrupt cut a wait or the SCAN of a large keyspace short
    }
}

void ScenarioRunner::setStateSampler(int samples, RunClock::Sampler sample) {
    if (started_ || samples <= 0) {
        return;
    }
    clock_.setSampler(std::max<qint64>(1, durationUs_ / samples), durationUs_, std::move(sample));
}

bool ScenarioRunner::setPaused(bool paused) {
    if (!clock_.isVirtual()) {
        return false;
    }
    if (paused_.exchange(paused) != paused) {
        paused ? clock_.hold() : clock_.release();
    }
    return true;
}

void ScenarioRunner::holdKeyTtls(bool held) {
    try {
        if (!held) {
            if (pauseRouter_) {
                pausedKeys_.release(*pauseRouter_);
            }
            return;
        }
        if (!pauseRouter_) {
            pauseRouter_ = std::make_unique<RedisRouter>(url_, options_);
        }
        std::vector<const Limiter*> limiters;
        for (int i = 0; i < context_.limiterCount; ++i) {
            limiters.push_back(context_.limiters[size_t(i)].load());
        }
        // No decision to come is before the last batch's due time (progressUs_), none made was
        // after the time reached.
        const qint64 fromMs =
            clock_.startEpochMs() + std::min(progressUs_.load(), durationUs_) / 1000;
        pausedKeys_.hold(*pauseRouter_, limiters, requests_, fromMs,
                         std::max(fromMs, limiterNowMs()));
    } catch (const RedisError&) {
        // Redis is gone: the decisions after the pause count it.
    }
}

void ScenarioRunner::requestStop() {
    if (started_ && running_.load() > 0) {
        stoppedEarly_ = true;
    }
    stop_ = true;
}

void ScenarioRunner::wait() {
    for (std::thread& t : threads_) {
        if (t.joinable()) {
            t.join();
        }
    }
}

bool ScenarioRunner::finished() const {
    return started_ && running_.load() == 0;
}

const Limiter& ScenarioRunner::stateLimiter(int index) const {
    return gateways_ ? gateways_->limiter(index, 0, limiter(index)) : limiter(index);
}

qint64 ScenarioRunner::limiterNowMs() const {
    if (!clock_.isVirtual()) {
        // The wall clock, or the step session's time base when the run continues one.
        return clock_.startEpochMs() + clock_.elapsedUs() / 1000;
    }
    const qint64 reached = clock_.waits() ? clock_.elapsedUs() : progressUs_.load();
    return clock_.startEpochMs() + std::min(reached, durationUs_) / 1000;
}

RunSnapshot ScenarioRunner::snapshot() const {
    RunSnapshot s;
    s.scenarioName = scenario_.name;
    s.startEpochMs = clock_.startEpochMs();
    s.bucketMs = scenario_.bucketMs;
    s.durationUs = durationUs_;
    s.finished = finished();
    s.stoppedEarly = stoppedEarly_.load();
    const qint64 reached = clock_.waits() ? clock_.elapsedUs() : progressUs_.load();
    if (s.finished && s.stoppedEarly) {
        // The run time it really had, not the one it was meant to have.
        s.finishedAtUs = finishedAtUs_.load();
        s.elapsedUs = std::clamp<qint64>(s.finishedAtUs, 0, durationUs_);
    } else {
        s.finishedAtUs = s.finished ? std::max(finishedAtUs_.load(), durationUs_) : 0;
        s.elapsedUs = s.finished ? durationUs_ : std::clamp<qint64>(reached, 0, durationUs_);
    }
    s.targetRate = durationUs_ > 0 ? scheduleExpectedSends(scenario_.traffic, durationUs_) /
                                         (double(durationUs_) / 1e6)
                                   : 0;
    const qint64 bucketUs = scenario_.bucketMs * 1000;
    for (int b = 0; b < stats_->bucketCount(); ++b) {
        s.bucketTargetRate.push_back(pacer_->targetRate(b * bucketUs));
    }
    s.sameRequests = scenario_.traffic.mode == AcquireMode::Try;
    s.virtualClock = clock_.isVirtual();
    s.clockSpeed = clock_.speed();
    s.roundTripPerLimiter = scenario_.traffic.roundTripPerLimiter;
    stats_->fill(s);
    if (s.finished) {
        fillFinal(s);
    }
    return s;
}

void ScenarioRunner::fillFinal(RunSnapshot& s) const {
    {
        // finished(): every worker has returned, so their accepted logs are complete.
        std::lock_guard<std::mutex> lock(burstsMutex_);
        if (!bursts_) {
            std::vector<AdmittedBursts> all;
            for (int l = 0; l < scenario_.limiters.size(); ++l) {
                // Per client too: what a global limiter let each client through is a
                // figure of its own (an attacker's share).
                all.push_back(stats_->admittedBursts(l, burstWindowsFor(scenario_, l), true));
            }
            bursts_ = std::move(all);
        }
        for (int l = 0; l < s.limiters.size() && size_t(l) < bursts_->size(); ++l) {
            const AdmittedBursts& b = (*bursts_)[size_t(l)];
            LimiterSnapshot& limiter = s.limiters[l];
            limiter.admittedBurst = b.overall;
            limiter.admittedBurstRunClock = b.overallRunClock;
            for (int c = 0; c < limiter.clients.size() && size_t(c) < b.perClient.size(); ++c) {
                limiter.clients[c].admittedBurst = b.perClient[size_t(c)];
            }
            for (int g = 0; g < limiter.groups.size() && size_t(g) < b.perGroup.size(); ++g) {
                limiter.groups[g].admittedBurst = b.perGroup[size_t(g)];
                limiter.groups[g].admittedBurstRunClock = b.perGroupRunClock[size_t(g)];
            }
        }
    }
    s.expectations = evaluateExpectations(scenario_.expectations, s);
}

}  // namespace ratelab
