#include "run/scenario_runner.h"

#include <QJsonObject>
#include <algorithm>
#include <cmath>

#include "redis/redis_error.h"
#include "redis/redis_router.h"
#include "run/run_parts.h"
#include "run/step_session.h"
#include "traffic/traffic_schedule.h"

namespace ratelab {

namespace {

// Slow motion stretches server-side TTLs so state outlives its (virtual) windows.
LimiterOptions runLimiterOptions(const RunClock& clock, LimiterOptions options) {
    if (clock.isVirtual() && clock.speed() > 0 && clock.speed() < 1) {
        options.ttlScale = 1.0 / clock.speed();
    }
    return options;
}

}  // namespace

ScenarioRunner::ScenarioRunner(Scenario scenario, RedisUrl url, ConnectOptions options,
                               LimiterOptions limiterOptions)
    : scenario_(std::move(scenario)),
      url_(std::move(url)),
      options_(options),
      clock_(scenario_.traffic.clock) {
    workerCount_ = clock_.isVirtual() ? 1 : scenario_.traffic.threads;
    parts_ = std::make_unique<RunParts>(
        scenario_, url_, options_, runLimiterOptions(clock_, limiterOptions), clock_, workerCount_);
    if (clock_.isVirtual()) {
        clock_.setHoldWatcher([this](bool held) { holdKeyTtls(held); });
    }
}

const Limiter& ScenarioRunner::limiter(int index) const {
    return parts_->limiter(index);
}

std::vector<const Limiter*> ScenarioRunner::limitersWithKeys() const {
    return parts_->limitersWithKeys();
}

const QStringList& ScenarioRunner::clientNames() const {
    return parts_->requests.clientNames();
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
    parts_->context.firstK = session.sent();
    fromRunUs_ = session.lastRunUs();
    fromEpochMs_ = session.startEpochMs();
    parts_->progressUs = fromRunUs_;
    parts_->stats->adoptWorker(session.takeStats());
    // The stepped grants still release their slots, the waits still retry, and the gateways go
    // on with what they keep.
    parts_->context.pending = session.takePending();
    parts_->gateways = session.takeGateways();
    parts_->context.gateways = parts_->gateways.get();
}

void ScenarioRunner::updateLimiter(int index, const LimiterSpec& spec) {
    RunParts& parts = *parts_;
    parts.limiters.push_back(makeLimiter(spec, parts.limiterOptions));  // the old one stays alive
    parts.context.limiters[size_t(index)] = parts.limiters.back().get();
    scenario_.limiters[index] = spec;
    parts.gateways->update(index, spec);
    parts.stats->setSpec(index, spec);
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
        parts_->stop = true;
        clock_.start(fromRunUs_, fromEpochMs_);
        return;
    }
    for (int i = 0; i < workerCount_; ++i) {
        workers_.push_back(std::make_unique<Worker>(parts_->context, i, parts_->stats->worker(i)));
    }
    started_ = true;
    clock_.start(fromRunUs_, fromEpochMs_);
    running_ = workerCount_;
    for (int i = 0; i < workerCount_; ++i) {
        threads_.emplace_back([this, i] {
            workers_[size_t(i)]->run();
            if (i == 0) {
                // the samples after the last decision
                clock_.sampleUntil(parts_->durationUs, parts_->stop);
            }
            if (running_.fetch_sub(1) == 1) {
                flushGateways();
                finishedAtUs_ = clock_.waits() ? clock_.elapsedUs() : parts_->progressUs.load();
            }
        });
    }
}

void ScenarioRunner::flushGateways() {
    try {
        RedisRouter control(url_, options_);
        parts_->flushGateways(control);
    } catch (const RedisError&) {
        // Redis gone at the end: the grants not added stay uncounted, as a gateway's that died.
    }
}

bool ScenarioRunner::resetLimiterKeys() {
    try {
        RedisRouter control(url_, options_);
        parts_->resetKeys(control);
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
    const qint64 durationUs = parts_->durationUs;
    clock_.setSampler(std::max<qint64>(1, durationUs / samples), durationUs, std::move(sample));
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
        for (int i = 0; i < parts_->context.limiterCount; ++i) {
            limiters.push_back(&parts_->limiter(i));
        }
        // No decision to come is before the last batch's due time (progressUs), none made was
        // after the time reached.
        const qint64 fromMs =
            clock_.startEpochMs() + std::min(parts_->progressUs.load(), parts_->durationUs) / 1000;
        pausedKeys_.hold(*pauseRouter_, limiters, parts_->requests, fromMs,
                         std::max(fromMs, limiterNowMs()));
    } catch (const RedisError&) {
        // Redis is gone: the decisions after the pause count it.
    }
}

void ScenarioRunner::requestStop() {
    if (started_ && running_.load() > 0) {
        stoppedEarly_ = true;
    }
    parts_->stop = true;
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
    return parts_->gateways->limiter(index, 0, limiter(index));
}

qint64 ScenarioRunner::limiterNowMs() const {
    if (!clock_.isVirtual()) {
        // The wall clock, or the step session's time base when the run continues one.
        return clock_.startEpochMs() + clock_.elapsedUs() / 1000;
    }
    const qint64 reached = clock_.waits() ? clock_.elapsedUs() : parts_->progressUs.load();
    return clock_.startEpochMs() + std::min(reached, parts_->durationUs) / 1000;
}

RunSnapshot ScenarioRunner::snapshot() const {
    RunSnapshot s;
    s.scenarioName = scenario_.name;
    s.startEpochMs = clock_.startEpochMs();
    s.bucketMs = scenario_.bucketMs;
    s.durationUs = parts_->durationUs;
    s.finished = finished();
    parts_->stats->fill(s);
    // A worker may have stopped it (RunSnapshot::stopCause).
    s.stoppedEarly = stoppedEarly_.load() || !s.stopCause.isEmpty();
    const qint64 reached = clock_.waits() ? clock_.elapsedUs() : parts_->progressUs.load();
    if (s.finished && s.stoppedEarly) {
        // The run time it really had, not the one it was meant to have.
        s.finishedAtUs = finishedAtUs_.load();
        s.elapsedUs = std::clamp<qint64>(s.finishedAtUs, 0, parts_->durationUs);
    } else {
        s.finishedAtUs = s.finished ? std::max(finishedAtUs_.load(), parts_->durationUs) : 0;
        s.elapsedUs =
            s.finished ? parts_->durationUs : std::clamp<qint64>(reached, 0, parts_->durationUs);
    }
    s.targetRate = parts_->durationUs > 0
                       ? scheduleExpectedSends(scenario_.traffic, parts_->durationUs) /
                             (double(parts_->durationUs) / 1e6)
                       : 0;
    const qint64 bucketUs = scenario_.bucketMs * 1000;
    for (int b = 0; b < parts_->stats->bucketCount(); ++b) {
        s.bucketTargetRate.push_back(parts_->pacer->targetRate(b * bucketUs));
    }
    s.sameRequests = scenario_.traffic.mode == AcquireMode::Try;
    s.virtualClock = clock_.isVirtual();
    s.clockSpeed = clock_.speed();
    s.roundTripPerLimiter = scenario_.traffic.roundTripPerLimiter;
    s.pipelineRequested = scenario_.traffic.pipeline;
    s.threadsRequested = scenario_.traffic.threads;
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
                all.push_back(
                    parts_->stats->admittedBursts(l, burstWindowsFor(scenario_, l), true));
            }
            bursts_ = std::move(all);
        }
        for (int l = 0; l < s.limiters.size() && size_t(l) < bursts_->size(); ++l) {
            applyAdmittedBursts((*bursts_)[size_t(l)], s.limiters[l]);
        }
    }
    s.expectations = evaluateExpectations(scenario_.expectations, s);
}

}  // namespace ratelab
