#include "run/run_view.h"

#include <QScrollArea>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

#include "algorithms/algorithm_view.h"
#include "charts/time_axis.h"
#include "charts/timeline_chart.h"
#include "limiters/script_spec.h"
#include "panels/comparison_table.h"
#include "panels/comparison_view.h"
#include "panels/disagreement_table.h"
#include "panels/state_panel.h"
#include "run/run_controller.h"

namespace ratelab {

RunView::RunView(RunController* controller, QWidget* parent)
    : QTabWidget(parent), controller_(controller) {
    setObjectName(QStringLiteral("views"));
    axis_ = new TimeAxis(this);
    buildTabs();

    connect(controller_, &RunController::snapshotReady, this, &RunView::showSnapshot);
    connect(controller_, &RunController::finished, this, [this](const RunSnapshot& s) {
        showSnapshot(s);
        // Paused, the timelines show the run as it was then: the whole run's notes wait too.
        burstsHeld_ = paused_;
        if (!paused_)
            showAdmittedBursts(s);
    });
    connect(controller_, &RunController::decided, this,
            [this](const StepSession::Step& step) { markStep(step); });
    connect(controller_, &RunController::stateReady, this, &RunView::queueState);
    // The key listing is read only while the state tab is shown (setKeyListing below).
    connect(controller_, &RunController::keysReady, this,
            [this](int i, const LimiterState& state) { state_->updateState(i, state); });
    connect(controller_, &RunController::stateFailed, this,
            [this](int i, const QString& message) { state_->showError(i, message); });
    connect(controller_, &RunController::costReady, this,
            [this](const RunCost& cost) { compare_->updateCost(cost, limiterNames_); });
    // The key tree costs Redis reads and UI time with many keys: read only while it is shown.
    connect(this, &QTabWidget::currentChanged, this,
            [this] { controller_->setKeyListing(currentWidget() == state_); });
}

void RunView::buildTabs() {
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    auto* timelineHost = new QWidget(scroll);
    timelineLayout_ = new QVBoxLayout(timelineHost);
    scroll->setWidget(timelineHost);
    addTab(scroll, tr("Timelines"));

    compare_ = new ComparisonView(this);
    connect(compare_->disagreements(), &DisagreementTable::pairChosen, this, [this](int a, int b) {
        markedPair_ = {a, b};
        markDisagreements();
    });
    addTab(compare_, tr("Comparison"));

    state_ = new StatePanel(this);
    addTab(state_, tr("Redis state"));
}

void RunView::showScenario(const Scenario& scenario) {
    burstsHeld_ = false;  // a new run: the last one's bursts are not its own
    shown_ = scenario;
    markedPair_ = {-1, -1};
    latestStates_.clear();
    pendingStates_.clear();
    snapshotHeld_ = false;
    controller_->forgetFinishedRun();
    // The charts there are start over (no flicker when a preview follows an edit); those the
    // scenario no longer needs go, new ones join.
    while (timelines_.size() > scenario.limiters.size())
        timelines_.takeLast()->deleteLater();
    QStringList names;
    for (int i = 0; i < scenario.limiters.size(); ++i) {
        const LimiterSpec& spec = scenario.limiters[i];
        TimelineChart* chart = timelines_.value(i);
        if (chart == nullptr) {
            chart = new TimelineChart(timelineLayout_->parentWidget());
            chart->setMinimumHeight(260);
            if (presentation_)
                chart->setPresentation(true);
            chart->setTimeAxis(axis_);      // one time axis: zoom, pan and pause together
            chart->setBaseline(baseline_);  // "compare with…" goes on over new runs
            connect(chart, &TimelineChart::explainRequested, this,
                    [this, i](double seconds) { emit explainRequested(i, seconds); });
            timelineLayout_->addWidget(chart);
            timelines_.push_back(chart);
        }
        // A virtual clock's start is known before the run: calendar windows fall where they
        // will (a start at .900 s puts the first boundary at 0.1 s, not 1 s).
        const qint64 start = scenario.traffic.clock.isVirtual ? scenario.traffic.clock.startMs : 0;
        chart->setLimiter(spec, scenario.traffic.clients, scenario.bucketMs, start);
        chart->setDurationSeconds(scenario.traffic.durationS);  // the axis before the first data
        // A virtual clock repeats every decision: a click explains the request there.
        chart->setExplainable(scenario.traffic.clock.isVirtual);
        names.push_back(spec.name);
    }
    state_->setLimiterNames(names);
}

void RunView::previewScenario(const Scenario& scenario) {
    // Only what the timelines draw before a run: the limiters, the axis, the buckets, the clock.
    const bool same = scenario.limiters == shown_.limiters &&
                      scenario.traffic.durationS == shown_.traffic.durationS &&
                      scenario.traffic.clients == shown_.traffic.clients &&
                      scenario.traffic.clock.isVirtual == shown_.traffic.clock.isVirtual &&
                      scenario.traffic.clock.startMs == shown_.traffic.clock.startMs &&
                      scenario.bucketMs == shown_.bucketMs;
    if (!same)
        showScenario(scenario);
}

ComparisonTable* RunView::comparison() const {
    return compare_->table();
}

DisagreementTable* RunView::disagreements() const {
    return compare_->disagreements();
}

void RunView::setPaused(bool paused) {
    paused_ = paused;
    axis_->setFollowing(!paused);  // paused: zoom with the wheel, pan by dragging
    if (!paused && std::exchange(snapshotHeld_, false)) {
        drawSnapshot(last_);  // what came while paused (the run may have ended since)
    }
    if (!paused && std::exchange(burstsHeld_, false))
        showAdmittedBursts(last_);
}

void RunView::setPresentation(bool on) {
    presentation_ = on;
    for (TimelineChart* chart : std::as_const(timelines_))
        chart->setPresentation(on);
}

void RunView::setBaseline(std::shared_ptr<const RunBaseline> baseline) {
    baseline_ = std::move(baseline);
    for (TimelineChart* chart : std::as_const(timelines_))
        chart->setBaseline(baseline_);
    compare_->setBaseline(baseline_);
    compare_->table()->updateFrom(last_);
}

void RunView::clearCost() {
    compare_->clearCost();
}

void RunView::forgetRun() {
    last_ = RunSnapshot();
    snapshotHeld_ = false;
    limiterNames_.clear();
    compare_->clearCost();
    compare_->updateFrom(last_);
    emit accountingChanged(QString());
}

void RunView::markLimiterChange(int index, StateChange change) {
    if (index < 0 || index >= timelines_.size())
        return;
    const double now = double(last_.elapsedUs) / 1e6;
    QString label = tr("config changed");
    if (change == StateChange::Reset)
        label = tr("config changed: state reset");
    else if (change == StateChange::Renamed)
        label = tr("renamed: fresh state in Redis");
    timelines_[index]->addMarker(now, label);
}

void RunView::queueState(int limiter, const LimiterState& state) {
    // Drawn with the next snapshot (20 Hz), not redrawn once more per state.
    QVector<LimiterState>& pending = pendingStates_[limiter];
    pending.push_back(state);
    if (pending.size() > kMaxPendingStates)
        pending.remove(0, pending.size() - kMaxPendingStates);
}

void RunView::showSnapshot(const RunSnapshot& snapshot) {
    const bool restarted = snapshot.startEpochMs != last_.startEpochMs;
    // A run or step session after a finished run on the same clock (a virtual start repeats):
    // the finished run's admitted bursts no longer describe what the timelines show.
    const bool followsFinished = !restarted && last_.finished && !snapshot.finished;
    last_ = snapshot;
    if (restarted || followsFinished) {
        failoversMarked_ = 0;
    }
    if (followsFinished) {
        for (TimelineChart* chart : std::as_const(timelines_))
            chart->setBusiestIntervals({}, {});
    }
    if (restarted) {
        for (int i = 0; i < timelines_.size() && i < snapshot.limiters.size(); ++i) {
            timelines_[i]->setLimiter(snapshot.limiters[i].spec,
                                      snapshot.limiters[i].clients.size(), snapshot.bucketMs,
                                      snapshot.startEpochMs);
        }
    }
    // A Sentinel failover on every timeline: the new primary may lack the last grants and
    // admit more than the limit (asynchronous replication).
    for (; failoversMarked_ < snapshot.failovers.size(); ++failoversMarked_) {
        const FailoverEvent& f = snapshot.failovers[failoversMarked_];
        for (TimelineChart* chart : std::as_const(timelines_))
            chart->addMarker(double(f.atUs) / 1e6,
                             tr("Sentinel failover: primary %1 → %2").arg(f.from, f.to));
    }
    QStringList lines;
    limiterNames_.clear();
    for (const LimiterSnapshot& l : snapshot.limiters) {
        limiterNames_ << l.spec.name;
        lines << tr("%1: fired %2 = accepted %3 + rejected %4 + errors %5")
                     .arg(l.spec.name)
                     .arg(l.fired)
                     .arg(l.accepted)
                     .arg(l.rejected)
                     .arg(l.errors);
        if (l.errorsOpen > 0 || l.errorsClosed > 0) {
            lines.last() += tr(" (%1 let through, %2 refused by on_error %3)")
                                .arg(l.errorsOpen)
                                .arg(l.errorsClosed)
                                .arg(failurePolicyName(l.spec.onError));
        }
    }
    emit accountingChanged(lines.join(QStringLiteral("   ·   ")));
    if (paused_) {
        snapshotHeld_ = true;
        return;
    }
    drawSnapshot(snapshot);
}

void RunView::drawSnapshot(const RunSnapshot& snapshot) {
    for (int i = 0; i < timelines_.size() && i < snapshot.limiters.size(); ++i) {
        // Every reading that came since (a virtual run's, each at its own run time), in order.
        const QVector<LimiterState> pending = pendingStates_.take(i);
        for (const LimiterState& state : pending) {
            timelines_[i]->updateFrom(snapshot, i, &state);
            latestStates_[i] = state;
        }
        if (!pending.isEmpty())
            continue;
        const auto state = latestStates_.constFind(i);
        timelines_[i]->updateFrom(snapshot, i,
                                  state == latestStates_.cend() ? nullptr : &state.value());
    }
    compare_->updateFrom(snapshot);
    markDisagreements();
}

// "its reference (sliding window log, 10 per 1000 ms)": what a script limiter's timeline marks
// its disagreements against.
QString RunView::referenceLabel(const LimiterSpec& spec) {
    const std::optional<LimiterSpec> reference = referenceSpecOf(spec);
    if (!reference)
        return tr("its reference");
    const AlgorithmView& view = algorithmView(*reference);
    return tr("its reference (%1, %2)").arg(view.title(), view.configText(*reference));
}

// The chosen pair's disagreements on both of its timelines (each names the other); a script
// limiter's with its reference on its own timeline when no pair is chosen for it; the others'
// marks are cleared.
void RunView::markDisagreements() {
    const auto [a, b] = markedPair_;
    for (int i = 0; i < timelines_.size(); ++i) {
        const int other = i == a ? b : i == b ? a : -1;
        const LimiterDisagreement* pair = nullptr;
        for (const LimiterDisagreement& p : last_.disagreements) {
            if (other >= 0 && p.a == std::min(i, other) && p.b == std::max(i, other))
                pair = &p;
        }
        if (pair == nullptr) {
            // A script limiter with a reference: its disagreements with that reference.
            const LimiterSnapshot* limiter =
                i < last_.limiters.size() ? &last_.limiters[i] : nullptr;
            // None yet: no legend entry for marks that are not there (the table says 0).
            const bool any =
                limiter != nullptr && limiter->hasReference &&
                std::any_of(limiter->bucketDisagreed.cbegin(), limiter->bucketDisagreed.cend(),
                            [](qint64 n) { return n > 0; });
            if (any) {
                timelines_[i]->setDisagreements(limiter->bucketDisagreed,
                                                referenceLabel(limiter->spec));
            } else if (!timelines_[i]->model().disagreementOther().isEmpty()) {
                timelines_[i]->setDisagreements({}, QString());
            }
            continue;
        }
        timelines_[i]->setDisagreements(pair->bucketDisagreed,
                                        last_.limiters.value(other).spec.name);
    }
}

// The busiest interval of each limiter, marked on its timeline once the run has finished (the
// snapshot gives ms since the run's start; the timelines draw epoch ms on the run's clock).
void RunView::showAdmittedBursts(const RunSnapshot& snapshot) {
    const auto onTimeline = [&snapshot](const std::vector<BusiestInterval>& bursts) {
        QVector<BusiestInterval> intervals;
        for (BusiestInterval interval : bursts) {
            interval.fromMs += snapshot.startEpochMs;
            interval.firstMs += snapshot.startEpochMs;
            interval.lastMs += snapshot.startEpochMs;
            intervals.push_back(interval);
        }
        return intervals;
    };
    for (int i = 0; i < timelines_.size() && i < snapshot.limiters.size(); ++i) {
        const LimiterSnapshot& limiter = snapshot.limiters[i];
        timelines_[i]->setBusiestIntervals(onTimeline(limiter.admittedBurst),
                                           onTimeline(limiter.admittedBurstRunClock));
    }
}

// A stepped request on each limiter's timeline, at its run time: "request #3: rejected" (numbered
// from 0, as everywhere).
void RunView::markStep(const StepSession::Step& step) {
    if (step.index < 0 || last_.startEpochMs == 0)
        return;
    const double x = double(step.nowMs - last_.startEpochMs) / 1000.0;
    for (int i = 0; i < timelines_.size() && size_t(i) < step.decisions.size(); ++i) {
        const QString outcome = !step.errors.value(i).isEmpty()     ? tr("error")
                                : step.decisions[size_t(i)].allowed ? tr("allowed")
                                                                    : tr("rejected");
        timelines_[i]->addMarker(x, tr("request #%1: %2").arg(step.index).arg(outcome));
    }
}

}  // namespace ratelab
