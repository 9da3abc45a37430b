#pragma once

#include <chrono>
#include <functional>
#include <vector>

#include "limiters/limiter.h"
#include "traffic/decision_batch.h"
#include "traffic/gateway_state.h"

namespace ratelab {

class RedisRouter;

// The one place a request is decided, for runs, sweeps, Step, explain, replay and the bench:
// through its gateway's policy (GatewayState: a node-local limiter "<name>@g<g>", a cached
// refusal, a batched window's own count), else by the limiter's script in Redis, pipelined in a
// DecisionBatch (one per limiter with traffic "round_trips": "per_limiter"), replies parsed by
// the limiter. A limiter with a reference (a script limiter's built-in "reference") has each
// request it sends to Redis decided by its reference too, on the reference's keys, in the same
// round. Once a batch is decided, every cache_refusals gateway remembers the refusals Redis
// gave in it. Not thread-safe: one per thread (GatewayState is shared and locks itself).
class DecisionPath {
public:
    // The limiter in slot `index` now (a run's slots may be swapped by a live edit).
    using Limiters = std::function<const Limiter&(int index)>;

    // `gateways` null: one plain gateway that keeps nothing.
    DecisionPath(Limiters limiters, GatewayState* gateways, bool roundTripPerLimiter = false);

    struct Result {
        bool decided = false;
        Decision decision;                     // when decided
        ErrorCause cause = ErrorCause::Other;  // when not: why
        std::exception_ptr failure;            // when not: the RedisError it failed with
        // The gateway decided it from its own state (Decision::calledRedis says whether that
        // read Redis); false: the script decided.
        bool byGateway = false;
        // A script's decision: when its reply was read on the batch's clock, less the time its
        // round waited for the rounds before it (each limiter's own round trip); the batch's
        // start without a clock. A gateway's: the batch's start.
        qint64 replyTime = 0;
        int node = -1;  // the router's index of the node a script's decision went to; -1 none
        // The limiter's reference decided the same request (in the same round; never for a
        // gateway's own decision), and how.
        bool referenceDecided = false;
        Decision reference;
        // Both decided, and one granted what the other refused.
        bool disagrees() const {
            return decided && referenceDecided && decision.allowed != reference.allowed;
        }
    };

    // Starts a new batch.
    void clear();
    // Adds limiter `limiter`'s decision of `request` through `gateway` (runMs: ms since the
    // run's start, a batched gateway's sync instants): decided now if the gateway decides it,
    // else queued for Redis. Returns its index in the batch.
    std::size_t add(RedisRouter& router, int limiter, int gateway, const Request& request,
                    qint64 runMs);
    // Sends what is queued and reads every reply (`clock` reads the caller's clock when a
    // reply comes back; `startTime` is the batch's start on it; `whileSent`: work to do while
    // Redis runs the first round, e.g. preparing the next batch), then the gateways learn the
    // batch's refusals.
    void run(RedisRouter& router, std::chrono::milliseconds timeout,
             const DecisionBatch::ReplyClock& clock, qint64 startTime,
             const std::function<void()>& whileSent = {});
    std::size_t size() const { return items_.size(); }
    const Result& result(std::size_t i) const { return results_[i]; }
    const Request& request(std::size_t i) const { return items_[i].request; }
    // Round trips the batch made (pipelines sent; a gateway's own reads not counted).
    int roundTrips() const { return roundTrips_; }

    // The limiter `gateway` decides slot `limiter` with (its own in mode local).
    const Limiter& limiter(int limiter, int gateway) const;
    // A grant of `limiter` (the limiter that granted it) releases what it holds: one call of
    // the release script. True when it came late (its lease had run out). Throws RedisError.
    static bool release(RedisRouter& router, const Limiter& limiter, const Request& grant);
    // One decision on its own, outside any run: no gateway. Throws RedisError when it failed.
    // Its deadline is the router's command timeout.
    static Decision decideAlone(RedisRouter& router, const Limiter& limiter,
                                const Request& request);

private:
    struct Item {
        int limiter = 0;
        int gateway = 0;
        Request request;
        int round = -1;  // -1: the gateway decided it
        std::size_t slot = 0;
        std::ptrdiff_t referenceSlot = -1;  // its reference's decision in the round; -1 none
    };

    Limiters limiters_;
    GatewayState* gateways_;
    bool perLimiter_;
    std::vector<Item> items_;
    std::vector<Result> results_;
    std::vector<DecisionBatch> rounds_;  // one, or one per limiter slot
    int roundTrips_ = 0;
};

}  // namespace ratelab
