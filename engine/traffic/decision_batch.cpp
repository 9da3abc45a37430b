#include "traffic/decision_batch.h"

#include <algorithm>
#include <optional>

#include "redis/redis_error.h"
#include "traffic/redis_error_cause.h"

namespace ratelab {
namespace {

// The cause of a decision whose reply came back but is not a decision.
ErrorCause causeOfReply(const redisReply* reply) {
    if (reply != nullptr && reply->type == REDIS_REPLY_ERROR) {
        return errorCauseOfReply(std::string_view(reply->str, reply->len));
    }
    return ErrorCause::BadReply;
}

// The cause of a RedisError met after the command may have gone out: a connection that broke
// (or a deadline that passed) leaves its outcome unknown.
ErrorCause causeAfterSending(const RedisError& e) {
    return e.kind() == RedisError::Kind::Connect || !e.connectionBroken()
               ? errorCauseOf(e)
               : ErrorCause::UnknownOutcome;
}

// Clears the router's batch deadline however the batch ends.
struct BatchDeadline {
    BatchDeadline(RedisRouter& router, std::chrono::milliseconds timeout) : router_(router) {
        router_.setDeadline(std::chrono::steady_clock::now() + timeout);
    }
    ~BatchDeadline() { router_.clearDeadline(); }
    BatchDeadline(const BatchDeadline&) = delete;
    BatchDeadline& operator=(const BatchDeadline&) = delete;
    RedisRouter& router_;
};

}  // namespace

void DecisionBatch::clear() {
    size_ = 0;  // the items stay, to be overwritten: no Decision is cleared per request
    for (Pipeline& pipeline : pipelines_) {
        pipeline.resp.clear();
        pipeline.commands = 0;
        pipeline.connection = nullptr;
    }
}

void DecisionBatch::add(RedisRouter& router, const Limiter& limiter, Request request) {
    if (size_ == items_.size()) {
        items_.emplace_back();
    }
    Item& item = items_[size_++];
    item.limiter = &limiter;
    item.request = std::move(request);
    item.result.decided = false;  // the decision itself is read only once decided
    item.result.cause = ErrorCause::Other;
    item.result.replyTime = 0;
    item.result.node = -1;
    item.result.failure = nullptr;
    item.call = limiter.prepare(item.request);
    try {
        item.result.node = router.nodeIndexForSlot(limiter.slotOf(item.call));
    } catch (const RedisError& e) {
        item.result.cause = errorCauseOf(e);  // no node serves its slot: never sent
        item.result.failure = std::current_exception();
        return;
    }
    if (std::size_t(item.result.node) >= pipelines_.size()) {
        pipelines_.resize(std::size_t(item.result.node) + 1);
    }
    Pipeline& pipeline = pipelines_[std::size_t(item.result.node)];
    limiter.script().formatEvalsha(pipeline.resp, item.call.keys, item.call.args);
    pipeline.commands++;
    pipeline.slot = limiter.slotOf(item.call);
}

void DecisionBatch::run(RedisRouter& router, std::chrono::milliseconds timeout,
                        const ReplyClock& clock, const std::function<void()>& whileSent) {
    if (size_ == 0) {
        return;
    }
    {
        const BatchDeadline deadline(router, timeout);
        send(router);
        if (whileSent) {
            whileSent();
        }
        readReplies(clock);
        retry(router, clock);
    }
    if (!clock) {
        return;
    }
    std::optional<qint64> end;  // failed decisions end when the batch does
    for (std::size_t i = 0; i < size_; ++i) {
        Item& item = items_[i];
        if (!item.result.decided) {
            if (!end) {
                end = clock();
            }
            item.result.replyTime = *end;
        }
    }
}

void DecisionBatch::send(RedisRouter& router) {
    for (Pipeline& pipeline : pipelines_) {
        if (pipeline.commands == 0) {
            continue;
        }
        RedisConnection* connection = nullptr;
        try {
            connection = &router.connectionForSlot(pipeline.slot);
            connection->appendFormatted(pipeline.resp.bytes(), pipeline.commands);
        } catch (const RedisError& e) {
            // This node is unreachable (or backing off): its share fails, never sent; the
            // other nodes go on.
            pipeline.failed = errorCauseOf(e);
            pipeline.failure = std::current_exception();
            continue;
        }
        try {
            connection->flush();
            pipeline.connection = connection;
        } catch (const RedisError& e) {
            pipeline.failed = causeAfterSending(e);  // part of it may have gone out
            pipeline.failure = std::current_exception();
        }
    }
}

void DecisionBatch::readReplies(const ReplyClock& clock) {
    retries_.clear();
    noScript_.clear();
    turnedAway_.clear();
    for (std::size_t i = 0; i < size_; ++i) {
        Item& item = items_[i];
        if (item.result.node < 0) {
            continue;
        }
        const Pipeline& pipeline = pipelines_[std::size_t(item.result.node)];
        RedisConnection* connection = pipeline.connection;
        if (connection == nullptr) {
            item.result.cause = pipeline.failed;
            item.result.failure = pipeline.failure;
            continue;
        }
        // A connection that breaks fails every read after it, so its remaining decisions fail
        // while other nodes' replies still count.
        RedisReply reply;
        try {
            reply = connection->readReply();
        } catch (const RedisError& e) {
            const bool wasTurnedAway =
                std::find(turnedAway_.begin(), turnedAway_.end(), connection) != turnedAway_.end();
            item.result.cause = wasTurnedAway ? ErrorCause::MaxClients : causeAfterSending(e);
            item.result.failure = std::current_exception();
            continue;
        }
        if (clock) {
            item.result.replyTime = clock();
        }
        if (RedisRouter::needsRetry(reply.get()) || retimed(item, ReplyView(reply.get()))) {
            retries_.push_back(i);
            if (LuaScript::isNoScript(reply.get())) {
                noScript_.push_back(i);
            }
            continue;
        }
        failReorderedBy(item);
        decide(item, reply.get());
        if (item.result.cause == ErrorCause::MaxClients) {
            turnedAway_.push_back(connection);
        }
    }
}

// A request after one that got NOSCRIPT on the same connection ran: another client loaded the
// script meanwhile. Sent again, the earlier one would be decided after it; when both touch a
// key, that order is not the schedule's, so the earlier one fails instead (NOSCRIPT, counted as
// an error: it changed nothing in Redis) and is not sent again.
void DecisionBatch::failReorderedBy(const Item& ran) {
    for (auto it = noScript_.begin(); it != noScript_.end();) {
        Item& earlier = items_[*it];
        const bool sameConnection = earlier.result.node == ran.result.node;
        const bool sharesAKey =
            std::any_of(ran.call.keys.begin(), ran.call.keys.end(), [&](const std::string& key) {
                return std::find(earlier.call.keys.begin(), earlier.call.keys.end(), key) !=
                       earlier.call.keys.end();
            });
        if (!sameConnection || !sharesAKey) {
            ++it;
            continue;
        }
        earlier.result.cause = ErrorCause::Noscript;
        earlier.result.failure = std::make_exception_ptr(RedisError(
            RedisError::Kind::Reply,
            "NOSCRIPT, and a later request on the same keys ran before it could be sent again "
            "(another client loaded the script meanwhile): deciding it now would change their "
            "order"));
        retries_.erase(std::find(retries_.begin(), retries_.end(), *it));
        it = noScript_.erase(it);
    }
}

void DecisionBatch::retry(RedisRouter& router, const ReplyClock& clock) {
    for (std::size_t i : retries_) {
        Item& item = items_[i];
        const Limiter& limiter = *item.limiter;
        RedisReply reply;
        try {
            reply = router.runScript(limiter.slotOf(item.call), limiter.script(), item.call.keys,
                                     item.call.args);
            if (retimed(item, ReplyView(reply.get()))) {  // after NOSCRIPT or a redirection
                reply = router.runScript(limiter.slotOf(item.call), limiter.script(),
                                         item.call.keys, item.call.args);
            }
        } catch (const RedisError& e) {
            item.result.cause = causeAfterSending(e);
            item.result.failure = std::current_exception();
            continue;
        }
        decide(item, reply.get());
        if (clock) {
            item.result.replyTime = clock();
        }
        try {
            // A MOVED slot has a new one.
            item.result.node = router.nodeIndexForSlot(limiter.slotOf(item.call));
        } catch (const RedisError&) {
            // The map lost the slot meanwhile: the decision counts on the node it was sent to.
        }
    }
}

bool DecisionBatch::retimed(Item& item, ReplyView reply) {
    qint64 redisNow = 0;
    if (!item.limiter->readsRedisTime(item.request) ||
        !item.limiter->retimed(reply, item.request.nowMs, &redisNow)) {
        return false;  // only a script that read Redis's time answers "retime"
    }
    // time: redis, the fixed window: Redis's time is in another window than the one guessed;
    // decide at that time (Limiter::retimed).
    item.request.nowMs = redisNow;
    item.request.nowFromRedis = true;
    item.call = item.limiter->prepare(item.request);
    return true;
}

void DecisionBatch::decide(Item& item, const redisReply* reply) {
    try {
        item.result.decision = item.limiter->parseReply(ReplyView(reply), item.call);
        item.result.decided = true;
    } catch (const RedisError& e) {
        item.result.cause = causeOfReply(reply);  // an error reply, or garbage from the script
        item.result.failure = std::current_exception();
    }
}

}  // namespace ratelab
