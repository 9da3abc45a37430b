#include "run/run_controller.h"

#include <QMetaObject>

#include "redis/redis_error.h"
#include "scenario/scenario_runner.h"
#include "scenario/step_session.h"

namespace ratelab {

// Lives on the I/O thread: owns the connection used to read limiter state and polls it.
class IoWorker : public QObject {
public:
    explicit IoWorker(RunController* controller) : controller_(controller) {
        poll_.setInterval(100);  // 10 Hz
        connect(&poll_, &QTimer::timeout, this, [this] { pollState(); });
    }

    void setUrl(const RedisUrl& url) {
        url_ = url;
        router_.reset();
    }
    void watch(std::shared_ptr<ScenarioRunner> runner, std::shared_ptr<StepSession> stepper) {
        runner_ = std::move(runner);
        stepper_ = std::move(stepper);
        if (!poll_.isActive()) {
            poll_.start();
        }
        pollState();
    }
    void stopWatching() {
        poll_.stop();
        pollState();  // one last read so the panels show the final state
        runner_.reset();
        stepper_.reset();
    }

private:
    void pollState() {
        const Scenario* scenario = nullptr;
        qint64 now = 0;
        std::vector<const Limiter*> limiters;
        std::vector<std::unique_ptr<Limiter>> owned;
        if (runner_) {
            scenario = &runner_->scenario();
            now = runner_->limiterNowMs();
            for (int i = 0; i < scenario->limiters.size(); ++i) {
                limiters.push_back(&runner_->limiter(i));
            }
        } else if (stepper_) {
            now = stepper_->limiterNowMs();
            const RunSnapshot s = stepper_->snapshot();
            for (const LimiterSnapshot& l : s.limiters) {
                owned.push_back(makeLimiter(l.spec));
                limiters.push_back(owned.back().get());
            }
        } else {
            return;
        }
        for (size_t i = 0; i < limiters.size(); ++i) {
            try {
                if (!router_) {
                    router_ = std::make_unique<RedisRouter>(url_);  // reconnects by itself
                }
                LimiterState state = readLimiterState(
                    router_->connectionForSlot(limiters[i]->slot()), *limiters[i], now);
                QMetaObject::invokeMethod(controller_, [c = controller_, i, state] {
                    emit c->stateReady(int(i), state);
                });
            } catch (const std::exception& e) {
                if (router_ && router_->isCluster()) {
                    try {
                        router_->refreshSlotMap();  // the slot may have moved (MOVED replies)
                    } catch (const std::exception&) {
                    }
                }
                const QString message = QString::fromStdString(e.what());
                QMetaObject::invokeMethod(controller_, [c = controller_, i, message] {
                    emit c->stateFailed(int(i), message);
                });
            }
        }
    }

    RunController* controller_;
    RedisUrl url_;
    QTimer poll_{this};
    std::unique_ptr<RedisRouter> router_;
    std::shared_ptr<ScenarioRunner> runner_;
    std::shared_ptr<StepSession> stepper_;
};

RunController::RunController(QObject* parent) : QObject(parent) {
    ioThread_.setObjectName(QStringLiteral("ratelab-io"));
    io_ = new IoWorker(this);  // owned by the thread: deleteLater when it finishes
    io_->moveToThread(&ioThread_);
    connect(&ioThread_, &QThread::finished, io_, &QObject::deleteLater);
    ioThread_.start();
    refresh_.setInterval(50);  // 20 Hz
    connect(&refresh_, &QTimer::timeout, this, &RunController::tick);
}

RunController::~RunController() {
    if (runner_) {
        runner_->requestStop();
    }
    ioThread_.quit();
    ioThread_.wait();
    if (runner_) {
        runner_->wait();
    }
}

void RunController::setRedisUrl(const RedisUrl& url) {
    url_ = url;
    stepper_.reset();
    QMetaObject::invokeMethod(io_, [io = io_, url] { io->setUrl(url); });
}

void RunController::setRefreshHz(int hz) {
    refresh_.setInterval(1000 / std::clamp(hz, 1, 60));
}

void RunController::start(const Scenario& scenario) {
    if (running_) {
        return;
    }
    running_ = true;
    stepper_.reset();
    const RedisUrl url = url_;
    QMetaObject::invokeMethod(io_, [this, io = io_, scenario, url] {
        auto runner = std::make_shared<ScenarioRunner>(scenario, url);
        try {
            runner->start();  // connects and resets the limiters' keys: not on the UI thread
        } catch (const std::exception& e) {
            const QString message = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(this, [this, message] {
                running_ = false;
                emit failed(message);
            });
            return;
        }
        io->watch(runner, nullptr);
        QMetaObject::invokeMethod(this, [this, runner] {
            runner_ = runner;
            refresh_.start();
            emit started();
        });
    });
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
        QMetaObject::invokeMethod(io_, [io = io_, done] {
            io->stopWatching();
            done->wait();
        });
        emit finished(snapshot);
    }
}

void RunController::step(const Scenario& scenario) {
    if (running_ || stepping_) {
        return;
    }
    stepping_ = true;
    std::shared_ptr<StepSession> session = stepper_;
    const RedisUrl url = url_;
    QMetaObject::invokeMethod(io_, [this, io = io_, scenario, url, session]() mutable {
        QStringList names;
        for (const LimiterSpec& s : scenario.limiters) {
            names.push_back(s.name);
        }
        try {
            if (!session) {
                session = std::make_shared<StepSession>(scenario, url);
            }
            const StepSession::Step step = session->next();
            const RunSnapshot snapshot = session->snapshot();
            const QString text = describeStep(names, step.index, step.nowMs, step.client,
                                              step.permits, step.decisions, step.errors);
            io->watch(nullptr, session);
            QMetaObject::invokeMethod(this, [this, session, snapshot, text] {
                stepper_ = session;
                stepping_ = false;
                emit snapshotReady(snapshot);
                emit stepped(text);
            });
        } catch (const std::exception& e) {
            const QString message = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(this, [this, message] {
                stepping_ = false;
                emit failed(message);
            });
        }
    });
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
        .arg(index + 1)
        .arg(QDateTime::fromMSecsSinceEpoch(nowMs).toString(Qt::ISODateWithMs))
        .arg(client)
        .arg(permits)
        .arg(parts.join(QStringLiteral("; ")));
}

}  // namespace ratelab
