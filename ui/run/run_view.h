#pragma once

#include <QMap>
#include <QStringList>
#include <QTabWidget>
#include <QVector>
#include <memory>

#include "limiters/limiter_state.h"
#include "output/run_baseline.h"
#include "run/step_session.h"
#include "scenario/scenario.h"
#include "stats/run_snapshot.h"

class QVBoxLayout;

namespace ratelab {

class ComparisonTable;
class ComparisonView;
class DisagreementTable;
class RunController;
class StatePanel;
class TimeAxis;
class TimelineChart;

// The window's live views of a run, as tabs: the timelines (one per limiter, all bound to one
// TimeAxis), the comparison (ComparisonView: a chart per measure across the limiters, the
// side-by-side table, Redis's own cost, the clients and the latency) and the limiters' Redis keys.
// It takes what the RunController reports and hands it to every view: each snapshot to the
// timelines and the tables, the limiters' state readings to their timelines (every one, in order)
// and key listings to the state panel, a step's decisions as markers, the admitted bursts once a
// run ends. Paused, it holds the newest snapshot back and draws it on resume. The window adds tabs
// of its own after these.
class RunView : public QTabWidget {
    Q_OBJECT

public:
    // Readings kept per limiter while they wait to be drawn (the view paused, say).
    static constexpr int kMaxPendingStates = 4000;

    explicit RunView(RunController* controller, QWidget* parent = nullptr);

    // New timelines for the scenario's limiters (another scenario, a new run): the axis before
    // the first data, the baseline and the presentation look kept; the state panel lists them.
    void showScenario(const Scenario& scenario);
    // The timelines of an edited scenario before it runs (the limit lines, calendar windows and
    // axis as it will run): showScenario when what they draw differs from what they show.
    void previewScenario(const Scenario& scenario);
    // Paused, the time axis stops following (the wheel zooms, dragging pans) and snapshots wait;
    // resumed, the newest one is drawn.
    void setPaused(bool paused);
    bool paused() const { return paused_; }
    // Presentation mode's thicker lines and larger titles, for new timelines too.
    void setPresentation(bool on);
    // "Compare with…" on the timelines and in the comparison table, kept for the next runs;
    // null clears it.
    void setBaseline(std::shared_ptr<const RunBaseline> baseline);
    const RunBaseline* baseline() const { return baseline_.get(); }
    // A live edit reached limiter `index`: a marker at the newest snapshot's run time.
    // What a live edit did to a limiter's state in Redis.
    enum class StateChange { Kept, Reset, Renamed };
    void markLimiterChange(int index, StateChange change);
    // A run starts: Redis's cost of the previous one goes.
    void clearCost();
    // Another scenario (File → New, Open, an example): the last run's figures go from the
    // comparison and the accounting line (the Runs list keeps the run).
    void forgetRun();

    const RunSnapshot& lastSnapshot() const { return last_; }
    QVector<TimelineChart*> timelines() const { return timelines_; }
    TimeAxis* timeAxis() const { return axis_; }
    ComparisonTable* comparison() const;
    ComparisonView* comparisonView() const { return compare_; }
    DisagreementTable* disagreements() const;

signals:
    // Each snapshot's accounting, one line: per limiter fired = accepted + rejected + errors.
    void accountingChanged(const QString& text);
    // A click on limiter `limiter`'s timeline of a virtual-clock scenario at run time `seconds`.
    void explainRequested(int limiter, double seconds);

private:
    void buildTabs();
    void showSnapshot(const RunSnapshot& snapshot);
    void drawSnapshot(const RunSnapshot& snapshot);
    void queueState(int limiter, const LimiterState& state);
    void showAdmittedBursts(const RunSnapshot& snapshot);
    void markStep(const StepSession::Step& step);
    void markDisagreements();
    static QString referenceLabel(const LimiterSpec& spec);

    RunController* controller_;
    TimeAxis* axis_ = nullptr;
    QVBoxLayout* timelineLayout_ = nullptr;
    QVector<TimelineChart*> timelines_;
    ComparisonView* compare_ = nullptr;
    std::pair<int, int> markedPair_{-1, -1};  // the pair whose disagreements are marked
    StatePanel* state_ = nullptr;
    QStringList limiterNames_;  // the latest snapshot's limiters, in the run's order
    RunSnapshot last_;
    qsizetype failoversMarked_ = 0;         // of last_.failovers, those marked on the timelines
    QMap<int, LimiterState> latestStates_;  // the newest state of each limiter, for the charts
    // States not drawn yet, oldest first: a virtual run's readings in run time, every one drawn.
    QMap<int, QVector<LimiterState>> pendingStates_;
    bool paused_ = false;
    bool snapshotHeld_ = false;  // last_ came while paused: drawn on resume
    bool burstsHeld_ = false;    // the run ended while paused: its bursts marked on resume
    bool presentation_ = false;
    Scenario shown_;  // what the timelines were last set up for (showScenario)
    std::shared_ptr<const RunBaseline> baseline_;
};

}  // namespace ratelab
