#pragma once

#include <QMainWindow>
#include <QVector>

#include <QMap>

#include "limiters/limiter_state.h"
#include "scenario/scenario.h"
#include "stats/run_snapshot.h"

class QAction;
class QLabel;
class QMenu;
class QTabWidget;
class QVBoxLayout;

namespace ratelab {

class ClientTable;
class ComparisonTable;
class RedisCostView;
class ConnectionBar;
class InlineError;
class LatencyChart;
class LimiterListEditor;
class RedissonWatchView;
class RunController;
class StatePanel;
class TimelineChart;
class TrafficEditor;

// ratelab's window: the connection bar on top, the limiter and traffic editors on the left,
// and the live views in the middle (timelines on a shared time axis, the side-by-side
// comparison with clients and latency, and the limiters' Redis keys). main_window.cpp builds
// the layout and shows runs; main_window_actions.cpp holds the menus and the file actions.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // The scenario the editors stand for (nullopt while any field is invalid).
    std::optional<Scenario> currentScenario() const;
    void setScenario(const Scenario& scenario);
    bool openScenario(const QString& path);  // errors shown in the window's banner
    bool saveScenario(const QString& path);
    // The current view as a PNG, the run's time buckets as CSV (errors shown in the banner).
    bool exportViewPng(const QString& path);
    bool exportDataCsv(const QString& path);

    // For tests and the screenshot demo.
    RunController* controller() const { return controller_; }
    ConnectionBar* connectionBar() const { return connection_; }
    QTabWidget* views() const { return views_; }
    RedissonWatchView* redissonView() const { return redisson_; }
    QAction* startAction() const { return start_; }
    QAction* stepAction() const { return step_; }
    QVector<TimelineChart*> timelines() const { return timelines_; }
    const RunSnapshot& lastSnapshot() const { return last_; }
    QString bannerText() const;
    QString stepText() const;

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildActions();
    void buildLayout();
    void updateEnabled();
    void showError(const QString& message);
    void rebuildTimelines(const Scenario& scenario, qint64 startEpochMs);
    void onSnapshot(const RunSnapshot& snapshot);
    void onLimitersEdited();
    void exportPng();
    void exportCsv();
    void addRecent(const QString& path);
    void restoreSettings();
    void saveSettings();

    RunController* controller_ = nullptr;
    ConnectionBar* connection_ = nullptr;
    LimiterListEditor* limiters_ = nullptr;
    TrafficEditor* traffic_ = nullptr;
    QTabWidget* views_ = nullptr;
    QVBoxLayout* timelineLayout_ = nullptr;
    QVector<TimelineChart*> timelines_;
    ComparisonTable* comparison_ = nullptr;
    RedisCostView* cost_ = nullptr;
    QStringList limiterNames_;  // the latest snapshot's limiters, in the run's order
    ClientTable* clients_ = nullptr;
    LatencyChart* latency_ = nullptr;
    StatePanel* state_ = nullptr;
    RedissonWatchView* redisson_ = nullptr;
    InlineError* banner_ = nullptr;
    QLabel* stepLabel_ = nullptr;
    QLabel* accounting_ = nullptr;
    QAction* start_ = nullptr;
    QAction* stop_ = nullptr;
    QAction* step_ = nullptr;
    QAction* pause_ = nullptr;
    QMenu* recent_ = nullptr;
    QString path_;
    QString scenarioName_ = QStringLiteral("untitled");
    RunSnapshot last_;
    QMap<int, LimiterState> latestStates_;  // the newest state of each limiter, for the charts
    QVector<LimiterSpec> runningSpecs_;
    bool viewPaused_ = false;
    bool snapshotHeld_ = false;  // last_ came while the view was paused: drawn on resume
};

}  // namespace ratelab
