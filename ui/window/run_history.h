#pragma once

#include <QDateTime>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include "scenario/scenario.h"
#include "stats/run_snapshot.h"

QT_BEGIN_NAMESPACE
class QAction;
class QLabel;
class QTableWidget;
QT_END_NAMESPACE

namespace ratelab {

// One run of this window session: what ran, its final snapshot, when it ended.
struct RunRecord {
    int number = 0;  // 1, 2, … since the window opened
    QDateTime endedAt;
    Scenario scenario;
    RunSnapshot snapshot;  // final: finished, stoppedEarly set when Stop ended it
};

// The "Runs" list: the runs since the window opened, newest first, one line each (number,
// time, scenario, the requests fired, each limiter's accepted/rejected/errors, clock, stopped
// early), with
// the actions on the selected run: save it as an output folder, compare with it (its counts
// over the timelines, its figures in the comparison table), compare with a folder on disk, and
// clear the baseline. The window does the work (signals); this widget keeps the runs.
class RunHistory : public QWidget {
    Q_OBJECT

public:
    // A run's snapshot holds every limiter's counts per bucket (five vectors of 8-byte counts:
    // a one-hour run at 100 ms buckets is 1.4 MB per limiter) and its clients' totals: the
    // last 20 runs stay within tens of MB even for long runs, and cover a session of
    // run-change-run comparisons. The oldest goes first (the baseline keeps its own copy).
    static constexpr int kMaxRuns = 20;

    explicit RunHistory(QWidget* parent = nullptr);

    // Records a finished (or stopped) run; returns its number.
    int add(const Scenario& scenario, const RunSnapshot& snapshot,
            const QDateTime& endedAt = QDateTime::currentDateTime());
    const QVector<RunRecord>& runs() const { return runs_; }  // newest first
    const RunRecord* run(int number) const;                   // null when not (or no longer) kept
    int selectedRun() const;                                  // its number, 0 for none
    void selectRun(int number);
    // The baseline's name as the list shows it ("#3", a folder's name), empty for none.
    void setBaselineLabel(const QString& label);

    // A line under the list (e.g. where a run was saved); empty hides it.
    void showNote(const QString& text);
    QString noteText() const;

    int rowCount() const;
    QStringList rowTexts(int row) const;  // for tests
    // The width at which no cell or header is cut (each column as wide as its texts).
    int preferredWidth() const;
    QString baselineText() const;

    QAction* saveAction() const { return save_; }
    QAction* compareAction() const { return compare_; }
    QAction* compareFolderAction() const { return compareFolder_; }
    QAction* clearBaselineAction() const { return clear_; }

signals:
    void saveRequested(int number);
    void compareRequested(int number);
    void compareFolderRequested();
    void clearBaselineRequested();

private:
    void showRuns();
    void updateActions();

    QVector<RunRecord> runs_;
    int nextNumber_ = 1;
    QString baseline_;
    QTableWidget* table_ = nullptr;
    QLabel* baselineLabel_ = nullptr;
    QLabel* note_ = nullptr;
    QAction* save_ = nullptr;
    QAction* compare_ = nullptr;
    QAction* compareFolder_ = nullptr;
    QAction* clear_ = nullptr;
};

}  // namespace ratelab
