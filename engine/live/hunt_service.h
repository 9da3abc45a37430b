#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <atomic>
#include <memory>
#include <optional>

#include "hunt/hunt.h"
#include "live/latest_value.h"
#include "live/worker_thread.h"
#include "url/redis_url.h"

namespace ratelab {

class HuntWorker;

// How a hunt in the background ended.
struct HuntOutcome {
    HuntConfig config;
    HuntResult result;
    QString text;            // huntResultText: what `ratelab hunt` prints
    QStringList written;     // the counterexample's files
    QString regressionPath;  // regression.json when written: a scenario to open and Step through
    QString error;           // Redis failed, or a file could not be written; empty when none
};

// `ratelab hunt` for the window: the hunt runs on a thread of its own ("ratelab-hunt"), its
// progress published into a mailbox the dialog takes on its timer, its end posted back as
// finished(). Cancel stops it between two traces or shrinking candidates (what was found by
// then is reported, as after SIGINT). A new start cancels the hunt before it; an older hunt's
// end is dropped.
class HuntService : public QObject {
    Q_OBJECT

public:
    explicit HuntService(QObject* parent = nullptr);
    ~HuntService() override;  // cancels the hunt and waits for it to end

    // Hunts `config` on `url`; a counterexample's files go to `outDir`.
    void start(const HuntConfig& config, const RedisUrl& url, const QString& outDir);
    void cancel();
    bool running() const { return running_; }
    // The newest progress since the last call (none when nothing new).
    std::optional<HuntProgress> takeProgress();

signals:
    void finished(const ratelab::HuntOutcome& outcome);

private:
    void ended(quint64 generation, const HuntOutcome& outcome);

    std::shared_ptr<std::atomic<bool>> stop_;  // the running hunt's
    quint64 generation_ = 0;
    bool running_ = false;
    // Shared with the worker, which may still publish after this service is gone.
    std::shared_ptr<LatestValue<HuntProgress>> progress_;
    quint64 progressSeen_ = 0;
    WorkerThread<HuntWorker> thread_;
};

}  // namespace ratelab
