#include "window/main_window.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>

#include "editors/limiter_list_editor.h"
#include "editors/traffic_editor.h"
#include "hunt/hunt_dialog.h"
#include "input_error.h"
#include "limiters/algorithm.h"
#include "run/run_controller.h"
#include "style/inline_error.h"
#include "tune/tune_view.h"
#include "window/connection_bar.h"
#include "window/decision_panel.h"
#include "window/explanation_dialog.h"
#include "window/redisson_watch_view.h"
#include "window/wheel_guard.h"

namespace ratelab {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    normalFont_ = font();
    qApp->installEventFilter(new WheelGuard(this));  // the wheel scrolls forms
    controller_ = new RunController(this);
    session_ = new RunSession(controller_, this);
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

    // The run model: the editors stand for the scenario, the connection says whether to run.
    session_->setEditors([this] {
        RunSession::Editors e;
        e.name = scenarioName_->text();
        if (limiters_->isValid()) {
            e.limiters = limiters_->specs();
        }
        e.limitersError = limiters_->errorText();
        e.traffic = traffic_->traffic();
        e.trafficError = traffic_->errorText();
        e.bucketMs = traffic_->bucketMs();
        return e;
    });
    session_->setRenameQuestion(
        [this](const QString& from, const QString& to) { return confirmRename(from, to); });
    connect(session_, &RunSession::readinessChanged, this, &MainWindow::updateEnabled);
    connect(session_, &RunSession::problem, this, &MainWindow::showError);
    connect(session_, &RunSession::runStarting, this,
            [this](const Scenario& scenario, bool continuesSteps) {
                // A run that continues the steps keeps their timelines, marks and decisions.
                if (!continuesSteps)
                    runView_->showScenario(scenario);
                runView_->clearCost();
            });
    connect(session_, &RunSession::stepSessionStarting, this, [this](const Scenario& scenario) {
        // A new step session: the timelines and the decisions show only what it decides (not
        // an earlier run's window counts, nor an earlier session's steps).
        runView_->showScenario(scenario);
        decisions_->clear();
    });
    connect(session_, &RunSession::renameDeclined, limiters_, &LimiterListEditor::replaceSpec);
    connect(session_, &RunSession::limiterApplied, this,
            [this](int index, const LimiterSpec& spec, RunSession::StateChange change) {
                using StateChange = RunView::StateChange;
                runView_->markLimiterChange(
                    index, change == RunSession::StateChange::Renamed ? StateChange::Renamed
                           : change == RunSession::StateChange::Reset ? StateChange::Reset
                                                                      : StateChange::Kept);
                emit limiterApplied(index, spec);
            });
    connect(connection_, &ConnectionBar::targetReady, this, [this](const RedisUrl& url) {
        controller_->setRedisUrl(url);
        session_->setConnected(true);
    });
    connect(connection_, &ConnectionBar::targetLost, this,
            [this] { session_->setConnected(connection_->connected()); });
    connect(limiters_, &LimiterListEditor::validityChanged, this, &MainWindow::updateEnabled);
    // The reason Start is blocked follows the text as typed, not only validity flips.
    connect(limiters_, &LimiterListEditor::errorChanged, this, &MainWindow::updateEnabled);
    connect(traffic_, &TrafficEditor::validityChanged, this, &MainWindow::updateEnabled);
    connect(limiters_, &LimiterListEditor::specsChanged, session_, &RunSession::limitersEdited);
    const auto markModified = [this] { document_->setModified(true); };
    connect(limiters_, &LimiterListEditor::specsChanged, this, markModified);
    connect(traffic_, &TrafficEditor::trafficChanged, this, markModified);
    // Start reads "Continue" after Step only while the scenario is the stepped one.
    connect(traffic_, &TrafficEditor::trafficChanged, this, &MainWindow::updateEnabled);
    // Between runs the timelines show the edited scenario as it will run.
    connect(limiters_, &LimiterListEditor::specsChanged, this, &MainWindow::previewEdits);
    connect(traffic_, &TrafficEditor::trafficChanged, this, &MainWindow::previewEdits);
    connect(scenarioName_, &QLineEdit::textEdited, this, [this](const QString& name) {
        document_->setModified(true);
        document_->setName(name);
    });

    connect(controller_, &RunController::started, this, [this] {
        banner_->hide();
        if (!controller_->continuedSteps())
            decisions_->clear();  // a new run: the old decisions name limiters of another run
        stepText_.clear();
    });
    // The run view draws every snapshot, state and step (connected first, drawn first).
    connect(controller_, &RunController::finished, this,
            [this](const RunSnapshot& s) { recordRun(s); });
    connect(controller_, &RunController::failed, this, &MainWindow::showError);
    connect(controller_, &RunController::stepped, this,
            [this](const QString& text) { stepText_ = text; });
    connect(controller_, &RunController::decided, this,
            [this](const StepSession::Step& step, const QStringList& names) {
                decisions_->addStep(step, names);
                decisionsDock_->show();
                decisionsDock_->raise();
            });

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

    runView_ = new RunView(controller_, central);
    // Attach to a live Redisson RRateLimiter on the bar's Redis (read-only, its own thread).
    redisson_ = new RedissonWatchView(runView_);
    redisson_->setObjectName(QStringLiteral("redissonWatch"));
    runView_->addTab(redisson_, tr("Redisson limiter"));
    connect(connection_, &ConnectionBar::targetReady, redisson_, &RedissonWatchView::setRedisUrl);
    // Sweeps of the editors' scenario on the bar's Redis; a chosen combination comes back.
    tune_ = new TuneView(runView_);
    tune_->setObjectName(QStringLiteral("tuneView"));
    tune_->setScenarioSource([this] { return currentScenario(); });
    runView_->addTab(tune_, tr("Tune"));
    tune_->setScenarioFolder([this] {
        return document_->path().isEmpty() ? QDir::currentPath()
                                           : QFileInfo(document_->path()).absolutePath();
    });
    connect(connection_, &ConnectionBar::targetReady, tune_, [this](const RedisUrl& url) {
        tune_->setRedisUrl(url, !connection_->useManagedServer());
    });
    connect(tune_, &TuneView::combinationChosen, this, &MainWindow::loadTuned);
    // The fields it offers follow the limiters, read when the tab is shown.
    connect(runView_, &QTabWidget::currentChanged, this, [this] {
        if (runView_->currentWidget() == tune_ && !tune_->running()) {
            if (std::optional<Scenario> s = currentScenario()) {
                s->sweep = SweepSpec();
                tune_->setScenario(*s);
            }
        }
    });
    layout->addWidget(runView_, 1);
    setCentralWidget(central);

    editorsDock_ = new QDockWidget(tr("Scenario"), this);
    editorsDock_->setObjectName(QStringLiteral("scenarioDock"));
    // The editors scroll when the window is short, so that the step decisions below can take
    // their share of a 700-pixel window (the editors' least height decided the dock's).
    auto* editorsScroll = new QScrollArea(editorsDock_);
    editorsScroll->setWidgetResizable(true);
    editorsScroll->setFrameShape(QFrame::NoFrame);
    editorsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* editorsHost = new QWidget(editorsScroll);
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
    editorsScroll->setWidget(editorsHost);
    editorsScroll->setMinimumWidth(editorsHost->minimumSizeHint().width() +
                                   editorsScroll->verticalScrollBar()->sizeHint().width());
    editorsDock_->setWidget(editorsScroll);
    addDockWidget(Qt::LeftDockWidgetArea, editorsDock_);

    decisionsDock_ = new QDockWidget(tr("Decisions (Step)"), this);
    decisionsDock_->setObjectName(QStringLiteral("decisionDock"));
    decisions_ = new DecisionPanel(decisionsDock_);
    decisionsDock_->setWidget(decisions_);
    addDockWidget(Qt::BottomDockWidgetArea, decisionsDock_);
    decisionsDock_->hide();  // shown by the first Step
    connect(decisionsDock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (!visible || decisionsDockSized_)
            return;
        decisionsDockSized_ = true;
        // Room for the explanation beside the table, however it was opened (the first Step,
        // View → Decisions): two fifths of the height, once the dock is laid out (a dock just
        // shown keeps its old size).
        QTimer::singleShot(0, this, [this] {
            resizeDocks({decisionsDock_}, {height() * 2 / 5}, Qt::Vertical);
            fitBottomDocks();
        });
    });

    // The status bar holds only the accounting line: no temporary messages cover it.
    accounting_ = new QLabel(this);
    accounting_->setObjectName(QStringLiteral("accountingLine"));
    accounting_->setWordWrap(true);
    statusBar()->addWidget(accounting_, 1);
    connect(runView_, &RunView::accountingChanged, accounting_, &QLabel::setText);

    // Run → Hunt a limiter…: its counterexample opens as the scenario, to Step through.
    hunt_ = new HuntDialog(this);
    connect(hunt_, &HuntDialog::openScenarioRequested, this, &MainWindow::openScenario);

    // A click on a virtual-clock run's timeline: why that request went as it did.
    explanation_ = new ExplanationDialog(this);
    connect(runView_, &RunView::explainRequested, this, [this](int limiter, double seconds) {
        const Scenario& ran = session_->runScenario();
        if (limiter < 0 || limiter >= ran.limiters.size())
            return;
        explanation_->showExplaining(tr("the request of %1 nearest %2 s")
                                         .arg(ran.limiters[limiter].name)
                                         .arg(seconds, 0, 'f', 3));
        controller_->explain(ran, limiter, qRound64(seconds * 1000));
    });
    connect(controller_, &RunController::explained, explanation_,
            &ExplanationDialog::showExplanation);
    connect(controller_, &RunController::explainFailed, explanation_,
            &ExplanationDialog::showProblem);
}

void MainWindow::updateEnabled() {
    const RunSession::Readiness ready = session_->readiness();
    start_->setEnabled(ready.canStart);
    step_->setEnabled(ready.canStep);
    stop_->setEnabled(ready.canStop);
    start_->setText(ready.continues > 0 ? tr("Continue") : tr("Start"));
    start_->setToolTip(!ready.blockedBy.isEmpty() ? ready.blockedBy
                       : ready.continues > 0
                           ? tr("Continue: the run goes on from request #%1, on the limiters' "
                                "state the steps left, and counts the stepped ones (F5)")
                                 .arg(ready.continues)  // requests #0 to #continues-1 were stepped
                           : tr("Start (F5)"));
    // Next to the button, not only in its tooltip; elided to fit, the whole text on hover.
    startReason_->setText(
        startReason_->fontMetrics().elidedText(ready.blockedBy, Qt::ElideRight, 480));
    startReason_->setToolTip(ready.blockedBy);
    startReasonAction_->setVisible(!ready.blockedBy.isEmpty());
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
    return session_->currentScenario();
}

void MainWindow::loadTuned(const Scenario& scenario, bool run) {
    if (controller_->running()) {
        showError(tr("Stop the run first: a sweep's combination replaces the limiters"));
        return;
    }
    limiters_->setSpecs(scenario.limiters);
    document_->setModified(true);
    updateEnabled();
    previewEdits();
    if (run && start_->isEnabled()) {
        runView_->setCurrentIndex(0);
        start_->trigger();
    }
}

void MainWindow::setScenario(const Scenario& scenario) {
    scenarioName_->setText(scenario.name);
    scenarioName_->setCursorPosition(0);  // a long name shows its start, not its end
    tune_->forgetSweep();                 // its combinations are another scenario's
    tune_->setScenario(scenario);
    limiters_->setSpecs(scenario.limiters);
    traffic_->setTraffic(scenario.traffic, scenario.bucketMs);
    runView_->showScenario(scenario);
    if (!controller_->running())
        runView_->forgetRun();  // the status line and the comparison were the last run's
    decisions_->clear();
    stepText_.clear();
    session_->loadScenario(scenario);
    document_->setName(scenario.name);
    document_->setModified(false);
    updateEnabled();
}

void MainWindow::previewEdits() {
    if (controller_->running())
        return;  // a live edit marks its timeline instead (RunSession::limiterApplied)
    if (const std::optional<Scenario> scenario = currentScenario())
        runView_->previewScenario(*scenario);
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

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeKeepChanges()) {
        event->ignore();
        return;
    }
    saveSettings();
    session_->close();
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

void MainWindow::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event);
    fitEditorsDock();
}

// In a narrow window the editors keep at most kEditorsShare of the width (or the least they
// need), so that the charts and tables keep the rest: at 1024 px the comparison's columns read
// whole. A wider window leaves the dock as the user sized it.
void MainWindow::fitEditorsDock() {
    if (editorsDock_ == nullptr || editorsDock_->isHidden() || editorsDock_->isFloating())
        return;
    const int most =
        std::max(editorsDock_->minimumSizeHint().width(), int(double(width()) * kEditorsShare));
    if (editorsDock_->width() > most)
        resizeDocks({editorsDock_}, {most}, Qt::Horizontal);
}

// The [*] mark and the document's modified flag are one: setWindowModified clears or sets it.
void MainWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::ModifiedChange && document_ != nullptr)
        document_->setModified(isWindowModified());
    QMainWindow::changeEvent(event);
}

}  // namespace ratelab
