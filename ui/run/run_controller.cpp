#include "run/run_controller.h"

#include <QDateTime>
#include <QEventLoop>
#include <algorithm>
#include <utility>

#include "live/run_io.h"
#include "run/scenario_runner.h"
#include "run/step_session.h"

namespace ratelab {

RunController::RunController(QObject* parent) : QObject(parent), io_(std::make_unique<RunIo>()) {
    refresh_.setInterval(50);  // 20 Hz
    connect(&refresh_, &QTimer::timeout, this, &RunController::tick);
    connect(io_.get(), &RunIo::stateReady, this, &RunController::stateReady);
    connect(io_.get(), &RunIo::keysReady, this, &RunController::keysReady);
    connect(io_.get(), &RunIo::stateFailed, this, &RunController::stateFailed);
    connect(io_.get(), &RunIo::costReady, this, &RunController::costReady);
    connect(io_.get(), &RunIo::runStarted, this,
            [this](const std::shared_ptr<ScenarioRunner>& runner) {
                runner_ = runner;
                runner_->setPaused(paused_);
                refresh_.start();
                emit started();
            });
    connect(io_.get(), &RunIo::runFailed, this, [this](const QString& message) {
        running_ = false;
        emit failed(message);
    });
    connect(io_.get(), &RunIo::stepped, this,
            [this](const std::shared_ptr<StepSession>& session, const RunSnapshot& snapshot,
                   const StepSession::Step& step) {
                stepping_ = false;
                if (std::exchange(discardStep_, false)) {
                    deleteScratch(*session);  // dropped while it stepped: another scenario's
                    return;
                }
                if (!running_) {
                    stepper_ = session;
                } else {
                    deleteScratch(*session);  // a run started meanwhile reset its keys
                }
                emit snapshotReady(snapshot);
                emit stepped(describeStep(stepNames_, step.index, step.nowMs, step.client,
                                          step.permits, step.decisions, step.errors));
                emit decided(step, stepNames_);
            });
    connect(io_.get(), &RunIo::resetFailed, this, &RunController::failed);
    connect(io_.get(), &RunIo::explained, this, &RunController::explained);
    connect(io_.get(), &RunIo::explainFailed, this, &RunController::explainFailed);
    connect(io_.get(), &RunIo::lessonFramed, this,
            [this](const std::shared_ptr<LessonRun>& run, const LessonFrame& frame,
                   int framesPlayed, qint64 nextTargetUs) {
                lesson_ = run;
                lessonPlayed_ = framesPlayed;
                emit snapshotReady(frame.run);
                emit lessonFramed(frame, nextTargetUs);
            });
    connect(io_.get(), &RunIo::lessonMoved, this, &RunController::snapshotReady);
    connect(io_.get(), &RunIo::lessonRecorded, this, &RunController::lessonRecorded);
    connect(io_.get(), &RunIo::lessonFailed, this, [this](const QString& message) {
        lesson_.reset();  // played again from the start next time
        emit failed(message);
    });
    connect(io_.get(), &RunIo::stepFailed, this, [this](const QString& message) {
        stepping_ = false;
        discardStep_ = false;  // a dropped session's failure still says what failed
        emit failed(message);
    });
}

RunController::~RunController() {
    if (runner_) {
        runner_->requestStop();
    }
    io_.reset();  // ends the I/O thread
    if (runner_) {
        runner_->wait();
    }
}

void RunController::setRedisUrl(const RedisUrl& url) {
    dropSteps();
    lesson_.reset();
    url_ = url;
    io_->setUrl(url);
}

void RunController::explain(const Scenario& scenario, int limiter, qint64 runMs) {
    if (limiter < 0 || limiter >= scenario.limiters.size()) {
        return;
    }
    ExplainTarget target;
    target.atMs = std::max<qint64>(0, runMs);  // below the start: ms since the run's start
    io_->explain(scenario, scenario.limiters[limiter].name, target, url_);
}

void RunController::showLessonFrame(const Lesson& lesson, int frame) {
    if (running_ || stepping_) {
        emit failed(tr("Stop the run first: a lesson decides on the limiters' keys"));
        return;
    }
    dropSteps();  // the lesson resets the keys a step session would go on from
    // Back (a frame played already): a new run, played again from the start up to it.
    io_->lessonFrame(lesson_ && lessonPlayed_ <= frame ? lesson_ : nullptr, lesson, frame, url_);
}

void RunController::approachLesson(qint64 runUs) {
    if (lesson_ && !running_) {
        io_->lessonApproach(lesson_, runUs);
    }
}

void RunController::recordLesson(const Lesson& lesson) {
    if (running_ || stepping_) {
        emit failed(tr("Stop the run first: a lesson decides on the limiters' keys"));
        return;
    }
    lesson_.reset();  // its keys are reset and deleted by the recording
    io_->lessonRecord(lesson, url_);
}

void RunController::dropLesson() {
    lesson_.reset();
}

void RunController::dropSteps() {
    discardStep_ = stepping_;  // a step under way belongs to the dropped session
    if (stepper_) {
        deleteScratch(*stepper_);
    }
    stepper_.reset();
}

void RunController::deleteScratch(const StepSession& session) {
    for (const LimiterSpec& spec : session.scratchLimiters()) {
        io_->resetLimiter(spec, url_);
    }
}

void RunController::setKeyListing(bool on) {
    io_->setKeyListing(on);
}

void RunController::forgetFinishedRun() {
    io_->forgetFinishedRun();
}

qint64 RunController::keyListingReads() const {
    return io_->keyListingReads();
}

void RunController::setRefreshHz(int hz) {
    refresh_.setInterval(1000 / std::clamp(hz, 1, 60));
}

void RunController::start(const Scenario& scenario) {
    if (running_) {
        return;
    }
    running_ = true;
    lesson_.reset();  // the run resets the keys the lesson's run decides on
    continued_ = continuesSteps(scenario);
    if (stepper_) {
        deleteScratch(*stepper_);  // a run explains no decision
    }
    io_->startRun(scenario, url_, continued_ ? std::move(stepper_) : nullptr);
    stepper_.reset();
}

bool RunController::continuesSteps(const Scenario& scenario) const {
    return stepper_ && !stepping_ && !stepper_->scheduleOver() &&
           ScenarioRunner::sameSchedule(stepper_->scenario(), scenario);
}

bool RunController::stepsContinue(const Scenario& scenario) const {
    return stepper_ && ScenarioRunner::sameSchedule(stepper_->scenario(), scenario);
}

qint64 RunController::steppedRequests() const {
    return stepper_ && !stepping_ ? stepper_->sent() : 0;
}

void RunController::stop() {
    if (runner_) {
        runner_->requestStop();
    }
}

void RunController::updateLimiter(int index, const LimiterSpec& spec) {
    if (runner_ && index < runner_->scenario().limiters.size()) {
        runner_->updateLimiter(index, spec);
    }
}

void RunController::deleteLimiterKeys(const LimiterSpec& spec) {
    io_->resetLimiter(spec, url_);
}

void RunController::setPaused(bool paused) {
    paused_ = paused;
    if (runner_) {
        runner_->setPaused(paused);
    }
}

bool RunController::runPaused() const {
    return runner_ && runner_->paused();
}

int RunController::pendingKeyDeletions() const {
    return io_->pendingResets();
}

bool RunController::settle(int timeoutMs) {
    setPaused(false);
    stop();
    QEventLoop loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
    const auto check = [this, &loop] {
        if (!running_ && io_->pendingResets() == 0) {
            loop.quit();
        }
    };
    // finished() is emitted by tick(); its receivers may ask for more deletions, so the check
    // runs after them (queued).
    connect(this, &RunController::finished, &loop, check, Qt::QueuedConnection);
    connect(io_.get(), &RunIo::resetDone, &loop, check, Qt::QueuedConnection);
    connect(this, &RunController::failed, &loop, check, Qt::QueuedConnection);
    connect(this, &RunController::started, &loop, [this] { stop(); });  // was still starting
    if (running_ || io_->pendingResets() > 0) {
        deadline.start(timeoutMs);
        loop.exec();
    }
    return !running_ && io_->pendingResets() == 0;
}

void RunController::tick() {
    if (!runner_) {
        refresh_.stop();
        return;
    }
    const RunSnapshot snapshot = runner_->snapshot();  // atomics only: no Redis
    emit snapshotReady(snapshot);
    if (snapshot.finished) {
        refresh_.stop();
        std::shared_ptr<ScenarioRunner> done = std::move(runner_);
        running_ = false;
        io_->finishRun(std::move(done));
        emit finished(snapshot);
    }
}

void RunController::step(const Scenario& scenario) {
    if (running_ || stepping_) {
        return;
    }
    if (!stepsContinue(scenario)) {
        dropSteps();  // the session stepped another scenario: its steps do not apply
    }
    stepping_ = true;
    lesson_.reset();  // a new step session resets the keys the lesson's run decides on
    stepNames_.clear();
    for (const LimiterSpec& s : scenario.limiters) {
        stepNames_.push_back(s.name);
    }
    io_->step(scenario, url_, stepper_);
}

QString RunController::describeStep(const QStringList& names, qint64 index, qint64 nowMs,
                                    const QString& client, qint64 permits,
                                    const std::vector<Decision>& decisions,
                                    const QStringList& errors) {
    if (index < 0) {
        return tr("The scenario's schedule is over: nothing left to send.");
    }
    QStringList parts;
    for (size_t i = 0; i < decisions.size(); ++i) {
        const Decision& d = decisions[i];
        if (!errors.value(int(i)).isEmpty()) {
            parts << tr("%1: error (%2)").arg(names.value(int(i)), errors[int(i)]);
        } else if (d.allowed) {
            parts << tr("%1: allowed, %2 left").arg(names.value(int(i))).arg(d.remaining);
        } else {
            parts << tr("%1: rejected, retry %2")
                         .arg(names.value(int(i)), d.retryAfterMs < 0
                                                       ? tr("never")
                                                       : tr("after %1 ms").arg(d.retryAfterMs));
        }
    }
    return tr("Request #%1 at %2 from %3 for %4 permit(s) — %5")
        .arg(index)  // from 0, as `ratelab explain --request` numbers it
        .arg(QDateTime::fromMSecsSinceEpoch(nowMs).toString(Qt::ISODateWithMs))
        .arg(client)
        .arg(permits)
        .arg(parts.join(QStringLiteral("; ")));
}

}  // namespace ratelab
