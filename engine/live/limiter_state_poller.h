#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <functional>
#include <memory>
#include <vector>

#include "limiters/limiter_cost.h"
#include "live/run_cost.h"
#include "live/state_mailbox.h"
#include "url/redis_url.h"

namespace ratelab {

class Limiter;
class RedisRouter;
struct Scenario;
class ScenarioRunner;
class StepSession;

// Lives on RunIo's I/O thread: reads the state of the limiters of a run or a step session and
// puts it in a StateMailbox. Two readers in one: the chart state (what the timelines draw,
// every kChartIntervalMs) and, only while someone shows it (setListing), the key listing (at
// most every kListingIntervalMs). A third, cheaper still: Redis's own cost of the watched
// limiters (LimiterCostReader, every kCostIntervalMs; sampled key memory while watching, every
// element counted once the run is over). `notify` is called when the mailbox turns non-empty.
// A virtual-clock run's chart state is read in run time by its RunTimeSampler, not here: this
// reader then only lists keys and reads the cost (and the final state once it is over). Once a
// run is over its keys go on being listed while someone shows them (their TTLs run on).
class LimiterStatePoller : public QObject {
public:
    static constexpr int kChartIntervalMs = 100;     // 10 Hz
    static constexpr int kListingIntervalMs = 500;   // 2 Hz
    static constexpr int kCostIntervalMs = 1000;     // 1 Hz
    static constexpr int kCostSamples = 5;           // MEMORY USAGE SAMPLES while watching
    static constexpr int kScriptCostRequests = 500;  // a script and its reference apart

    LimiterStatePoller(std::shared_ptr<StateMailbox> mailbox, std::function<void()> notify);
    ~LimiterStatePoller() override;

    void setUrl(const RedisUrl& url);
    // Starts polling the limiters of a run or of a step session (one of them is null).
    void watch(std::shared_ptr<ScenarioRunner> runner, std::shared_ptr<StepSession> stepper);
    // One last read so the panels show the final state; copies of the limiters are kept for a
    // later key listing (until forgetFinished or a new url).
    void stopWatching();
    void forgetFinished();
    // Turning the listing on reads one at once (after a run: the final keys of its limiters).
    void setListing(bool on);

private:
    qint64 watched(std::vector<const Limiter*>* limiters,
                   std::vector<std::unique_ptr<Limiter>>* owned) const;
    void poll(bool forceListing);
    void listFinished(bool chart);
    // `chart` false: for the listing only (a sampled run's charts come from its samples).
    void readOne(size_t index, const Limiter& limiter, qint64 nowMs, bool list, bool chart);
    RedisRouter& router();
    // Each script limiter of `scenario` with a reference, its script and its reference measured
    // apart into `cost` (the limiters as they decide now).
    void measureScripts(const Scenario& scenario, const std::vector<const Limiter*>& limiters,
                        RunCost* cost);
    // One cost reading of `limiters` into the mailbox; a new baseline first when `fresh`. With
    // `scenario` (a run that is over) the script limiters with a reference are measured apart
    // after the reading (kScriptCostRequests of its schedule each).
    void readCost(const std::vector<const Limiter*>& limiters, bool fresh, int samples,
                  const Scenario* scenario = nullptr);

    std::shared_ptr<StateMailbox> mailbox_;
    std::function<void()> notify_;
    RedisUrl url_;
    QTimer timer_{this};
    std::unique_ptr<RedisRouter> router_;      // reconnects by itself
    std::unique_ptr<LimiterCostReader> cost_;  // on router_; its baseline is the watched run's
    const void* costOf_ = nullptr;             // the run or session cost_'s baseline belongs to
    QElapsedTimer lastCost_;
    std::shared_ptr<ScenarioRunner> runner_;
    std::shared_ptr<StepSession> stepper_;
    bool sampled_ = false;  // the watched run is read in run time (a virtual clock)
    bool listing_ = false;
    QElapsedTimer lastListing_;
    std::vector<std::unique_ptr<Limiter>> finished_;  // the last finished run's limiters
    qint64 finishedNowMs_ = 0;
};

}  // namespace ratelab
