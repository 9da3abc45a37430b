#include "window/main_window.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>

#include "charts/time_axis.h"
#include "charts/timeline_chart.h"
#include "editors/limiter_list_editor.h"
#include "editors/traffic_editor.h"
#include "panels/client_table.h"
#include "panels/comparison_table.h"
#include "panels/latency_chart.h"
#include "panels/redis_cost_view.h"
#include "panels/state_panel.h"
#include "run/run_controller.h"
#include "style/inline_error.h"
#include "window/connection_bar.h"
#include "window/decision_panel.h"
#include "window/redisson_watch_view.h"

namespace ratelab {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    normalFont_ = font();
    controller_ = new RunController(this);
    timeAxis_ = new TimeAxis(this);
    document_ = new ScenarioDocument(this);
    document_->setSource([this] { return currentScenario(); });
    buildLayout();
    buildActions();
    setWindowTitle(document_->title());
    connect(document_, &ScenarioDocument::modifiedChanged, this, &QWidget::setWindowModified);
    connect(document_, &ScenarioDocument::titleChanged, this, &QWidget::setWindowTitle);
    connect(document_, &ScenarioDocument::loaded, this, &MainWindow::setScenario);
    connect(document_, &ScenarioDocument::opened, banner_, &QWidget::hide);
    connect(document_, &ScenarioDocument::failed, this, &MainWindow::showError);
    connect(document_, &ScenarioDocument::recentFilesChanged, this, &MainWindow::showRecentFiles);

    connect(connection_, &ConnectionBar::targetReady, this, [this](const RedisUrl& url) {
        controller_->setRedisUrl(url);
        updateEnabled();
    });
    connect(connection_, &ConnectionBar::targetLost, this, [this] { updateEnabled(); });
    connect(limiters_, &LimiterListEditor::validityChanged, this, [this] { updateEnabled(); });
    connect(traffic_, &TrafficEditor::validityChanged, this, [this] { updateEnabled(); });
    connect(limiters_, &LimiterListEditor::specsChanged, this, &MainWindow::onLimitersEdited);
    const auto markModified = [this] { document_->setModified(true); };
    connect(limiters_, &LimiterListEditor::specsChanged, this, markModified);
    connect(traffic_, &TrafficEditor::trafficChanged, this, markModified);
    // Start reads "Continue" after Step only while the scenario is the stepped one.
    connect(limiters_, &LimiterListEditor::specsChanged, this, [this] { updateEnabled(); });
    connect(traffic_, &TrafficEditor::trafficChanged, this, [this] { updateEnabled(); });
    connect(scenarioName_, &QLineEdit::textEdited, this, [this](const QString& name) {
        document_->setModified(true);
        document_->setName(name);
    });

    connect(controller_, &RunController::started, this, [this] {
        banner_->hide();
        if (!controller_->continuedSteps())
            decisions_->clear();  // a new run: the old decisions name limiters of another run
        stepText_.clear();
        updateEnabled();
    });
    connect(controller_, &RunController::snapshotReady, this, &MainWindow::onSnapshot);
    connect(controller_, &RunController::finished, this, [this](const RunSnapshot& s) {
        onSnapshot(s);
        showAdmittedBursts(s);
        recordRun(s);
        forgetAbandonedLimiters();  // again: a decision in flight at the rename may have written
        updateEnabled();
    });
    connect(controller_, &RunController::failed, this, [this](const QString& message) {
        showError(message);
        updateEnabled();
    });
    connect(controller_, &RunController::stepped, this, [this](const QString& text) {
        stepText_ = text;
        updateEnabled();
    });
    connect(controller_, &RunController::decided, this,
            [this](const StepSession::Step& step, const QStringList& names) {
                decisions_->addStep(step, names);
                markStep(step);
                if (decisionsDock_->isHidden()) {
                    decisionsDock_->show();
                    fitBottomDocks();
                }
                decisionsDock_->raise();
            });
    connect(controller_, &RunController::stateReady, this,
            [this](int i, const LimiterState& state) {
                // Drawn with the next snapshot (20 Hz), not redrawn once more per state.
                QVector<LimiterState>& pending = pendingStates_[i];
                pending.push_back(state);
                if (pending.size() > kMaxPendingStates)
                    pending.remove(0, pending.size() - kMaxPendingStates);
            });
    // The key listing is read only while the state tab is shown (setKeyListing below).
    connect(controller_, &RunController::keysReady, this,
            [this](int i, const LimiterState& state) { state_->updateState(i, state); });
    connect(controller_, &RunController::stateFailed, this,
            [this](int i, const QString& message) { state_->showError(i, message); });
    connect(controller_, &RunController::costReady, this,
            [this](const RunCost& cost) { cost_->updateCost(cost, limiterNames_); });

    restoreSettings();
    updateEnabled();
    connection_->connectToRedis();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildLayout() {
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    // The connection bar is a row of its own across the whole window (above the editors too),
    // so that its URL and password fields keep some room at 1024 px; the run toolbar goes below.
    connectionRow_ = new QToolBar(tr("Connection"), this);
    connectionRow_->setObjectName(QStringLiteral("connectionToolbar"));
    connectionRow_->setMovable(false);
    connection_ = new ConnectionBar(connectionRow_);
    connection_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    connectionRow_->addWidget(connection_);
    addToolBar(Qt::TopToolBarArea, connectionRow_);
    addToolBarBreak(Qt::TopToolBarArea);
    banner_ = new InlineError(central);
    banner_->setObjectName(QStringLiteral("errorBanner"));
    banner_->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(banner_);

    views_ = new QTabWidget(central);
    views_->setObjectName(QStringLiteral("views"));
    auto* scroll = new QScrollArea(views_);
    scroll->setWidgetResizable(true);
    auto* timelineHost = new QWidget(scroll);
    timelineLayout_ = new QVBoxLayout(timelineHost);
    scroll->setWidget(timelineHost);
    views_->addTab(scroll, tr("Timelines"));

    auto* compare = new QSplitter(Qt::Vertical, views_);
    comparison_ = new ComparisonTable(compare);
    cost_ = new RedisCostView(compare);
    auto* lower = new QSplitter(Qt::Horizontal, compare);
    clients_ = new ClientTable(lower);
    latency_ = new LatencyChart(lower);
    views_->addTab(compare, tr("Comparison"));

    state_ = new StatePanel(views_);
    views_->addTab(state_, tr("Redis state"));
    // Attach to a live Redisson RRateLimiter on the bar's Redis (read-only, its own thread).
    redisson_ = new RedissonWatchView(views_);
    redisson_->setObjectName(QStringLiteral("redissonWatch"));
    views_->addTab(redisson_, tr("Redisson limiter"));
    connect(connection_, &ConnectionBar::targetReady, redisson_, &RedissonWatchView::setRedisUrl);
    // The key tree costs Redis reads and UI time with many keys: read only while it is shown.
    connect(views_, &QTabWidget::currentChanged, this,
            [this] { controller_->setKeyListing(views_->currentWidget() == state_); });
    layout->addWidget(views_, 1);
    setCentralWidget(central);

    editorsDock_ = new QDockWidget(tr("Scenario"), this);
    editorsDock_->setObjectName(QStringLiteral("scenarioDock"));
    auto* editorsHost = new QWidget(editorsDock_);
    auto* editorsLayout = new QVBoxLayout(editorsHost);
    editorsLayout->setContentsMargins(0, 0, 0, 0);
    auto* nameRow = new QFormLayout;
    scenarioName_ = new QLineEdit(editorsHost);
    scenarioName_->setObjectName(QStringLiteral("scenarioName"));
    scenarioName_->setToolTip(tr("The scenario's name, saved in its file and shown in reports"));
    nameRow->addRow(tr("Scenario &name"), scenarioName_);
    editorsLayout->addLayout(nameRow);
    auto* editorTabs = new QTabWidget(editorsHost);
    limiters_ = new LimiterListEditor(editorTabs);
    traffic_ = new TrafficEditor(editorTabs);
    editorTabs->addTab(limiters_, tr("Limiters"));
    editorTabs->addTab(traffic_, tr("Traffic"));
    editorsLayout->addWidget(editorTabs, 1);
    editorsDock_->setWidget(editorsHost);
    addDockWidget(Qt::LeftDockWidgetArea, editorsDock_);

    decisionsDock_ = new QDockWidget(tr("Decisions (Step)"), this);
    decisionsDock_->setObjectName(QStringLiteral("decisionDock"));
    decisions_ = new DecisionPanel(decisionsDock_);
    decisionsDock_->setWidget(decisions_);
    addDockWidget(Qt::BottomDockWidgetArea, decisionsDock_);
    decisionsDock_->hide();  // shown by the first Step

    // The status bar holds only the accounting line: no temporary messages cover it.
    accounting_ = new QLabel(this);
    accounting_->setObjectName(QStringLiteral("accountingLine"));
    accounting_->setWordWrap(true);
    statusBar()->addWidget(accounting_, 1);
}

void MainWindow::updateEnabled() {
    const bool valid = limiters_->isValid() && traffic_->isValid();
    const bool ready = valid && connection_->connected();
    const bool running = controller_->running();
    start_->setEnabled(ready && !running);
    step_->setEnabled(ready && !running);
    stop_->setEnabled(running);
    QString why;
    if (!limiters_->isValid()) {
        why = limiters_->errorText();
    } else if (!traffic_->isValid()) {
        why = traffic_->errorText();
    } else if (!connection_->connected()) {
        why = tr("not connected to Redis");
    }
    const QString reason = why.isEmpty() ? QString() : tr("Cannot start: %1").arg(why);
    // After Step, Start continues the stepped requests unless the scenario changed since.
    const std::optional<Scenario> scenario = ready && !running ? currentScenario() : std::nullopt;
    const qint64 stepped =
        scenario && controller_->continuesSteps(*scenario) ? controller_->steppedRequests() : 0;
    start_->setText(stepped > 0 ? tr("Continue") : tr("Start"));
    start_->setToolTip(!reason.isEmpty() ? reason
                       : stepped > 0
                           ? tr("Continue: the run goes on from request #%1, on the limiters' "
                                "state the steps left, and counts the stepped ones (F5)")
                                 .arg(stepped + 1)
                           : tr("Start (F5)"));
    // Next to the button, not only in its tooltip; elided to fit, the whole text on hover.
    startReason_->setText(startReason_->fontMetrics().elidedText(reason, Qt::ElideRight, 480));
    startReason_->setToolTip(reason);
    startReasonAction_->setVisible(!reason.isEmpty());
}

QString MainWindow::startBlockedText() const {
    return startReasonAction_->isVisible() ? startReason_->toolTip() : QString();
}

void MainWindow::showError(const QString& message) {
    banner_->showMessage(message);
}

QString MainWindow::bannerText() const {
    return banner_->isVisible() ? banner_->text() : QString();
}
QString MainWindow::stepText() const {
    return stepText_;
}

std::optional<Scenario> MainWindow::currentScenario() const {
    const std::optional<TrafficSpec> traffic = traffic_->traffic();
    if (!limiters_->isValid() || !traffic) {
        return std::nullopt;
    }
    Scenario s;
    s.name = scenarioName_->text().trimmed();
    if (s.name.isEmpty())
        s.name = QStringLiteral("untitled");
    s.limiters = limiters_->specs();
    s.traffic = *traffic;
    s.bucketMs = traffic_->bucketMs();
    // Checks on a limiter that is gone (renamed, removed) would make the file unreadable.
    for (const Expectation& e : expectations_) {
        const bool known = e.limiter == QLatin1String("*") ||
                           std::any_of(s.limiters.begin(), s.limiters.end(),
                                       [&](const LimiterSpec& l) { return l.name == e.limiter; });
        if (known) {
            s.expectations.append(e);
        }
    }
    return s;
}

void MainWindow::setScenario(const Scenario& scenario) {
    scenarioName_->setText(scenario.name);
    scenarioName_->setCursorPosition(0);  // a long name shows its start, not its end
    expectations_ = scenario.expectations;
    limiters_->setSpecs(scenario.limiters);
    traffic_->setTraffic(scenario.traffic, scenario.bucketMs);
    rebuildTimelines(scenario, 0);
    decisions_->clear();
    stepText_.clear();
    document_->setName(scenario.name);
    document_->setModified(false);
    updateEnabled();
}

void MainWindow::rebuildTimelines(const Scenario& scenario, qint64 startEpochMs) {
    for (TimelineChart* t : timelines_) {
        t->deleteLater();
    }
    timelines_.clear();
    latestStates_.clear();
    pendingStates_.clear();
    snapshotHeld_ = false;
    controller_->forgetFinishedRun();
    QStringList names;
    for (const LimiterSpec& spec : scenario.limiters) {
        auto* chart = new TimelineChart(timelineLayout_->parentWidget());
        chart->setMinimumHeight(260);
        if (presentation_)
            chart->setPresentation(true);
        chart->setLimiter(spec, scenario.traffic.clients, scenario.bucketMs, startEpochMs);
        chart->setTimeAxis(timeAxis_);  // one time axis: zoom, pan and pause together
        chart->setDurationSeconds(scenario.traffic.durationS);  // the axis before the first data
        chart->setBaseline(baseline_);  // "compare with…" goes on over new runs
        timelineLayout_->addWidget(chart);
        timelines_.push_back(chart);
        names.push_back(spec.name);
    }
    state_->setLimiterNames(names);
}

void MainWindow::onSnapshot(const RunSnapshot& snapshot) {
    const bool restarted = snapshot.startEpochMs != last_.startEpochMs;
    last_ = snapshot;
    if (restarted) {
        for (int i = 0; i < timelines_.size() && i < snapshot.limiters.size(); ++i) {
            timelines_[i]->setLimiter(snapshot.limiters[i].spec,
                                      snapshot.limiters[i].clients.size(), snapshot.bucketMs,
                                      snapshot.startEpochMs);
        }
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
    accounting_->setText(lines.join(QStringLiteral("   ·   ")));
    if (viewPaused_) {
        snapshotHeld_ = true;
        return;
    }
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
    comparison_->updateFrom(snapshot);
    clients_->updateFrom(snapshot);
    latency_->updateFrom(snapshot);
}

void MainWindow::onLimitersEdited() {
    updateEnabled();
    if (!controller_->running() || !limiters_->isValid()) {
        return;
    }
    const QVector<LimiterSpec> specs = limiters_->specs();
    if (specs.size() != runningSpecs_.size()) {
        showError(tr("Adding or removing limiters applies to the next run"));
        return;
    }
    const double now = double(last_.elapsedUs) / 1e6;
    for (int i = 0; i < specs.size(); ++i) {
        LimiterSpec spec = specs[i];
        if (spec == runningSpecs_[i])
            continue;
        const LimiterSpec old = runningSpecs_[i];
        const bool renamed = spec.name != old.name;
        if (renamed && !confirmRename(old.name, spec.name)) {
            spec.name = old.name;  // declined: the other changes still apply
            limiters_->replaceSpec(i, spec);
            if (spec == old)
                continue;
        } else if (renamed) {
            abandoned_.push_back(old);
        }
        controller_->updateLimiter(i, spec);
        if (spec.name != old.name)
            controller_->deleteLimiterKeys(old);
        const bool resets = spec.type == LimiterType::FixedWindow || spec.name != old.name;
        timelines_[i]->addMarker(
            now, resets ? tr("config changed: counters reset") : tr("config changed"));
        runningSpecs_[i] = spec;
        emit limiterApplied(i, spec);
    }
}

bool MainWindow::confirmRename(const QString& from, const QString& to) {
    QMessageBox box(QMessageBox::Question, tr("Rename limiter"),
                    tr("Rename limiter '%1' to '%2'? The new name starts with fresh state in "
                       "Redis; the keys of '%1' are deleted.")
                        .arg(from, to),
                    QMessageBox::Yes | QMessageBox::No, this);
    box.setObjectName(QStringLiteral("confirmRename"));
    box.setDefaultButton(QMessageBox::No);
    return box.exec() == QMessageBox::Yes;
}

// The busiest interval of each limiter, marked on its timeline once the run has finished (the
// snapshot gives ms since the run's start; the timelines draw epoch ms on the run's clock).
void MainWindow::showAdmittedBursts(const RunSnapshot& snapshot) {
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

// A stepped request on each limiter's timeline, at its run time: "step #3: rejected".
void MainWindow::markStep(const StepSession::Step& step) {
    if (step.index < 0 || last_.startEpochMs == 0)
        return;
    const double x = double(step.nowMs - last_.startEpochMs) / 1000.0;
    for (int i = 0; i < timelines_.size() && size_t(i) < step.decisions.size(); ++i) {
        const QString outcome = !step.errors.value(i).isEmpty()     ? tr("error")
                                : step.decisions[size_t(i)].allowed ? tr("allowed")
                                                                    : tr("rejected");
        timelines_[i]->addMarker(x, tr("step #%1: %2").arg(step.index + 1).arg(outcome));
    }
}

// Deletes the keys of the limiters this window created and left behind.
void MainWindow::forgetAbandonedLimiters() {
    for (const LimiterSpec& spec : std::as_const(abandoned_))
        controller_->deleteLimiterKeys(spec);
    abandoned_.clear();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeKeepChanges()) {
        event->ignore();
        return;
    }
    saveSettings();
    forgetAbandonedLimiters();
    // The deletions run on the I/O thread, which ends with the window: wait for them (and for
    // a run to stop, whose end deletes again what a decision in flight wrote), bounded.
    if (controller_->running() || controller_->pendingKeyDeletions() > 0) {
        setEnabled(false);
        statusBar()->showMessage(
            tr("Stopping the run and deleting the keys of the limiters this window "
               "abandoned (at most %1 s)…")
                .arg(kQuitWaitMs / 1000));
        if (!controller_->settle(kQuitWaitMs))
            qWarning("ratelab: quit before every abandoned limiter's keys were deleted");
    }
    event->accept();
}

// The [*] mark and the document's modified flag are one: setWindowModified clears or sets it.
void MainWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::ModifiedChange && document_ != nullptr)
        document_->setModified(isWindowModified());
    QMainWindow::changeEvent(event);
}

}  // namespace ratelab
