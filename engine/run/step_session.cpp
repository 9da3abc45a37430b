#include "run/step_session.h"

#include <QDateTime>
#include <chrono>

#include "explain/decision_explainer.h"
#include "redis/redis_error.h"
#include "redis/redis_router.h"
#include "run/schedule_decider.h"
#include "traffic/traffic_schedule.h"

namespace ratelab {
namespace {

// Why limiter `spec`'s decision failed, and what its on_error policy made of it.
QString failureText(const DecisionPath::Result& result, const LimiterSpec& spec) {
    QString why = QStringLiteral("the decision failed");
    try {
        if (result.failure) {
            std::rethrow_exception(result.failure);
        }
    } catch (const std::exception& e) {
        why = QString::fromStdString(e.what());
    }
    switch (spec.onError) {
        case FailurePolicy::Error:
            break;
        case FailurePolicy::Open:
            why += QStringLiteral("; let through by on_error \"open\"");
            break;
        case FailurePolicy::Closed:
            why += QStringLiteral("; refused by on_error \"closed\"");
            break;
    }
    return why;
}

}  // namespace

// Takes the decisions of the request being stepped (its first try on each limiter), and with
// explainers explains each around its batch.
class StepSession::Observer final : public DecisionObserver {
public:
    explicit Observer(StepSession& session) : session_(session) {}

    void target(qint64 k, Step* step) {
        k_ = k;
        step_ = step;
    }
    bool explains(qint64 k) const override { return k == k_ && !session_.explainers_.empty(); }
    void before(const Attempt& attempt, const Limiter&) override {
        explainerOf(attempt.job).before(attempt.request);
        sentAt_ = std::chrono::steady_clock::now();
    }
    void decided(const Attempt& attempt, const DecisionPath::Result& result) override {
        if (attempt.job.k != k_ || !attempt.firstTry || step_ == nullptr) {
            return;
        }
        const size_t l = size_t(attempt.job.limiter);
        if (step_->decisions.size() <= l) {
            step_->decisions.resize(l + 1);
            step_->errors.resize(int(l) + 1);
            step_->explanations.resize(l + 1);
        }
        step_->index = attempt.job.k;
        step_->client = attempt.request.client;
        step_->permits = attempt.request.permits;
        step_->gateway = attempt.job.gateway;
        runUs_ = attempt.job.scheduledRunUs;
        if (!result.decided) {
            step_->errors[int(l)] = failureText(result, session_.scenario().limiters[int(l)]);
            return;
        }
        step_->decisions[l] = result.decision;
        if (session_.explainers_.empty()) {
            return;
        }
        const qint64 decideUs = std::chrono::duration_cast<std::chrono::microseconds>(
                                    std::chrono::steady_clock::now() - sentAt_)
                                    .count();
        Explanation e =
            explainerOf(attempt.job)
                .after(attempt.request, result.decision, result.byGateway, attempt.job.gateway,
                       decideUs, result.referenceDecided ? &result.reference : nullptr);
        e.index = attempt.job.k;
        e.requests = attempt.job.k + 1;
        e.runMs = attempt.job.scheduledRunUs / 1000;
        e.startEpochMs = session_.startEpochMs();
        e.scenario = session_.scenario().name;
        step_->explanations[l] = std::move(e);
    }
    qint64 runUs() const { return runUs_; }

private:
    DecisionExplainer& explainerOf(const WorkerJob& job) {
        const auto& perGateway = session_.explainers_[size_t(job.limiter)];
        return *perGateway[perGateway.size() > 1 ? size_t(job.gateway) : 0];
    }

    StepSession& session_;
    qint64 k_ = -1;
    Step* step_ = nullptr;
    qint64 runUs_ = 0;
    std::chrono::steady_clock::time_point sentAt_{};
};

StepSession::StepSession(Scenario scenario, RedisUrl url, bool explain)
    : StepSession(std::move(scenario), std::move(url), explain, false) {}

StepSession::StepSession(Scenario scenario, RedisUrl url, ForLesson)
    : StepSession(std::move(scenario), std::move(url), false, true) {}

StepSession::StepSession(Scenario scenario, RedisUrl url, bool explain, bool lesson)
    : router_(std::make_unique<RedisRouter>(url)) {
    // The session's clock stands still between two Steps while Redis's TTLs run on: its keys
    // get a day more, so a slow step finds the state a quick one would (and so does a run that
    // continues the session).
    ScheduleDecider::Options options;
    options.limiters.ttlExtraMs = kClockStandstillMs;
    options.limiters.keepRawReplies = explain;  // a script limiter's reply, for its explanation
    options.reconnectBackoff = false;           // each Step is one user action: always try again
    options.redisClockIsRunClock = lesson;
    const qint64 startEpochMs = scenario.traffic.clock.isVirtual
                                    ? scenario.traffic.clock.startMs
                                    : QDateTime::currentMSecsSinceEpoch();
    decider_ = std::make_unique<ScheduleDecider>(std::move(scenario), url, startEpochMs, options);
    lastNowMs_ = startEpochMs;
    router_->setReconnectBackoff(false);
    decider_->resetKeys(*router_);
    if (explain) {
        const QString base = explainScratchBase();
        const int gateways = std::max(1, decider_->scenario().traffic.gateways.count);
        for (int l = 0; l < decider_->scenario().limiters.size(); ++l) {
            const LimiterSpec& spec = decider_->scenario().limiters[l];
            const bool local = spec.gateway.mode == GatewayMode::Local;
            explainers_.emplace_back();
            for (int g = 0; g < (local ? gateways : 1); ++g) {
                explainers_.back().push_back(std::make_unique<DecisionExplainer>(
                    *router_, decider_->limiter(l, g),
                    local ? GatewayState::localName(spec.name, g) : spec.name,
                    base + QString::number(l) + (local ? QStringLiteral("g%1").arg(g) : QString()) +
                        QLatin1Char('-'),
                    false));
            }
        }
    }
    observer_ = std::make_unique<Observer>(*this);
    decider_->setObserver(observer_.get());
}

StepSession::~StepSession() = default;

const Limiter& StepSession::stateLimiter(int index) const {
    return decider_->limiter(index, 0);
}
const Scenario& StepSession::scenario() const {
    return decider_->scenario();
}
qint64 StepSession::startEpochMs() const {
    return decider_->startEpochMs();
}
std::unique_ptr<WorkerStats> StepSession::takeStats() {
    return decider_->takeStats();
}
std::unique_ptr<GatewayState> StepSession::takeGateways() {
    return decider_->takeGateways();
}
std::vector<WorkerJob> StepSession::takePending() {
    return decider_->takePending();
}

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

StepSession::Step StepSession::next() {
    const qint64 k = decider_->nextRequest();
    if (k < 0) {
        over_ = true;
        return Step();
    }
    return advanceThrough(k);
}

StepSession::Step StepSession::advanceThrough(qint64 k) {
    Step step;
    if (k < decider_->nextRequest() || decider_->nextRequest() < 0) {
        over_ = decider_->nextRequest() < 0;
        return step;
    }
    const int limiters = decider_->scenario().limiters.size();
    step.decisions.resize(size_t(limiters));
    step.errors.resize(limiters);
    if (!explainers_.empty()) {
        step.explanations.resize(size_t(limiters));
    }
    observer_->target(k, &step);
    const bool reached = decider_->advanceThrough(k);
    observer_->target(-1, nullptr);
    if (!reached) {
        // The schedule ended before request k: every one of its requests is decided.
        k_ = decider_->lastRequestBefore(Pacer::kNoMore) + 1;
        if (k_ > 0) {
            lastRunUs_ = decider_->runUsOf(k_ - 1);
            lastNowMs_ = decider_->startEpochMs() + lastRunUs_ / 1000;
        }
        over_ = true;
        return step;
    }
    k_ = k + 1;
    lastRunUs_ = observer_->runUs();
    step.nowMs = decider_->startEpochMs() + lastRunUs_ / 1000;
    lastNowMs_ = step.nowMs;
    return step;
}

qint64 StepSession::lastRequestBefore(qint64 runUs) {
    return decider_->lastRequestBefore(runUs);
}

qint64 StepSession::runUsOf(qint64 k) {
    return decider_->runUsOf(k);
}

void StepSession::resetKeys() {
    decider_->resetKeys(*router_);
}

const RunStats& StepSession::stats() const {
    return decider_->stats();
}

void StepSession::advanceUntil(qint64 runUs) {
    decider_->advanceUntil(runUs);
    const qint64 next = decider_->nextRequest();
    k_ = next >= 0 ? next : decider_->lastRequestBefore(Pacer::kNoMore) + 1;
    if (k_ > 0) {
        lastRunUs_ = decider_->runUsOf(k_ - 1);
        lastNowMs_ = decider_->startEpochMs() + lastRunUs_ / 1000;
    }
}

RunSnapshot StepSession::snapshot() const {
    RunSnapshot s;
    const Scenario& scenario = decider_->scenario();
    const qint64 durationUs = decider_->durationUs();
    s.scenarioName = scenario.name;
    s.startEpochMs = decider_->startEpochMs();
    s.bucketMs = scenario.bucketMs;
    s.durationUs = durationUs;
    // Just past the last request decided: its bucket is one the session has reached (a bucket
    // that starts at the time reached holds nothing yet).
    s.elapsedUs = k_ > 0 ? std::min(lastRunUs_ + 1, std::max(durationUs, lastRunUs_)) : 0;
    s.targetRate = durationUs > 0 ? scheduleExpectedSends(scenario.traffic, durationUs) /
                                        (double(durationUs) / 1e6)
                                  : 0;
    decider_->stats().fill(s);
    return s;
}

}  // namespace ratelab
