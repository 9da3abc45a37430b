#include "window/main_window.h"

// The window's run history and "compare with…": every run of this window session in the "Runs"
// dock, each savable as an output folder; a baseline drawn over the timelines and shown in the
// comparison table.

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QMenu>

#include "input_error.h"
#include "report/output_folder.h"
#include "style/inline_error.h"
#include "style/palette_colors.h"
#include "window/run_history.h"

namespace ratelab {
namespace {

constexpr int kRunsDockHeight = 170;  // the actions, the baseline line and about four runs

}  // namespace

void MainWindow::buildHistory(QMenu* view) {
    runsDock_ = new QDockWidget(tr("Runs"), this);
    runsDock_->setObjectName(QStringLiteral("runsDock"));
    runsDock_->setToolTip(
        tr("The runs since the window opened: save one as an output folder, "
           "or compare with it"));
    history_ = new RunHistory(runsDock_);
    runsDock_->setWidget(history_);
    addDockWidget(Qt::BottomDockWidgetArea, runsDock_);
    runsDock_->hide();  // opened when asked (View → Runs, the toolbar's Runs)
    connect(runsDock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (!visible || runsDockSized_)
            return;
        runsDockSized_ = true;
        // A few rows high: the timelines keep most of the height (1024x700 too).
        resizeDocks({runsDock_}, {kRunsDockHeight}, Qt::Vertical);
        fitBottomDocks();
    });
    QAction* toggle = runsDock_->toggleViewAction();
    toggle->setText(tr("&Runs (history, compare with…)"));
    toggle->setIconText(tr("Runs"));  // on the run toolbar
    toggle->setToolTip(
        tr("Show the runs of this session: save one as an output folder or "
           "compare with it"));
    view->addAction(toggle);
    view->addSeparator();
    view->addAction(history_->compareFolderAction());
    view->addAction(history_->clearBaselineAction());

    connect(history_, &RunHistory::saveRequested, this, [this](int number) {
        if (number <= 0)
            return;
        const QString dir =
            choosePath_(tr("Save run #%1 as output folder").arg(number), QString(), kNewFolder);
        if (!dir.isEmpty())
            saveRunFolder(number, dir);
    });
    connect(history_, &RunHistory::compareRequested, this, &MainWindow::compareWithRun);
    connect(history_, &RunHistory::compareFolderRequested, this, [this] {
        const QString dir = choosePath_(tr("Compare with output folder"), QString(), QString());
        if (!dir.isEmpty())
            compareWithFolder(dir);
    });
    connect(history_, &RunHistory::clearBaselineRequested, this, &MainWindow::clearBaseline);
}

void MainWindow::recordRun(const RunSnapshot& snapshot) {
    if (snapshot.limiters.isEmpty())
        return;
    Scenario scenario = session_->runScenario();
    scenario.name = snapshot.scenarioName;
    history_->add(scenario, snapshot);
    fitBottomDocks();
}

void MainWindow::fitBottomDocks() {
    // Side by side with the step decisions, the list gets the width its columns need (at most
    // half the window) instead of the narrow strip a dock added beside another gets.
    if (!runsDock_->isVisible() || !decisionsDock_->isVisible() ||
        dockWidgetArea(runsDock_) != dockWidgetArea(decisionsDock_) ||
        tabifiedDockWidgets(runsDock_).contains(decisionsDock_))
        return;
    // Both sizes given: with one, Qt shares the difference out in proportion.
    const int shared = runsDock_->width() + decisionsDock_->width();
    const int runs = std::min(history_->preferredWidth(), width() / 2);
    if (runsDock_->width() < runs)
        resizeDocks({runsDock_, decisionsDock_}, {runs, shared - runs}, Qt::Horizontal);
}

bool MainWindow::saveRunFolder(int number, const QString& dir) {
    const RunRecord* record = history_->run(number);
    if (record == nullptr) {
        showError(tr("Run #%1 is no longer kept (the last %2 runs are)")
                      .arg(number)
                      .arg(RunHistory::kMaxRuns));
        return false;
    }
    // The reports take the window's look: its theme's, or with the system's palette a dark
    // report.png when that is dark and report.html as the reader's browser prefers.
    page_kit::Scheme scheme =
        style::isDark(QApplication::palette()) ? page_kit::Scheme::Dark : page_kit::Scheme::Auto;
    if (style::currentTheme() == style::Theme::Light)
        scheme = page_kit::Scheme::Light;
    const FolderWrite written = writeOutputFolder(record->snapshot, dir, scheme);
    if (!written.ok()) {
        showError(tr("Cannot save run #%1 as an output folder: %2")
                      .arg(number)
                      .arg(written.failures.join(QStringLiteral("; "))));
        return false;
    }
    history_->showNote(tr("Saved run #%1 to %2").arg(number).arg(QDir::toNativeSeparators(dir)));
    return true;
}

void MainWindow::compareWithRun(int number) {
    const RunRecord* record = history_->run(number);
    if (record == nullptr)
        return;
    setBaseline(std::make_shared<const RunBaseline>(
        baselineFromSnapshot(record->snapshot, QStringLiteral("#%1").arg(number))));
}

bool MainWindow::compareWithFolder(const QString& dir) {
    try {
        setBaseline(std::make_shared<const RunBaseline>(readBaselineFolder(dir)));
    } catch (const InputError& e) {
        showError(tr("Cannot compare with %1: %2").arg(dir, e.message()));
        return false;
    }
    return true;
}

void MainWindow::clearBaseline() {
    setBaseline(nullptr);
}

void MainWindow::setBaseline(std::shared_ptr<const RunBaseline> baseline) {
    history_->setBaselineLabel(baseline ? baseline->label : QString());
    runView_->setBaseline(std::move(baseline));
}

}  // namespace ratelab
