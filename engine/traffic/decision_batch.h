#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <vector>

#include "limiters/limiter.h"
#include "redis/lua_script.h"
#include "redis/redis_router.h"
#include "redis/resp_writer.h"
#include "stats/error_cause.h"

namespace ratelab {

// The request loop of the workers and of the throughput bench: a batch of (limiter, request)
// decisions sent to Redis as one pipeline of EVALSHA calls per node, every node's pipeline
// written before any reply is read, so the nodes work in parallel. One deadline (`timeout`,
// RedisRouter::setDeadline) covers the whole batch: every node, reconnects and retries.
//
// Replies come back in order per node. What must be sent again is, once every pipeline is
// drained, run alone through the router (RedisRouter::runScript): NOSCRIPT (EVAL), a cluster
// redirection (MOVED/ASK/TRYAGAIN), and a fixed window's "retime" answer under time: redis,
// prepared again at Redis's time (Limiter::retimed). No other command is sent.
//
// Each decision ends with a Decision or with the cause of its failure:
//  - not sent (the node cannot be reached, or is backing off): the connection's cause;
//  - sent, then the connection broke or the deadline passed: "unknown outcome" (Redis may have
//    applied it), except on a connection whose server answered "max clients": it ran none of
//    the commands, so every read that fails after that answer is "max clients" too;
//  - answered, but not with a decision: the error reply's cause, or "bad reply".
// Not thread-safe: one batch per thread, with that thread's router.
class DecisionBatch {
public:
    // Reads the caller's clock when a reply comes back (e.g. the run time); empty: untimed.
    using ReplyClock = std::function<qint64()>;

    struct Result {
        bool decided = false;
        Decision decision;                     // when decided
        ErrorCause cause = ErrorCause::Other;  // when not decided: why
        // Decided: when its reply was read (so decisions on one pipeline differ by how long
        // the scripts before them took); failed: when the batch ended. 0 without a clock.
        qint64 replyTime = 0;
        int node = -1;               // the router's index of the node the decision went to; -1 none
        std::exception_ptr failure;  // when not decided: the RedisError it failed with
    };

    // Empties the batch, keeping its buffers.
    void clear();
    // Prepares one decision and adds its EVALSHA to its node's pipeline. A decision whose node
    // the router cannot name (a slot no master serves) fails without being sent.
    void add(RedisRouter& router, const Limiter& limiter, Request request);
    // Sends every node's pipeline, calls `whileSent` (work to do while Redis runs the batch,
    // e.g. preparing the next one), reads every reply and retries what must be retried. After
    // it each decision has its result.
    void run(RedisRouter& router, std::chrono::milliseconds timeout, const ReplyClock& clock = {},
             const std::function<void()>& whileSent = {});

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const Result& result(std::size_t i) const { return items_[i].result; }

private:
    struct Item {
        const Limiter* limiter = nullptr;
        Request request;
        ScriptCall call;
        Result result;  // node -1: never sent (cause says why)
    };
    // One node's share of the batch, formatted as RESP.
    struct Pipeline {
        RespWriter resp;
        std::size_t commands = 0;
        int slot = 0;                           // a slot the node serves, to find its connection
        RedisConnection* connection = nullptr;  // nullptr: not sent (failed says why)
        ErrorCause failed = ErrorCause::Other;
        std::exception_ptr failure;
    };

    void send(RedisRouter& router);
    void readReplies(const ReplyClock& clock);
    void retry(RedisRouter& router, const ReplyClock& clock);
    // Takes a reply that needs no retry: the decision, or the cause of a reply that is none.
    void decide(Item& item, const redisReply* reply);
    // The "retime" answer of time: redis: prepares the request again at Redis's time.
    bool retimed(Item& item, ReplyView reply);

    std::vector<Item> items_;  // the first size_ are this batch's
    std::size_t size_ = 0;
    std::vector<Pipeline> pipelines_;  // by node index
    void failReorderedBy(const Item& ran);

    std::vector<std::size_t> retries_;
    std::vector<std::size_t> noScript_;         // the retries that answered NOSCRIPT
    std::vector<RedisConnection*> turnedAway_;  // answered "max clients"
};

}  // namespace ratelab
