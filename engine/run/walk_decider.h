#pragma once

#include <functional>
#include <optional>
#include <queue>
#include <vector>

#include "run/schedule_walk.h"
#include "traffic/gateway_state.h"
#include "traffic/worker.h"

namespace ratelab {

// Decides the requests of a walk one at a time (ScheduleWalk: `ratelab explain`, the window's
// Step; a trace: `ratelab replay`) as a virtual-time run decides them (traffic/worker.cpp):
// - each gateway with its own state, the run's GatewayState: the limiter of mode local
//   ("<name>@g<g>"), the refusals a cache_refusals gateway remembers, a batched window's counts;
// - every grant of a limiter that holds its grants (the concurrency limiter) releases them at
//   its grant time + its hold (ScheduleWalk::Step::holdMs, the run's own draw), unless it leaks.
// As in the run, a request's pipeline batch (its instant's requests, `batchRequests` at a time)
// starts with every release due at or before its instant (earliest first), and a
// cache_refusals gateway learns a batch's refusals once the batch is decided; with a pipeline
// of 1 every request is a batch of its own. Not thread-safe: one caller.
class WalkDecider {
public:
    // `limiters`: the walk's, by index (not owned; they outlive this), made with one set of
    // options (the gateways' own limiters get them too).
    WalkDecider(std::vector<const Limiter*> limiters, const TrafficSpec& traffic,
                int batchRequests = 1);
    // How many requests the run's pipeline batches take (traffic "pipeline", shared by the
    // scenario's limiters).
    static int batchRequests(const Scenario& scenario);

    // What a release did, per limiter and granted request (its schedule index): released in
    // time, late (its lease had run out), or a grant that never releases (leaked; also a
    // release Redis failed, as the run counts it).
    enum class Release { InTime, Late, Leaked };
    using ReleaseSink = std::function<void(int limiter, qint64 index, Release release)>;
    void setReleaseSink(ReleaseSink sink) { sink_ = std::move(sink); }

    // Starts `step`, before it is decided on any limiter: a new batch makes the releases due by
    // then and lets the gateways learn the last batch's refusals.
    void begin(RedisRouter& router, const ScheduleWalk::Step& step);
    // The limiter step's gateway decides limiter l with (its own in mode local).
    const Limiter& limiter(int l, int gateway) const;
    // The decision the step's gateway makes itself (a cached refusal, a batched window's count;
    // Decision::calledRedis says whether that read Redis), none when Redis decides. Throws
    // RedisError.
    std::optional<Decision> decideLocally(RedisRouter& router, int l,
                                          const ScheduleWalk::Step& step);
    // After limiter l decided the step (`fromRedis`: by its script, not by the gateway): the
    // gateway remembers a refusal, a grant that holds slots schedules its release.
    void decided(int l, const ScheduleWalk::Step& step, const Decision& decision, bool fromRedis);
    // All three: the gateway's own decision, else the script's. Throws RedisError.
    Decision decide(RedisRouter& router, int l, const ScheduleWalk::Step& step);

    // Deletes the keys of the gateways' own limiters (mode local).
    void reset(RedisRouter& router) const { gateways_->reset(router); }
    // The walk's end: batched gateways add the grants they have not added yet.
    void flush(RedisRouter& router);
    // Releases made so far (all limiters).
    qint64 releasesMade() const { return releasesMade_; }

    // A run continues the walk (ScenarioRunner::continueFrom): the grants whose release is still
    // to come, and the gateways' state (with the last batch's refusals learnt). The decider
    // decides nothing more once they are taken.
    std::vector<HeldGrant> takeHeldGrants();
    std::unique_ptr<GatewayState> takeGateways();

private:
    struct Due {
        qint64 runUs;
        qint64 index;
        int limiter;
        int gateway;
        int client;
        qint64 grantRunUs;
        Request grant;  // at the release's now
        bool operator>(const Due& o) const {
            if (runUs != o.runUs) {
                return runUs > o.runUs;
            }
            return index != o.index ? index > o.index : limiter > o.limiter;
        }
    };
    struct Refusal {
        int limiter;
        int gateway;
        Request request;
        Decision decision;
    };
    void releaseUntil(RedisRouter& router, qint64 runUs);
    void learnRefusals();
    void report(int l, qint64 index, Release release) const;

    std::vector<const Limiter*> limiters_;
    const TrafficSpec& traffic_;
    std::unique_ptr<GatewayState> gateways_;
    int batchRequests_;
    std::priority_queue<Due, std::vector<Due>, std::greater<Due>> releases_;
    std::vector<Refusal> refusals_;  // the batch's, for cache_refusals gateways
    qint64 batchRunUs_ = -1;
    int inBatch_ = 0;
    qint64 releasesMade_ = 0;
    ReleaseSink sink_;
};

}  // namespace ratelab
