#pragma once

#include <functional>
#include <memory>
#include <mutex>

#include "live/state_mailbox.h"
#include "url/redis_url.h"

namespace ratelab {

class RedisRouter;
class ScenarioRunner;

// Where a sampler's "something came" goes: the reader's owner, until it is gone (a sampler
// runs on a run's worker thread and may outlive the RunIo that started the run).
class MailboxNotifier {
public:
    explicit MailboxNotifier(std::function<void()> notify) : notify_(std::move(notify)) {}
    void notify() {
        std::lock_guard<std::mutex> lock(mutex_);
        if (notify_) {
            notify_();
        }
    }
    void disconnect() {
        std::lock_guard<std::mutex> lock(mutex_);
        notify_ = nullptr;
    }

private:
    std::mutex mutex_;
    std::function<void()> notify_;
};

// The state of a virtual-clock run's limiters read in run time: at evenly spaced run times
// (every 1/kSamples of the run, and at 0), on the run's worker thread while its clock is held
// (ScenarioRunner::setStateSampler), so every reading is the state the decisions before it left
// and the next decision has not changed yet, at the limiter time of its instant. With speed 0
// ("as fast as possible"), slow motion or a paused run alike, the timelines then draw the state
// each decision saw. Readings go to the mailbox as samples (in order, none coalesced).
class RunTimeSampler {
public:
    static constexpr int kSamples = 300;

    RunTimeSampler(const ScenarioRunner& runner, RedisUrl url,
                   std::shared_ptr<StateMailbox> mailbox,
                   std::shared_ptr<MailboxNotifier> notifier);
    ~RunTimeSampler();

    // Installs a sampler on `runner` (virtual clocks only; before it starts).
    static void attach(ScenarioRunner& runner, const RedisUrl& url,
                       std::shared_ptr<StateMailbox> mailbox,
                       std::shared_ptr<MailboxNotifier> notifier);

    // Reads every limiter at run time runUs (on the worker thread).
    void sample(qint64 runUs);

private:
    const ScenarioRunner& runner_;
    RedisUrl url_;
    std::shared_ptr<StateMailbox> mailbox_;
    std::shared_ptr<MailboxNotifier> notifier_;
    std::unique_ptr<RedisRouter> router_;  // made on the worker thread, used only there
};

}  // namespace ratelab
