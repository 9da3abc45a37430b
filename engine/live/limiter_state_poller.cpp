#include "live/limiter_state_poller.h"

#include <utility>

#include "limiters/limiter.h"
#include "limiters/script_spec.h"
#include "redis/redis_router.h"
#include "run/scenario_runner.h"
#include "run/step_session.h"
#include "traffic/gateway_state.h"

namespace ratelab {

LimiterStatePoller::LimiterStatePoller(std::shared_ptr<StateMailbox> mailbox,
                                       std::function<void()> notify)
    : mailbox_(std::move(mailbox)), notify_(std::move(notify)) {
    timer_.setInterval(kChartIntervalMs);
    connect(&timer_, &QTimer::timeout, this, [this] { poll(false); });
}

LimiterStatePoller::~LimiterStatePoller() = default;

void LimiterStatePoller::setUrl(const RedisUrl& url) {
    url_ = url;
    cost_.reset();  // it reads through the router
    costOf_ = nullptr;
    router_.reset();
    finished_.clear();  // its keys were on the other Redis
}

void LimiterStatePoller::watch(std::shared_ptr<ScenarioRunner> runner,
                               std::shared_ptr<StepSession> stepper) {
    runner_ = std::move(runner);
    stepper_ = std::move(stepper);
    sampled_ = runner_ && runner_->scenario().traffic.clock.isVirtual;
    finished_.clear();
    if (!timer_.isActive()) {
        timer_.start();
    }
    poll(false);
}

void LimiterStatePoller::stopWatching() {
    if (!listing_) {
        timer_.stop();  // shown, the finished run's keys go on being listed (their TTLs run)
    }
    sampled_ = false;  // the final state: at the run's end
    std::vector<const Limiter*> limiters;
    std::vector<std::unique_ptr<Limiter>> owned;
    finishedNowMs_ = watched(&limiters, &owned);
    poll(true);
    // The final figures: every element of every key counted; a run's script limiters against
    // their references measured apart once its own figures are read.
    readCost(limiters, false, 0, runner_ ? &runner_->scenario() : nullptr);
    finished_.clear();
    for (const Limiter* limiter : limiters) {
        finished_.push_back(makeLimiter(limiter->spec()));
    }
    runner_.reset();
    stepper_.reset();
}

void LimiterStatePoller::forgetFinished() {
    finished_.clear();
}

void LimiterStatePoller::setListing(bool on) {
    listing_ = on;
    if (!on) {
        return;
    }
    lastListing_.invalidate();
    if (runner_ || stepper_) {
        poll(true);
        return;
    }
    listFinished(true);
    if (!finished_.empty() && !timer_.isActive()) {
        timer_.start();
    }
}

// The finished run's keys, listed while shown at kListingIntervalMs: Redis's TTLs run on after
// the run (the panel would show them frozen), keys expire. `chart`: with the chart state at the
// run's end (the first listing after the run).
void LimiterStatePoller::listFinished(bool chart) {
    if (!listing_ || finished_.empty()) {
        timer_.stop();  // nothing watched, nothing listed
        return;
    }
    if (!chart && lastListing_.isValid() && !lastListing_.hasExpired(kListingIntervalMs)) {
        return;
    }
    lastListing_.start();
    for (size_t i = 0; i < finished_.size(); ++i) {
        readOne(i, *finished_[i], finishedNowMs_, true, chart);
    }
}

// The limiters watched now and their clock: a run's live limiters, or a step session's
// (rebuilt from its snapshot into `owned`).
qint64 LimiterStatePoller::watched(std::vector<const Limiter*>* limiters,
                                   std::vector<std::unique_ptr<Limiter>>* owned) const {
    if (runner_) {
        const qint64 now = runner_->limiterNowMs();
        for (int i = 0; i < runner_->scenario().limiters.size(); ++i) {
            limiters->push_back(&runner_->stateLimiter(i));
        }
        return now;
    }
    if (stepper_) {
        const qint64 now = stepper_->limiterNowMs();
        for (const LimiterSnapshot& l : stepper_->snapshot().limiters) {
            // As a run's: gateway 0's own state where each gateway keeps its own.
            LimiterSpec spec = l.spec;
            if (spec.gateway.mode == GatewayMode::Local) {
                spec.name = GatewayState::localName(spec.name, 0);
            }
            owned->push_back(makeLimiter(spec));
            limiters->push_back(owned->back().get());
        }
        return now;
    }
    return 0;
}

void LimiterStatePoller::poll(bool forceListing) {
    if (!runner_ && !stepper_) {
        listFinished(false);
        return;
    }
    std::vector<const Limiter*> limiters;
    std::vector<std::unique_ptr<Limiter>> owned;
    const qint64 now = watched(&limiters, &owned);
    const void* run = runner_ ? static_cast<const void*>(runner_.get()) : stepper_.get();
    if (run != costOf_ || !lastCost_.isValid() || lastCost_.hasExpired(kCostIntervalMs)) {
        readCost(limiters, run != costOf_, kCostSamples);
        costOf_ = run;
    }
    // The key listing costs more than the charts' figures: only while shown, at 2 Hz.
    const bool list = listing_ && (forceListing || !lastListing_.isValid() ||
                                   lastListing_.hasExpired(kListingIntervalMs));
    if (list) {
        lastListing_.start();
    }
    if (sampled_ && !list) {
        return;  // the run's sampler reads the charts' state in run time
    }
    for (size_t i = 0; i < limiters.size(); ++i) {
        readOne(i, *limiters[i], now, list, !sampled_);
    }
}

RedisRouter& LimiterStatePoller::router() {
    if (!router_) {
        router_ = std::make_unique<RedisRouter>(url_);
    }
    return *router_;
}

void LimiterStatePoller::readCost(const std::vector<const Limiter*>& limiters, bool fresh,
                                  int samples, const Scenario* scenario) {
    lastCost_.start();
    if (limiters.empty()) {
        return;
    }
    try {
        if (!cost_) {
            cost_ = std::make_unique<LimiterCostReader>(router());
            fresh = true;
        }
        if (fresh) {
            cost_->markBaseline(limiters);
        }
        RunCost cost = runCostOf(cost_->read(limiters, samples), samples == 0);
        if (scenario != nullptr) {
            measureScripts(*scenario, limiters, &cost);
        }
        if (mailbox_->putCost(cost)) {
            notify_();
        }
    } catch (const std::exception&) {
        // Redis unreachable: the state reads report it per limiter; the cost waits for them.
    }
}

void LimiterStatePoller::measureScripts(const Scenario& scenario,
                                        const std::vector<const Limiter*>& limiters,
                                        RunCost* cost) {
    Scenario now = scenario;
    for (size_t i = 0; i < limiters.size() && i < size_t(now.limiters.size()); ++i) {
        const LimiterSpec& spec = now.limiters[int(i)];
        if (!spec.script || !spec.script->reference) {
            continue;
        }
        now.limiters[int(i)].script = limiters[i]->spec().script;  // as a live edit left it
        try {
            cost->scripts.push_back(
                {int(i), measureScriptAndReference(router(), now, int(i), kScriptCostRequests)});
        } catch (const std::exception&) {
            // Redis gone at the end: the run's own figures stand without the comparison.
        }
    }
    cost->scriptRequests = kScriptCostRequests;
}

void LimiterStatePoller::readOne(size_t index, const Limiter& limiter, qint64 nowMs, bool list,
                                 bool chart) {
    bool first = false;
    try {
        RedisConnection& connection = router().connectionForSlot(limiter.slot());
        LimiterState state = readLimiterChartState(connection, limiter, nowMs);
        if (list) {
            readLimiterKeys(connection, limiter, &state);
            mailbox_->countListing();
        }
        first = mailbox_->putState(int(index), std::move(state), list, chart);
    } catch (const std::exception& e) {
        if (router_ && router_->isCluster()) {
            try {
                router_->refreshSlotMap();  // the slot may have moved (MOVED replies)
            } catch (const std::exception&) {
            }
        }
        first = mailbox_->putError(int(index), QString::fromStdString(e.what()));
    }
    if (first) {
        notify_();
    }
}

}  // namespace ratelab
