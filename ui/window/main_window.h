#pragma once

#include <QFont>
#include <QMainWindow>
#include <QVector>
#include <memory>

#include "output/run_baseline.h"
#include "run/run_session.h"
#include "run/run_view.h"
#include "scenario/scenario.h"
#include "stats/run_snapshot.h"
#include "style/app_theme.h"
#include "window/scenario_document.h"

class QAction;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMenu;
class QTabWidget;
class QToolBar;

namespace ratelab {

class ExplanationDialog;
class HuntDialog;

class ComparisonTable;
class ConnectionBar;
class DecisionPanel;
class InlineError;
class LessonDock;
class LimiterListEditor;
class RedissonWatchView;
class RunController;
class RunHistory;
class TimelineChart;
class TrafficEditor;
class TuneView;

// ratelab's window, a shell around its parts: the connection bar on top, the limiter and traffic
// editors on the left, the run view in the middle (RunView: the timelines on one time axis, the
// side-by-side comparison with clients and latency, the limiters' Redis keys; it shows what each
// run reports) with the Redisson tab, the decisions of Step and the run history in docks below.
// The scenario's file, title and modified mark are its ScenarioDocument's; what runs, when Start
// can, starting, stepping and live limiter edits are its RunSession's (ui/run/run_session.h);
// the window wires them to its editors, toolbar and views.
// main_window.cpp builds the layout and handles runs; main_window_actions.cpp the menus, the
// exports and the settings; main_window_history.cpp the run history; presentation_mode.cpp the
// projector look.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // Quitting waits at most this long for a run to stop and abandoned limiters' keys to go.
    static constexpr int kQuitWaitMs = 2000;
    // The most of a narrow window's width the editors dock keeps.
    static constexpr double kEditorsShare = 0.38;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // The scenario the editors stand for (nullopt while any field is invalid).
    std::optional<Scenario> currentScenario() const;
    void setScenario(const Scenario& scenario);
    // The scenario's file, modified flag, title and recent files: the window shows what the
    // document holds (its modified flag is the window's [*] mark, both ways) and asks it.
    ScenarioDocument* document() const { return document_; }
    // The document's open, save and questions (ScenarioDocument); errors in the window's banner.
    bool openScenario(const QString& path);
    bool saveScenario(const QString& path);
    bool save();
    bool saveAs();
    // The current view as a PNG, the run's time buckets as CSV (errors shown in the banner);
    // ".png" and ".csv" are added when the name lacks them. The path written, or empty.
    QString exportViewPng(const QString& path);
    QString exportDataCsv(const QString& path);
    bool maybeKeepChanges();
    QString scenarioPath() const;

    // Presentation mode (View menu, F11 / Ctrl+P, `ratelab --presentation`): larger fonts,
    // thicker chart lines, the editors hidden; one click on the toolbar switches back.
    void setPresentation(bool on);
    bool presentation() const { return presentation_; }
    QAction* presentationAction() const { return presentationAction_; }
    // View → Theme: the system's palette, light or dark, remembered for the next window.
    QAction* themeAction(style::Theme theme) const { return themeActions_[int(theme)]; }

    // Where Save as and the exports ask for a file name (a file dialog unless a test sets it);
    // with an empty filter for an existing folder (an output folder to compare with), with
    // kNewFolder for a folder to write, which may be a new name (Save as output folder).
    using PathChooser = ScenarioDocument::PathChooser;
    static inline const QString kNewFolder = QStringLiteral("<new folder>");
    void setPathChooser(PathChooser chooser) { choosePath_ = std::move(chooser); }

    // For tests and the screenshot demo.
    RunController* controller() const { return controller_; }
    RunSession* session() const { return session_; }
    ConnectionBar* connectionBar() const { return connection_; }
    // The live views (tabs) and what they show: the run view owns the fan-out of each run.
    RunView* runView() const { return runView_; }
    QTabWidget* views() const { return runView_; }
    RedissonWatchView* redissonView() const { return redisson_; }
    TuneView* tuneView() const { return tune_; }
    QAction* startAction() const { return start_; }
    QAction* stepAction() const { return step_; }
    QAction* huntAction() const { return huntAction_; }
    HuntDialog* huntDialog() const { return hunt_; }
    QVector<TimelineChart*> timelines() const { return runView_->timelines(); }
    const RunSnapshot& lastSnapshot() const { return runView_->lastSnapshot(); }
    QString bannerText() const;
    QString stepText() const;
    DecisionPanel* decisions() const { return decisions_; }
    LessonDock* lessons() const { return lessons_; }  // File → Lessons and the lesson dock
    QString startBlockedText() const;  // the reason shown next to Start, empty when it can start

    // The run history and "compare with…" (main_window_history.cpp): the runs of this session
    // in the "Runs" dock; a baseline (a run of it, or an output folder on disk) drawn over the
    // timelines and added to the comparison table, kept for the next runs until cleared.
    RunHistory* runHistory() const { return history_; }
    ComparisonTable* comparison() const { return runView_->comparison(); }
    const RunBaseline* baseline() const { return runView_->baseline(); }
    QDockWidget* runsDock() const { return runsDock_; }
    // Writes run `number`'s output folder (as `ratelab run --out`); errors in the banner.
    bool saveRunFolder(int number, const QString& dir);
    void compareWithRun(int number);
    bool compareWithFolder(const QString& dir);  // errors (not an output folder) in the banner
    void clearBaseline();

signals:
    // A committed limiter edit reached the running test (one per change, not per keystroke).
    void limiterApplied(int index, const ratelab::LimiterSpec& spec);

protected:
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void buildActions();
    void buildLayout();
    void updateEnabled();
    void showError(const QString& message);
    void loadTuned(const Scenario& scenario, bool run);  // a Tune tab combination
    void previewEdits();
    bool confirmRename(const QString& from, const QString& to);
    void buildFileMenu(QMenu* file);
    void showRecentFiles(const QStringList& files);
    void buildHelpMenu();
    void buildThemeMenu(QMenu* view);
    void buildHistory(QMenu* view);
    void recordRun(const RunSnapshot& snapshot);
    void fitBottomDocks();  // the Runs list wide enough beside the step decisions
    void fitEditorsDock();
    void setBaseline(std::shared_ptr<const RunBaseline> baseline);
    void exportPng();
    void exportCsv();
    void restoreSettings();
    void saveSettings();

    RunController* controller_ = nullptr;
    RunSession* session_ = nullptr;  // the run model: what runs, when Start can, live edits
    ConnectionBar* connection_ = nullptr;
    LimiterListEditor* limiters_ = nullptr;
    TrafficEditor* traffic_ = nullptr;
    RunView* runView_ = nullptr;
    ExplanationDialog* explanation_ = nullptr;  // a clicked request explained
    HuntDialog* hunt_ = nullptr;                // Run → Hunt a limiter… (ui/hunt)
    QAction* huntAction_ = nullptr;
    RedissonWatchView* redisson_ = nullptr;
    TuneView* tune_ = nullptr;  // the Tune tab: sweeps of the editors' scenario
    InlineError* banner_ = nullptr;
    QLineEdit* scenarioName_ = nullptr;
    QToolBar* connectionRow_ = nullptr;  // holds connection_
    QDockWidget* editorsDock_ = nullptr;
    QDockWidget* decisionsDock_ = nullptr;
    DecisionPanel* decisions_ = nullptr;
    LessonDock* lessons_ = nullptr;
    QString stepText_;
    QLabel* accounting_ = nullptr;
    QLabel* startReason_ = nullptr;
    QAction* startReasonAction_ = nullptr;  // shows and hides startReason_ in the toolbar
    QAction* start_ = nullptr;
    QAction* stop_ = nullptr;
    QAction* step_ = nullptr;
    QAction* pause_ = nullptr;
    QAction* presentationAction_ = nullptr;
    QAction* themeActions_[3] = {};
    QMenu* recent_ = nullptr;
    ScenarioDocument* document_ = nullptr;
    PathChooser choosePath_;
    bool presentation_ = false;
    QFont normalFont_;
    // The run history: the list, the baseline.
    RunHistory* history_ = nullptr;
    QDockWidget* runsDock_ = nullptr;
    bool runsDockSized_ = false;       // given its height the first time it opens
    bool decisionsDockSized_ = false;  // given its height the first time it opens
};

}  // namespace ratelab
