#include "window/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLabel>
#include <QMenuBar>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>

#include "charts/timeline_chart.h"
#include "editors/limiter_editor.h"
#include "editors/traffic_editor.h"
#include "input_error.h"
#include "panels/state_panel.h"
#include "panels/stats_panels.h"
#include "run/run_controller.h"
#include "scenario/example_paths.h"
#include "scenario/run_report.h"
#include "window/connection_bar.h"
#include "window/redisson_watch_view.h"

namespace ratelab {
namespace {

constexpr int kMaxRecent = 8;

Scenario defaultScenario() {
    Scenario s;
    s.name = QStringLiteral("untitled");
    LimiterSpec fixed;
    fixed.type = LimiterType::FixedWindow;
    fixed.name = QStringLiteral("fixed-10-per-s");
    fixed.rate = 10;
    fixed.interval = 1;
    fixed.unit = CalendarUnit::Seconds;
    fixed.timezone = "UTC";
    LimiterSpec sliding;
    sliding.type = LimiterType::SlidingWindow;
    sliding.name = QStringLiteral("sliding-10-per-s");
    sliding.rules = {{10, 1000}};
    LimiterSpec bucket;
    bucket.type = LimiterType::TokenBucket;
    bucket.name = QStringLiteral("bucket-10-per-s");
    bucket.rate = 10;
    bucket.intervalMs = 1000;
    s.limiters = {fixed, sliding, bucket};
    s.traffic.shape.type = ShapeSpec::Type::Poisson;
    s.traffic.shape.rate = 25;
    s.traffic.durationS = 60;
    s.traffic.clients = 4;
    s.traffic.threads = 2;
    return s;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("ratelab"));
    controller_ = new RunController(this);
    buildLayout();
    buildActions();

    connect(connection_, &ConnectionBar::targetReady, this, [this](const RedisUrl& url) {
        controller_->setRedisUrl(url);
        updateEnabled();
    });
    connect(connection_, &ConnectionBar::targetLost, this, [this] { updateEnabled(); });
    connect(limiters_, &LimiterListEditor::validityChanged, this, [this] { updateEnabled(); });
    connect(traffic_, &TrafficEditor::validityChanged, this, [this] { updateEnabled(); });
    connect(limiters_, &LimiterListEditor::specsChanged, this, &MainWindow::onLimitersEdited);

    connect(controller_, &RunController::started, this, [this] {
        banner_->hide();
        updateEnabled();
    });
    connect(controller_, &RunController::snapshotReady, this, &MainWindow::onSnapshot);
    connect(controller_, &RunController::finished, this, [this](const RunSnapshot& s) {
        onSnapshot(s);
        statusBar()->showMessage(tr("Run finished: %1 requests").arg(s.scheduled), 10000);
        updateEnabled();
    });
    connect(controller_, &RunController::failed, this, [this](const QString& message) {
        showError(message);
        updateEnabled();
    });
    connect(controller_, &RunController::stepped, this, [this](const QString& text) {
        stepLabel_->setText(text);
        updateEnabled();
    });
    connect(controller_, &RunController::stateReady, this,
            [this](int i, const LimiterState& state) {
                // Drawn with the next snapshot (20 Hz), not redrawn once more per state.
                latestStates_[i] = state;
            });
    // The key listing is read only while the state tab is shown (setKeyListing below).
    connect(controller_, &RunController::keysReady, this,
            [this](int i, const LimiterState& state) { state_->updateState(i, state); });
    connect(controller_, &RunController::stateFailed, this,
            [this](int i, const QString& message) { state_->showError(i, message); });

    restoreSettings();
    updateEnabled();
    connection_->connectToRedis();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildLayout() {
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    connection_ = new ConnectionBar(central);
    layout->addWidget(connection_);
    banner_ = new QLabel(central);
    banner_->setObjectName(QStringLiteral("errorBanner"));
    banner_->setWordWrap(true);
    banner_->setStyleSheet(QStringLiteral("color: #d62728; padding: 4px;"));
    banner_->hide();
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
    auto* lower = new QSplitter(Qt::Horizontal, compare);
    clients_ = new ClientTable(lower);
    latency_ = new LatencyChart(lower);
    views_->addTab(compare, tr("Comparison"));

    state_ = new StatePanel(views_);
    views_->addTab(state_, tr("Redis state"));
    // Attach to a live Redisson RRateLimiter on the bar's Redis (read-only, its own thread).
    auto* redisson = new RedissonWatchView(views_);
    redisson->setObjectName(QStringLiteral("redissonWatch"));
    views_->addTab(redisson, tr("Redisson limiter"));
    connect(connection_, &ConnectionBar::targetReady, redisson, &RedissonWatchView::setRedisUrl);
    // The key tree costs Redis reads and UI time with many keys: read only while it is shown.
    connect(views_, &QTabWidget::currentChanged, this,
            [this] { controller_->setKeyListing(views_->currentWidget() == state_); });
    layout->addWidget(views_, 1);
    setCentralWidget(central);

    auto* editorsDock = new QDockWidget(tr("Scenario"), this);
    editorsDock->setObjectName(QStringLiteral("scenarioDock"));
    auto* editorTabs = new QTabWidget(editorsDock);
    limiters_ = new LimiterListEditor(editorTabs);
    traffic_ = new TrafficEditor(editorTabs);
    editorTabs->addTab(limiters_, tr("Limiters"));
    editorTabs->addTab(traffic_, tr("Traffic"));
    editorsDock->setWidget(editorTabs);
    addDockWidget(Qt::LeftDockWidgetArea, editorsDock);

    accounting_ = new QLabel(this);
    accounting_->setObjectName(QStringLiteral("accountingLine"));
    stepLabel_ = new QLabel(this);
    stepLabel_->setObjectName(QStringLiteral("stepResult"));
    statusBar()->addWidget(accounting_, 1);
    statusBar()->addPermanentWidget(stepLabel_);
}

void MainWindow::buildActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QToolBar* tools = addToolBar(tr("Run"));
    tools->setObjectName(QStringLiteral("runToolbar"));

    QAction* open = file->addAction(tr("&Open scenario…"), this, [this] {
        const QString start = path_.isEmpty() ? exampleScenarioDirs().value(0) : path_;
        const QString path = QFileDialog::getOpenFileName(this, tr("Open scenario"), start,
                                                          tr("Scenarios (*.json)"));
        if (!path.isEmpty()) {
            openScenario(path);
        }
    });
    open->setShortcut(QKeySequence::Open);
    recent_ = file->addMenu(tr("Open &recent"));
    QAction* save = file->addAction(tr("&Save scenario"), this, [this] {
        QString path = path_;
        if (path.isEmpty()) {
            path = QFileDialog::getSaveFileName(this, tr("Save scenario"), QString(),
                                                tr("Scenarios (*.json)"));
        }
        if (!path.isEmpty()) {
            saveScenario(path);
        }
    });
    save->setShortcut(QKeySequence::Save);
    file->addAction(tr("Save scenario &as…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save scenario as"), path_,
                                                          tr("Scenarios (*.json)"));
        if (!path.isEmpty()) {
            saveScenario(path);
        }
    });
    file->addSeparator();
    file->addAction(tr("Export view as &PNG…"), this, &MainWindow::exportPng);
    file->addAction(tr("Export data as &CSV…"), this, &MainWindow::exportCsv);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    start_ = tools->addAction(tr("Start"), this, [this] {
        const std::optional<Scenario> scenario = currentScenario();
        if (!scenario) {
            return;
        }
        runningSpecs_ = scenario->limiters;
        rebuildTimelines(*scenario, 0);
        controller_->start(*scenario);
        updateEnabled();
    });
    start_->setObjectName(QStringLiteral("start"));
    start_->setShortcut(Qt::Key_F5);
    stop_ = tools->addAction(tr("Stop"), this, [this] { controller_->stop(); });
    stop_->setObjectName(QStringLiteral("stop"));
    stop_->setShortcut(Qt::SHIFT | Qt::Key_F5);
    step_ = tools->addAction(tr("Step"), this, [this] {
        const std::optional<Scenario> scenario = currentScenario();
        if (!scenario) {
            return;
        }
        if (timelines_.size() != scenario->limiters.size()) {
            rebuildTimelines(*scenario, 0);
        }
        controller_->step(*scenario);
    });
    step_->setObjectName(QStringLiteral("step"));
    step_->setShortcut(Qt::Key_F10);
    pause_ = tools->addAction(tr("Pause view"), this, [this](bool checked) {
        viewPaused_ = checked;
        for (TimelineChart* t : timelines_) {
            t->setFollowing(!checked);  // paused: zoom with the wheel, pan by dragging
        }
    });
    pause_->setObjectName(QStringLiteral("pauseView"));
    pause_->setCheckable(true);
    pause_->setShortcut(Qt::Key_F8);
    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addActions({start_, stop_, step_, pause_});
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
    start_->setToolTip(why.isEmpty() ? tr("Start (F5)") : tr("Cannot start: %1").arg(why));
}

void MainWindow::showError(const QString& message) {
    banner_->setText(message);
    banner_->show();
}

QString MainWindow::bannerText() const {
    return banner_->isVisible() ? banner_->text() : QString();
}
QString MainWindow::stepText() const {
    return stepLabel_->text();
}

std::optional<Scenario> MainWindow::currentScenario() const {
    const std::optional<TrafficSpec> traffic = traffic_->traffic();
    if (!limiters_->isValid() || !traffic) {
        return std::nullopt;
    }
    Scenario s;
    s.name = scenarioName_;
    s.limiters = limiters_->specs();
    s.traffic = *traffic;
    s.bucketMs = traffic_->bucketMs();
    return s;
}

void MainWindow::setScenario(const Scenario& scenario) {
    scenarioName_ = scenario.name;
    limiters_->setSpecs(scenario.limiters);
    traffic_->setTraffic(scenario.traffic, scenario.bucketMs);
    rebuildTimelines(scenario, 0);
    setWindowTitle(tr("ratelab — %1").arg(scenario.name));
    updateEnabled();
}

bool MainWindow::openScenario(const QString& path) {
    try {
        setScenario(loadScenarioFile(path));
    } catch (const InputError& e) {
        showError(e.message());
        return false;
    }
    banner_->hide();
    path_ = path;
    addRecent(path);
    return true;
}

bool MainWindow::saveScenario(const QString& path) {
    const std::optional<Scenario> scenario = currentScenario();
    if (!scenario) {
        showError(tr("Cannot save: the scenario has errors"));
        return false;
    }
    // The scenario holds no connection details, so no password can end up in the file.
    QFile file(path);
    const QByteArray json =
        QJsonDocument(scenarioToJson(*scenario)).toJson(QJsonDocument::Indented);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(json) != json.size()) {
        showError(tr("Cannot write %1: %2").arg(path, file.errorString()));
        return false;
    }
    path_ = path;
    addRecent(path);
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    return true;
}

void MainWindow::rebuildTimelines(const Scenario& scenario, qint64 startEpochMs) {
    for (TimelineChart* t : timelines_) {
        t->deleteLater();
    }
    timelines_.clear();
    latestStates_.clear();
    controller_->forgetFinishedRun();
    QStringList names;
    for (const LimiterSpec& spec : scenario.limiters) {
        auto* chart = new TimelineChart(timelineLayout_->parentWidget());
        chart->setMinimumHeight(260);
        chart->setLimiter(spec, scenario.traffic.clients, scenario.bucketMs, startEpochMs);
        chart->setFollowing(!viewPaused_);
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
    for (const LimiterSnapshot& l : snapshot.limiters) {
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
        return;
    }
    for (int i = 0; i < timelines_.size() && i < snapshot.limiters.size(); ++i) {
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
        statusBar()->showMessage(tr("Adding or removing limiters applies to the next run"), 5000);
        return;
    }
    const double now = double(last_.elapsedUs) / 1e6;
    for (int i = 0; i < specs.size(); ++i) {
        if (specs[i] != runningSpecs_[i]) {
            controller_->updateLimiter(i, specs[i]);
            const bool resets = specs[i].type == LimiterType::FixedWindow;
            timelines_[i]->addMarker(
                now, resets ? tr("config changed: counters reset") : tr("config changed"));
            runningSpecs_[i] = specs[i];
        }
    }
}

void MainWindow::exportPng() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export view"), QString(), tr("PNG images (*.png)"));
    if (!path.isEmpty()) {
        exportViewPng(path);
    }
}

void MainWindow::exportCsv() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export data"), QString(), tr("CSV files (*.csv)"));
    if (!path.isEmpty()) {
        exportDataCsv(path);
    }
}

bool MainWindow::exportViewPng(const QString& path) {
    if (!views_->currentWidget()->grab().save(path, "PNG")) {
        showError(tr("Cannot write %1").arg(path));
        return false;
    }
    return true;
}

bool MainWindow::exportDataCsv(const QString& path) {
    QFile file(path);
    const QByteArray csv = bucketsCsv(last_);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(csv) != csv.size()) {
        showError(tr("Cannot write %1: %2").arg(path, file.errorString()));
        return false;
    }
    return true;
}

void MainWindow::addRecent(const QString& path) {
    QSettings settings;
    QStringList files = settings.value(QStringLiteral("recentFiles")).toStringList();
    files.removeAll(path);
    files.prepend(path);
    files = files.mid(0, kMaxRecent);
    settings.setValue(QStringLiteral("recentFiles"), files);
    recent_->clear();
    for (const QString& f : files) {
        recent_->addAction(QFileInfo(f).fileName(), this, [this, f] { openScenario(f); });
    }
}

void MainWindow::restoreSettings() {
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    connection_->setUseManagedServer(
        settings.value(QStringLiteral("redis/managed"), true).toBool());
    connection_->setUrlText(settings.value(QStringLiteral("redis/url")).toString());
    if (settings.value(QStringLiteral("redis/savePassword"), false).toBool()) {
        connection_->setSavePassword(true);
        connection_->setPassword(settings.value(QStringLiteral("redis/password")).toString());
    }
    const QStringList files = settings.value(QStringLiteral("recentFiles")).toStringList();
    for (const QString& f : files) {
        recent_->addAction(QFileInfo(f).fileName(), this, [this, f] { openScenario(f); });
    }
    Scenario scenario = defaultScenario();
    const QByteArray last = settings.value(QStringLiteral("lastScenario")).toByteArray();
    if (!last.isEmpty()) {
        try {
            scenario = parseScenarioJson(last, QString());
        } catch (const InputError&) {
            // An older or damaged saved scenario: start from the default one.
        }
    }
    setScenario(scenario);
}

void MainWindow::saveSettings() {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("redis/managed"), connection_->useManagedServer());
    // The URL is saved with its password masked; the password only if the user asked.
    QString url;
    try {
        RedisUrl parsed = RedisUrl::parse(connection_->urlText().trimmed());
        parsed.password.clear();
        url = parsed.toDisplayString();
    } catch (const InputError&) {
        // not a valid URL: nothing worth keeping (and it might hold a password)
    }
    settings.setValue(QStringLiteral("redis/url"), url);
    settings.setValue(QStringLiteral("redis/savePassword"), connection_->savePassword());
    if (connection_->savePassword()) {
        settings.setValue(QStringLiteral("redis/password"), connection_->password());
    } else {
        settings.remove(QStringLiteral("redis/password"));
    }
    if (const std::optional<Scenario> scenario = currentScenario()) {
        settings.setValue(QStringLiteral("lastScenario"),
                          QJsonDocument(scenarioToJson(*scenario)).toJson(QJsonDocument::Compact));
    }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    saveSettings();
    controller_->stop();
    event->accept();
}

}  // namespace ratelab
