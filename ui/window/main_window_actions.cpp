// MainWindow's menus and toolbar, and everything that reads or writes files: scenarios (open,
// save, recent), exports and the settings (main_window.cpp builds the layout and shows runs).

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonDocument>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <utility>

#include "charts/timeline_chart.h"
#include "input_error.h"
#include "panels/redis_cost_view.h"
#include "run/run_controller.h"
#include "scenario/example_paths.h"
#include "scenario/run_report.h"
#include "style/inline_error.h"
#include "window/connection_bar.h"
#include "window/main_window.h"

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
        cost_->clear();
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
        if (!checked && std::exchange(snapshotHeld_, false)) {
            onSnapshot(last_);  // what came while paused (the run may have ended since)
        }
    });
    pause_->setObjectName(QStringLiteral("pauseView"));
    pause_->setCheckable(true);
    pause_->setShortcut(Qt::Key_F8);
    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addActions({start_, stop_, step_, pause_});
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

}  // namespace ratelab
