#include "run/run_session.h"

#include <algorithm>

#include "input_error.h"
#include "limiters/algorithm.h"
#include "run/run_controller.h"
#include "scenario/scenario_json.h"

namespace ratelab {
namespace {

bool hasName(const QVector<LimiterSpec>& specs, const QString& name) {
    return std::any_of(specs.cbegin(), specs.cend(),
                       [&](const LimiterSpec& s) { return s.name == name; });
}

}  // namespace

RunSession::RunSession(RunController* controller, QObject* parent)
    : QObject(parent), controller_(controller) {
    connect(controller_, &RunController::started, this, &RunSession::readinessChanged);
    connect(controller_, &RunController::failed, this, &RunSession::readinessChanged);
    connect(controller_, &RunController::stepped, this, &RunSession::readinessChanged);
    connect(controller_, &RunController::finished, this, [this] {
        forgetAbandoned();  // again: a decision in flight at the rename may have written
        emit readinessChanged();
    });
}

void RunSession::setConnected(bool connected) {
    connected_ = connected;
    emit readinessChanged();
}

void RunSession::loadScenario(const Scenario& scenario) {
    expectations_ = scenario.expectations;
    sweep_ = scenario.sweep;
    controller_->dropSteps();  // even the same file again: Step starts from its first request
    emit readinessChanged();
}

std::optional<Scenario> RunSession::currentScenario() const {
    if (!editors_) {
        return std::nullopt;
    }
    const Editors e = editors_();
    if (!e.limiters || !e.traffic) {
        return std::nullopt;
    }
    Scenario s;
    s.name = e.name.trimmed();
    if (s.name.isEmpty()) {
        s.name = QStringLiteral("untitled");
    }
    s.limiters = *e.limiters;
    s.traffic = *e.traffic;
    s.bucketMs = e.bucketMs;
    // Checks on a limiter that is gone (renamed, removed) would make the file unreadable.
    for (const Expectation& x : expectations_) {
        if (x.limiter == QLatin1String("*") || hasName(s.limiters, x.limiter)) {
            s.expectations.append(x);
        }
    }
    // The loaded sweep, while its fields still name the limiters (else a save would not read).
    if (!sweep_.isEmpty()) {
        try {
            s.sweep = scenario_json::readSweep(scenario_json::sweepToJson(sweep_),
                                               QStringLiteral("$.sweep"), s.limiters);
        } catch (const InputError&) {
        }
    }
    return s;
}

RunSession::Readiness RunSession::readiness() const {
    Readiness r;
    const Editors e = editors_ ? editors_() : Editors{};
    const bool running = controller_->running();
    if (!e.limiters) {
        r.blockedBy = e.limitersError;
    } else if (!e.traffic) {
        r.blockedBy = e.trafficError;
    } else if (!connected_) {
        r.blockedBy = tr("not connected to Redis");
    }
    if (!r.blockedBy.isEmpty()) {
        r.blockedBy = tr("Cannot start: %1").arg(r.blockedBy);
    }
    const bool ready = e.limiters && e.traffic && connected_;
    r.canStart = ready && !running;
    r.canStep = ready && !running;
    r.canStop = running;
    // After Step, Start continues the stepped requests unless the scenario changed since.
    if (r.canStart) {
        const std::optional<Scenario> scenario = currentScenario();
        if (scenario && controller_->continuesSteps(*scenario)) {
            r.continues = controller_->steppedRequests();
        }
    }
    return r;
}

void RunSession::abandonGone(const QVector<LimiterSpec>& before, const QVector<LimiterSpec>& now) {
    for (const LimiterSpec& old : before) {
        if (!hasName(now, old.name)) {
            abandoned_.push_back(old);
        }
    }
}

void RunSession::start() {
    const std::optional<Scenario> scenario = currentScenario();
    if (!scenario) {
        return;
    }
    const bool continues = controller_->continuesSteps(*scenario);
    if (continues) {
        // The run goes on from the stepped requests, on the keys the steps wrote: only an
        // earlier run's limiters that the scenario no longer has go.
        abandonGone(runningSpecs_, scenario->limiters);
    } else {
        // The run resets its own limiters' keys; those of the previous run and of a step
        // session go (a name the scenario no longer has, or the same name with another type,
        // whose keys the new run's reset would not find).
        abandoned_ += runningSpecs_ + stepSpecs_;
    }
    emit runStarting(*scenario, continues);
    runningSpecs_ = scenario->limiters;
    runScenario_ = *scenario;
    stepSpecs_.clear();
    forgetAbandoned();
    controller_->start(*scenario);
    emit readinessChanged();
}

void RunSession::step() {
    const std::optional<Scenario> scenario = currentScenario();
    if (!scenario) {
        return;
    }
    if (!controller_->stepsContinue(*scenario)) {
        emit stepSessionStarting(*scenario);
    }
    // A step session's limiters that the scenario no longer has (renamed, removed).
    abandonGone(stepSpecs_, scenario->limiters);
    forgetAbandoned();
    stepSpecs_ = scenario->limiters;
    controller_->step(*scenario);
}

void RunSession::stop() {
    controller_->stop();
}

void RunSession::limitersEdited() {
    emit readinessChanged();
    const Editors e = editors_ ? editors_() : Editors{};
    if (!controller_->running() || !e.limiters) {
        return;
    }
    const QVector<LimiterSpec>& specs = *e.limiters;
    if (specs.size() != runningSpecs_.size()) {
        emit problem(tr("Adding or removing limiters applies to the next run"));
        return;
    }
    for (int i = 0; i < specs.size(); ++i) {
        LimiterSpec spec = specs[i];
        if (spec == runningSpecs_[i]) {
            continue;
        }
        const LimiterSpec old = runningSpecs_[i];
        const bool renamed = spec.name != old.name;
        if (renamed && askRename_ && !askRename_(old.name, spec.name)) {
            spec.name = old.name;  // declined: the other changes still apply
            emit renameDeclined(i, spec);
            if (spec == old) {
                continue;
            }
        } else if (renamed) {
            abandoned_.push_back(old);
        }
        controller_->updateLimiter(i, spec);
        if (spec.name != old.name) {
            controller_->deleteLimiterKeys(old);
        }
        const bool reset = spec.type != old.type || !algorithmOf(spec).keepsState(old, spec);
        runningSpecs_[i] = spec;
        emit limiterApplied(i, spec,
                            spec.name != old.name ? StateChange::Renamed
                            : reset               ? StateChange::Reset
                                                  : StateChange::Kept);
    }
}

void RunSession::forgetAbandoned() {
    for (const LimiterSpec& spec : std::as_const(abandoned_)) {
        controller_->deleteLimiterKeys(spec);
    }
    abandoned_.clear();
}

void RunSession::close() {
    forgetAbandoned();
    controller_->dropSteps();
}

}  // namespace ratelab
