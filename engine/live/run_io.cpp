#include "live/run_io.h"

#include <utility>

#include "limiters/limiter.h"
#include "live/run_time_sampler.h"
#include "redis/redis_router.h"
#include "run/scenario_runner.h"

namespace ratelab {

RunIo::RunIo(QObject* parent)
    : QObject(parent),
      mailbox_(std::make_shared<StateMailbox>()),
      notifier_(std::make_shared<MailboxNotifier>(
          [this] { QMetaObject::invokeMethod(this, [this] { deliverStates(); }); })),
      thread_(QStringLiteral("ratelab-io"), mailbox_,
              [this] { QMetaObject::invokeMethod(this, [this] { deliverStates(); }); }) {}

RunIo::~RunIo() {
    notifier_->disconnect();
}

void RunIo::setUrl(const RedisUrl& url) {
    thread_.post([url](LimiterStatePoller& p) { p.setUrl(url); });
}

void RunIo::setKeyListing(bool on) {
    thread_.post([on](LimiterStatePoller& p) { p.setListing(on); });
}

void RunIo::forgetFinishedRun() {
    thread_.post([](LimiterStatePoller& p) { p.forgetFinished(); });
}

void RunIo::startRun(const Scenario& scenario, const RedisUrl& url,
                     std::shared_ptr<StepSession> steps) {
    ++dropsAsked_;
    thread_.post([this, scenario, url, steps](LimiterStatePoller& p) {
        mailbox_->dropAll();  // before this run's sampler puts anything
        auto runner = std::make_shared<ScenarioRunner>(scenario, url);
        if (steps) {
            runner->continueFrom(*steps);  // steps run on this thread: none is under way
        }
        RunTimeSampler::attach(*runner, url, mailbox_, notifier_);  // virtual clocks
        try {
            runner->start();  // connects and resets the limiters' keys: not on the UI thread
        } catch (const std::exception& e) {
            const QString message = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(this, [this, message] { emit runFailed(message); });
            return;
        }
        p.watch(runner, nullptr);
        QMetaObject::invokeMethod(this, [this, runner] { emit runStarted(runner); });
    });
}

void RunIo::finishRun(std::shared_ptr<ScenarioRunner> runner) {
    thread_.post([runner = std::move(runner)](LimiterStatePoller& p) {
        p.stopWatching();
        runner->wait();
    });
}

void RunIo::step(const Scenario& scenario, const RedisUrl& url,
                 std::shared_ptr<StepSession> session) {
    const bool fresh = !session;
    if (fresh) {
        ++dropsAsked_;
    }
    thread_.post([this, scenario, url, session, fresh](LimiterStatePoller& p) mutable {
        if (fresh) {
            mailbox_->dropAll();
        }
        try {
            if (!session) {
                session = std::make_shared<StepSession>(scenario, url, true);
            }
            const StepSession::Step step = session->next();
            const RunSnapshot snapshot = session->snapshot();
            p.watch(nullptr, session);
            QMetaObject::invokeMethod(
                this, [this, session, snapshot, step] { emit stepped(session, snapshot, step); });
        } catch (const std::exception& e) {
            const QString message = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(this, [this, message] { emit stepFailed(message); });
        }
    });
}

void RunIo::lessonFrame(std::shared_ptr<LessonRun> run, const Lesson& lesson, int frame,
                        const RedisUrl& url) {
    const bool fresh = !run;
    if (fresh) {
        ++dropsAsked_;
    }
    thread_.post([this, run, lesson, frame, url, fresh](LimiterStatePoller& p) mutable {
        if (fresh) {
            mailbox_->dropAll();  // a new session: what the last one read is not its
        }
        try {
            if (!run || run->framesPlayed() > frame) {
                run = std::make_shared<LessonRun>(lesson, url);  // Back: played again to it
            }
            while (run->framesPlayed() < frame) {
                run->next();
            }
            const LessonFrame shown = run->next();
            const int played = run->framesPlayed();
            const qint64 target = run->done() ? -1 : run->nextTargetUs();
            p.watch(nullptr, run->session());
            QMetaObject::invokeMethod(this, [this, run, shown, played, target] {
                emit lessonFramed(run, shown, played, target);
            });
        } catch (const std::exception& e) {
            const QString message = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(this, [this, message] { emit lessonFailed(message); });
        }
    });
}

void RunIo::lessonApproach(std::shared_ptr<LessonRun> run, qint64 runUs) {
    thread_.post([this, run, runUs](LimiterStatePoller&) {
        try {
            run->approach(runUs);
            const RunSnapshot snapshot = run->snapshot();
            QMetaObject::invokeMethod(this, [this, snapshot] { emit lessonMoved(snapshot); });
        } catch (const std::exception& e) {
            const QString message = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(this, [this, message] { emit lessonFailed(message); });
        }
    });
}

void RunIo::lessonRecord(const Lesson& lesson, const RedisUrl& url) {
    thread_.post([this, lesson, url](LimiterStatePoller& p) {
        try {
            p.watch(nullptr, nullptr);  // the keys go at the end: nothing to read meanwhile
            const QVector<LessonFrame> frames = playLesson(lesson, url);
            QMetaObject::invokeMethod(this, [this, frames] { emit lessonRecorded(frames); });
        } catch (const std::exception& e) {
            const QString message = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(this, [this, message] { emit lessonFailed(message); });
        }
    });
}

void RunIo::explain(const Scenario& scenario, const QString& limiter, const ExplainTarget& target,
                    const RedisUrl& url) {
    thread_.post([this, scenario, limiter, target, url](LimiterStatePoller&) {
        try {
            RedisRouter router(url);
            const Explanation e = explainDecision(scenario, limiter, target, router);
            QMetaObject::invokeMethod(this, [this, e] { emit explained(e); });
        } catch (const std::exception& e) {
            const QString message = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(this, [this, message] { emit explainFailed(message); });
        }
    });
}

void RunIo::resetLimiter(const LimiterSpec& spec, const RedisUrl& url) {
    ++pendingResets_;
    thread_.post([this, spec, url](LimiterStatePoller&) {
        QString message;
        try {
            RedisRouter router(url);
            makeLimiter(spec)->reset(router);
        } catch (const std::exception& e) {
            message = QString::fromStdString(e.what());
        }
        QMetaObject::invokeMethod(this, [this, message] {
            --pendingResets_;
            if (!message.isEmpty()) {
                emit resetFailed(message);
            }
            emit resetDone();
        });
    });
}

void RunIo::deliverStates() {
    const StateMailbox::Contents contents = mailbox_->take();
    if (contents.generation < dropsAsked_) {
        return;  // the last run's or session's, taken before the new one's job dropped it
    }
    for (auto it = contents.errors.cbegin(); it != contents.errors.cend(); ++it) {
        emit stateFailed(it.key(), it.value());
    }
    for (auto it = contents.samples.cbegin(); it != contents.samples.cend(); ++it) {
        for (const LimiterState& state : it.value()) {
            emit stateReady(it.key(), state);
        }
    }
    for (auto it = contents.charts.cbegin(); it != contents.charts.cend(); ++it) {
        emit stateReady(it.key(), it.value());
    }
    for (auto it = contents.keys.cbegin(); it != contents.keys.cend(); ++it) {
        emit keysReady(it.key(), it.value());
    }
    if (contents.hasCost) {
        emit costReady(contents.cost);
    }
}

}  // namespace ratelab
