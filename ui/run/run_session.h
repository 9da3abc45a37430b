#pragma once

#include <QObject>
#include <QString>
#include <QVector>
#include <functional>
#include <optional>

#include "scenario/scenario.h"

namespace ratelab {

class RunController;

// The window's run model, without widgets: which scenario the editors stand for (the loaded
// file's expectations and sweep kept for a save), whether Start, Step and Stop can act and why
// not, Start's "Continue" after Step, starting, stepping and stopping through the RunController,
// the live edits of a running test's limiters (a rename asked first, every change applied,
// marked and reported), and the keys of the limiters the window wrote and then left (a renamed
// limiter, an earlier run's or step session's), deleted once nothing decides on them. The
// window wires its editors and actions to it; tests drive it without a window.
class RunSession : public QObject {
    Q_OBJECT

public:
    // What the editors hold, read whenever the session needs it: a limiter list and a traffic
    // only while valid (else the editor's error, naming the field).
    struct Editors {
        QString name;
        std::optional<QVector<LimiterSpec>> limiters;
        QString limitersError;
        std::optional<TrafficSpec> traffic;
        QString trafficError;
        qint64 bucketMs = 100;
    };
    using EditorsSource = std::function<Editors()>;

    // What the run toolbar shows: which actions can act, why Start cannot (empty when it can),
    // and, after Step on the same scenario, the requests the run would continue from.
    struct Readiness {
        bool canStart = false;
        bool canStep = false;
        bool canStop = false;
        QString blockedBy;     // "Cannot start: …"; empty when ready
        qint64 continues = 0;  // > 0: Start continues the steps, from request #continues
        bool operator==(const Readiness& o) const {
            return canStart == o.canStart && canStep == o.canStep && canStop == o.canStop &&
                   blockedBy == o.blockedBy && continues == o.continues;
        }
        bool operator!=(const Readiness& o) const { return !(*this == o); }
    };

    // What a live edit did to a running limiter's state in Redis (the timeline's marker).
    enum class StateChange { Kept, Reset, Renamed };
    // Asked before a running limiter is renamed (its keys are deleted): true goes ahead.
    using RenameQuestion = std::function<bool(const QString& from, const QString& to)>;

    explicit RunSession(RunController* controller, QObject* parent = nullptr);

    void setEditors(EditorsSource source) { editors_ = std::move(source); }
    void setRenameQuestion(RenameQuestion ask) { askRename_ = std::move(ask); }
    void setConnected(bool connected);

    // A scenario opened (a file, an example, New): its expectations and sweep are kept for a
    // save, and the step session ends (even the same file again steps from its first request).
    void loadScenario(const Scenario& scenario);
    // The scenario the editors stand for, with the loaded file's expectations on limiters that
    // still exist and its sweep while its fields still name them; none while an editor is
    // invalid.
    std::optional<Scenario> currentScenario() const;
    Readiness readiness() const;

    // Start (or Continue after Step), Step, Stop: as the toolbar's actions.
    void start();
    void step();
    void stop();
    // The editors' limiters changed: while a test runs, each changed limiter is applied to it.
    void limitersEdited();
    // The scenario the run under way (or the last one) started from: the run history's.
    const Scenario& runScenario() const { return runScenario_; }
    // The window closes: the limiters it left go, and the step session ends.
    void close();

signals:
    // Readiness may have changed (editors, connection, a run started or ended, a step).
    void readinessChanged();
    // A run or a new step session is about to start: the views show what it will decide
    // (continuesSteps: the run goes on from the steps, whose timelines and decisions stay).
    void runStarting(const ratelab::Scenario& scenario, bool continuesSteps);
    void stepSessionStarting(const ratelab::Scenario& scenario);
    // A running limiter's rename was declined: the editor shows `spec` (the old name) again.
    void renameDeclined(int index, const ratelab::LimiterSpec& spec);
    // A live edit reached the running test: limiter `index` is now `spec`.
    void limiterApplied(int index, const ratelab::LimiterSpec& spec,
                        ratelab::RunSession::StateChange change);
    // Something the user asked for cannot be done (shown in the window's banner).
    void problem(const QString& message);

private:
    void forgetAbandoned();
    void abandonGone(const QVector<LimiterSpec>& before, const QVector<LimiterSpec>& now);

    RunController* controller_;
    EditorsSource editors_;
    RenameQuestion askRename_;
    bool connected_ = false;
    // The loaded scenario's "expect" (no editor for it yet) and "sweep" (the Tune tab's): kept
    // so a save writes them back.
    QVector<Expectation> expectations_;
    SweepSpec sweep_;
    QVector<LimiterSpec> runningSpecs_;
    QVector<LimiterSpec> stepSpecs_;  // the limiters of the current step session
    // Limiters this window wrote to Redis and then left (renamed mid-run, or a step session's
    // limiters the scenario no longer has): their keys are deleted.
    QVector<LimiterSpec> abandoned_;
    Scenario runScenario_;
};

}  // namespace ratelab

Q_DECLARE_METATYPE(ratelab::RunSession::StateChange)
