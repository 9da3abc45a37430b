#include "run/run_controller.h"

#include <QElapsedTimer>
#include <QMap>
#include <QMetaObject>
#include <atomic>
#include <mutex>
#include <utility>

#include "redis/redis_error.h"
#include "scenario/scenario_runner.h"
#include "scenario/step_session.h"

namespace ratelab {

// The newest states read on the I/O thread that the UI thread has not taken yet: one per limiter
// and kind, a newer one replacing an older. One delivery is posted at a time.
struct StateMailbox {
    std::mutex mutex;
    QMap<int, LimiterState> charts;
    QMap<int, LimiterState> keys;
    QMap<int, QString> errors;
    bool posted = false;
    std::atomic<qint64> listingReads{0};
};

// Lives on the I/O thread: owns the connection used to read limiter state and polls it.
class IoWorker : public QObject {
public:
    IoWorker(RunController* controller, std::shared_ptr<StateMailbox> mailbox)
        : controller_(controller), mailbox_(std::move(mailbox)) {
        poll_.setInterval(RunController::kStatePollIntervalMs);
        connect(&poll_, &QTimer::timeout, this, [this] { pollState(false); });
    }

    void setUrl(const RedisUrl& url) {
        url_ = url;
        router_.reset();
        finished_.clear();  // its keys were on the other Redis
    }
    void watch(std::shared_ptr<ScenarioRunner> runner, std::shared_ptr<StepSession> stepper) {
        runner_ = std::move(runner);
        stepper_ = std::move(stepper);
        finished_.clear();
        if (!poll_.isActive()) {
            poll_.start();
        }
        pollState(false);
    }
    void stopWatching() {
        poll_.stop();
        // One last read so the panels show the final state; copies of the limiters are kept for
        // a later key listing.
        std::vector<const Limiter*> limiters;
        std::vector<std::unique_ptr<Limiter>> owned;
        finishedNowMs_ = watched(&limiters, &owned);
        pollState(true);
        finished_.clear();
        for (const Limiter* limiter : limiters) {
            finished_.push_back(makeLimiter(limiter->spec()));
        }
        runner_.reset();
        stepper_.reset();
    }
    void forgetFinished() { finished_.clear(); }
    void setListing(bool on) {
        listing_ = on;
        if (!on) {
            return;
        }
        lastListing_.invalidate();
        if (runner_ || stepper_) {
            pollState(true);
        } else if (!finished_.empty()) {
            for (size_t i = 0; i < finished_.size(); ++i) {
                readOne(i, *finished_[i], finishedNowMs_, true);
            }
        }
    }

private:
    // The limiters watched now and their clock: a run's live limiters, or a step session's
    // (rebuilt from its snapshot into `owned`).
    qint64 watched(std::vector<const Limiter*>* limiters,
                   std::vector<std::unique_ptr<Limiter>>* owned) const {
        if (runner_) {
            const qint64 now = runner_->limiterNowMs();
            for (int i = 0; i < runner_->scenario().limiters.size(); ++i) {
                limiters->push_back(&runner_->limiter(i));
            }
            return now;
        }
        if (stepper_) {
            const qint64 now = stepper_->limiterNowMs();
            for (const LimiterSnapshot& l : stepper_->snapshot().limiters) {
                owned->push_back(makeLimiter(l.spec));
                limiters->push_back(owned->back().get());
            }
            return now;
        }
        return 0;
    }

    void pollState(bool forceListing) {
        if (!runner_ && !stepper_) {
            return;
        }
        std::vector<const Limiter*> limiters;
        std::vector<std::unique_ptr<Limiter>> owned;
        const qint64 now = watched(&limiters, &owned);
        // The key listing costs more than the charts' figures: only while shown, at 2 Hz.
        const bool list =
            listing_ && (forceListing || !lastListing_.isValid() ||
                         lastListing_.hasExpired(RunController::kKeyListingIntervalMs));
        if (list) {
            lastListing_.start();
        }
        for (size_t i = 0; i < limiters.size(); ++i) {
            readOne(i, *limiters[i], now, list);
        }
    }

    void readOne(size_t i, const Limiter& limiter, qint64 now, bool list) {
        try {
            if (!router_) {
                router_ = std::make_unique<RedisRouter>(url_);  // reconnects by itself
            }
            RedisConnection& connection = router_->connectionForSlot(limiter.slot());
            LimiterState state = readLimiterChartState(connection, limiter, now);
            if (list) {
                readLimiterKeys(connection, limiter, &state);
                mailbox_->listingReads.fetch_add(1);
            }
            post([&](StateMailbox& m) {
                m.errors.remove(int(i));
                if (list) {
                    m.keys.insert(int(i), state);
                }
                m.charts.insert(int(i), std::move(state));
            });
        } catch (const std::exception& e) {
            if (router_ && router_->isCluster()) {
                try {
                    router_->refreshSlotMap();  // the slot may have moved (MOVED replies)
                } catch (const std::exception&) {
                }
            }
            const QString message = QString::fromStdString(e.what());
            post([&](StateMailbox& m) {
                m.errors.insert(int(i), message);
                m.keys.remove(int(i));  // the error shows until a listing succeeds again
            });
        }
    }

    // Puts a result in the mailbox; posts a delivery to the UI thread unless one is pending.
    template <typename F>
    void post(F&& fill) {
        bool deliver = false;
        {
            std::lock_guard<std::mutex> lock(mailbox_->mutex);
            fill(*mailbox_);
            deliver = !std::exchange(mailbox_->posted, true);
        }
        if (deliver) {
            QMetaObject::invokeMethod(controller_, [c = controller_] { c->deliverStates(); });
        }
    }

    RunController* controller_;
    std::shared_ptr<StateMailbox> mailbox_;
    RedisUrl url_;
    QTimer poll_{this};
    std::unique_ptr<RedisRouter> router_;
    std::shared_ptr<ScenarioRunner> runner_;
    std::shared_ptr<StepSession> stepper_;
    bool listing_ = false;
    QElapsedTimer lastListing_;
    std::vector<std::unique_ptr<Limiter>> finished_;  // the last finished run's limiters
    qint64 finishedNowMs_ = 0;
};

RunController::RunController(QObject* parent) : QObject(parent) {
    ioThread_.setObjectName(QStringLiteral("ratelab-io"));
    mailbox_ = std::make_shared<StateMailbox>();
    io_ = new IoWorker(this, mailbox_);  // owned by the thread: deleteLater when it finishes
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

void RunController::setKeyListing(bool on) {
    QMetaObject::invokeMethod(io_, [io = io_, on] { io->setListing(on); });
}

void RunController::forgetFinishedRun() {
    QMetaObject::invokeMethod(io_, [io = io_] { io->forgetFinished(); });
}

qint64 RunController::keyListingReads() const {
    return mailbox_->listingReads.load();
}

void RunController::deliverStates() {
    QMap<int, LimiterState> charts;
    QMap<int, LimiterState> keys;
    QMap<int, QString> errors;
    {
        std::lock_guard<std::mutex> lock(mailbox_->mutex);
        charts.swap(mailbox_->charts);
        keys.swap(mailbox_->keys);
        errors.swap(mailbox_->errors);
        mailbox_->posted = false;
    }
    for (auto it = errors.cbegin(); it != errors.cend(); ++it) {
        emit stateFailed(it.key(), it.value());
    }
    for (auto it = charts.cbegin(); it != charts.cend(); ++it) {
        emit stateReady(it.key(), it.value());
    }
    for (auto it = keys.cbegin(); it != keys.cend(); ++it) {
        emit keysReady(it.key(), it.value());
    }
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

void RunController::deleteLimiterKeys(const LimiterSpec& spec) {
    QMetaObject::invokeMethod(io_, [this, spec, url = url_] {
        try {
            RedisRouter router(url);
            makeLimiter(spec)->reset(router);
        } catch (const std::exception& e) {
            const QString message = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(this, [this, message] { emit failed(message); });
        }
    });
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
            QMetaObject::invokeMethod(this, [this, session, snapshot, text, step, names] {
                stepper_ = session;
                stepping_ = false;
                emit snapshotReady(snapshot);
                emit stepped(text);
                emit decided(step, names);
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
