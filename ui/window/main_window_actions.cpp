// MainWindow's menus and toolbar, the exports and the settings; the scenario's files (open,
// save, recent) are its ScenarioDocument's (main_window.cpp builds the layout and shows runs).

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>
#include <algorithm>

#include "hunt/hunt_dialog.h"
#include "input_error.h"
#include "lessons/lesson_dock.h"
#include "output/buckets_csv.h"
#include "output/output_folder.h"
#include "run/run_controller.h"
#include "style/inline_error.h"
#include "window/connection_bar.h"
#include "window/decision_panel.h"
#include "window/example_scenarios.h"
#include "window/help_dialogs.h"
#include "window/main_window.h"
#include "window/new_folder_dialog.h"

namespace ratelab {
namespace {

// `path` with `suffix` added unless it already ends in it (case-insensitively).
QString withSuffix(const QString& path, const QString& suffix) {
    return QFileInfo(path).suffix().compare(suffix, Qt::CaseInsensitive) == 0
               ? path
               : path + QLatin1Char('.') + suffix;
}

}  // namespace

void MainWindow::buildFileMenu(QMenu* file) {
    QAction* newScenario =
        file->addAction(tr("&New scenario"), document_, &ScenarioDocument::newScenario);
    newScenario->setShortcut(QKeySequence::New);
    QAction* open =
        file->addAction(tr("&Open scenario…"), document_, &ScenarioDocument::openChosen);
    open->setShortcut(QKeySequence::Open);
    QMenu* examples = file->addMenu(tr("&Examples"));
    examples->setObjectName(QStringLiteral("examplesMenu"));
    for (const QString& path : exampleScenarios()) {
        examples->addAction(QFileInfo(path).completeBaseName(), document_,
                            [this, path] { document_->replaceWith(path); });
    }
    examples->setEnabled(!examples->isEmpty());
    lessons_ = new LessonDock(this);
    tabifyDockWidget(editorsDock_, lessons_);  // a lesson takes the editors' place, a tab away
    lessons_->addMenus(file);
    recent_ = file->addMenu(tr("Open &recent"));
    QAction* saveAction = file->addAction(tr("&Save scenario"), this, [this] { save(); });
    saveAction->setShortcut(QKeySequence::Save);
    QAction* saveAsAction = file->addAction(tr("Save scenario &as…"), this, [this] { saveAs(); });
    // Help lists Ctrl+Shift+S; some platforms bind no key to QKeySequence::SaveAs.
    saveAsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    file->addSeparator();
    file->addAction(tr("Export view as &PNG…"), this, &MainWindow::exportPng);
    file->addAction(tr("Export data as &CSV…"), this, &MainWindow::exportCsv);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
}

void MainWindow::buildThemeMenu(QMenu* view) {
    QMenu* menu = view->addMenu(tr("&Theme"));
    auto* group = new QActionGroup(menu);
    const std::pair<style::Theme, QString> themes[] = {{style::Theme::System, tr("&System")},
                                                       {style::Theme::Light, tr("&Light")},
                                                       {style::Theme::Dark, tr("&Dark")}};
    for (const auto& [theme, text] : themes) {
        QAction* action = menu->addAction(text, this, [theme = theme] {
            style::applyTheme(theme);
            style::saveTheme(theme);
        });
        action->setObjectName(QStringLiteral("theme-") + style::themeKey(theme));
        action->setCheckable(true);
        group->addAction(action);
        themeActions_[int(theme)] = action;
    }
    // The theme the last window chose; System leaves the application's palette alone.
    const style::Theme saved = style::savedTheme();
    themeActions_[int(saved)]->setChecked(true);
    if (saved != style::Theme::System)
        style::applyTheme(saved);
}

void MainWindow::buildHelpMenu() {
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Glossary"), this, [this] {
        showHelpDialog(this, QStringLiteral("glossary"), tr("Glossary"), glossaryHtml());
    });
    help->addAction(tr("&Keyboard shortcuts"), this, [this] {
        showHelpDialog(this, QStringLiteral("shortcuts"), tr("Keyboard shortcuts"),
                       shortcutsHtml());
    });
    help->addAction(tr("&About ratelab"), this, [this] {
        showHelpDialog(this, QStringLiteral("about"), tr("About ratelab"), aboutHtml());
    });
}

void MainWindow::buildActions() {
    choosePath_ = [this](const QString& title, const QString& dir, const QString& filter) {
        if (filter.isEmpty())  // a folder to read: an output folder to compare with
            return QFileDialog::getExistingDirectory(this, title, dir);
        if (filter == kNewFolder)
            return chooseNewFolder(this, title, dir);
        return QFileDialog::getSaveFileName(this, title, dir, filter);
    };
    // Save as asks where the window asks (a test's chooser too).
    document_->setPathChooser(
        [this](const QString& title, const QString& dir, const QString& filter) {
            return choosePath_(title, dir, filter);
        });
    buildFileMenu(menuBar()->addMenu(tr("&File")));
    QToolBar* tools = addToolBar(tr("Run"));
    tools->setObjectName(QStringLiteral("runToolbar"));

    start_ = tools->addAction(tr("Start"), session_, &RunSession::start);
    start_->setObjectName(QStringLiteral("start"));
    start_->setShortcut(Qt::Key_F5);
    stop_ = tools->addAction(tr("Stop"), session_, &RunSession::stop);
    stop_->setObjectName(QStringLiteral("stop"));
    stop_->setShortcut(Qt::SHIFT | Qt::Key_F5);
    step_ = tools->addAction(tr("Step"), session_, &RunSession::step);
    step_->setObjectName(QStringLiteral("step"));
    step_->setShortcut(Qt::Key_F10);
    constexpr int kPauseMessageMs = 8000;  // the tooltip keeps saying it
    pause_ = tools->addAction(tr("Pause"), this, [this](bool checked) {
        // A virtual clock stops with the view; a real one cannot: the run goes on unseen.
        controller_->setPaused(checked);
        const std::optional<Scenario> scenario = currentScenario();
        const bool virtualClock = scenario && scenario->traffic.clock.isVirtual;
        if (checked) {
            statusBar()->showMessage(
                virtualClock ? tr("Paused: the run's virtual clock is stopped; F8 resumes it "
                                  "where it was")
                             : tr("View paused: a real clock cannot stop, the run goes on; F8 "
                                  "shows what came meanwhile"),
                kPauseMessageMs);
        } else {
            statusBar()->clearMessage();
        }
        runView_->setPaused(checked);  // held, zoomed and panned; resumed: the newest drawn
    });
    pause_->setObjectName(QStringLiteral("pauseView"));
    pause_->setToolTip(
        tr("Pause (F8). With a virtual clock the run stops and resumes where it was. With a "
           "real clock only the view is frozen (time cannot stop): the run goes on and the "
           "view catches up on resume."));
    pause_->setCheckable(true);
    pause_->setShortcut(Qt::Key_F8);
    startReason_ = new QLabel(tools);
    startReason_->setObjectName(QStringLiteral("startReason"));
    startReason_->setContentsMargins(8, 0, 8, 0);
    // A toolbar widget is shown and hidden through its action.
    startReasonAction_ = tools->addWidget(startReason_);
    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addActions({start_, stop_, step_, pause_});
    run->addSeparator();
    huntAction_ = run->addAction(tr("&Hunt a limiter…"), this, [this] {
        hunt_->showFor(currentScenario(), connection_->connected()
                                              ? std::optional<RedisUrl>(connection_->currentUrl())
                                              : std::nullopt);
    });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    presentationAction_ = view->addAction(tr("&Presentation mode"), this,
                                          [this](bool checked) { setPresentation(checked); });
    presentationAction_->setObjectName(QStringLiteral("presentation"));
    presentationAction_->setCheckable(true);
    presentationAction_->setShortcuts(
        {QKeySequence(Qt::Key_F11), QKeySequence(Qt::CTRL | Qt::Key_P)});
    presentationAction_->setToolTip(tr("Presentation mode on / off (F11, Ctrl+P)"));
    tools->addSeparator();
    tools->addAction(presentationAction_);
    buildThemeMenu(view);
    view->addAction(editorsDock_->toggleViewAction());
    view->addAction(decisionsDock_->toggleViewAction());
    buildHistory(view);
    tools->addAction(runsDock_->toggleViewAction());  // "Runs": the list opens when asked
    buildHelpMenu();
}

bool MainWindow::openScenario(const QString& path) {
    return document_->open(path);
}

bool MainWindow::saveScenario(const QString& path) {
    return document_->saveTo(path);
}

bool MainWindow::save() {
    return document_->save();
}

bool MainWindow::saveAs() {
    return document_->saveAs();
}

bool MainWindow::maybeKeepChanges() {
    return document_->maybeKeepChanges();
}

QString MainWindow::scenarioPath() const {
    return document_->path();
}

void MainWindow::exportPng() {
    const QString path = choosePath_(tr("Export view"), QString(), tr("PNG images (*.png)"));
    if (!path.isEmpty()) {
        exportViewPng(path);
    }
}

void MainWindow::exportCsv() {
    const QString path = choosePath_(tr("Export data"), QString(), tr("CSV files (*.csv)"));
    if (!path.isEmpty()) {
        exportDataCsv(path);
    }
}

QString MainWindow::exportViewPng(const QString& requested) {
    const QString path = withSuffix(requested, QStringLiteral("png"));
    if (!runView_->currentWidget()->grab().save(path, "PNG")) {
        showError(tr("Cannot write %1").arg(path));
        return QString();
    }
    return path;
}

QString MainWindow::exportDataCsv(const QString& requested) {
    const QString path = withSuffix(requested, QStringLiteral("csv"));
    try {
        writeFileAtomically(path, bucketsCsv(runView_->lastSnapshot()));
    } catch (const InputError& e) {
        showError(tr("Cannot export the data: %1").arg(e.message()));
        return QString();
    }
    return path;
}

void MainWindow::showRecentFiles(const QStringList& files) {
    recent_->clear();
    for (const QString& f : files) {
        recent_->addAction(QFileInfo(f).fileName(), document_,
                           [this, f] { document_->replaceWith(f); });
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
    showRecentFiles(document_->recentFiles());
    // The file the last window had open, read again (title, path and all); without one, the
    // scenario it closed with.
    const QString last = document_->restoredPath();
    if (last.isEmpty() || !document_->open(last))
        setScenario(document_->restoredScenario());
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
    document_->rememberScenario();
}

}  // namespace ratelab
