#include "traffic/decision_path.h"

#include <algorithm>
#include <optional>

#include "redis/redis_error.h"
#include "redis/redis_router.h"
#include "traffic/redis_error_cause.h"

namespace ratelab {

DecisionPath::DecisionPath(Limiters limiters, GatewayState* gateways, bool roundTripPerLimiter)
    : limiters_(std::move(limiters)), gateways_(gateways), perLimiter_(roundTripPerLimiter) {}

void DecisionPath::clear() {
    items_.clear();
    results_.clear();
    for (DecisionBatch& round : rounds_) {
        round.clear();
    }
    roundTrips_ = 0;
}

const Limiter& DecisionPath::limiter(int limiter, int gateway) const {
    const Limiter& shared = limiters_(limiter);
    return gateways_ != nullptr ? gateways_->limiter(limiter, gateway, shared) : shared;
}

std::size_t DecisionPath::add(RedisRouter& router, int limiter, int gateway, const Request& request,
                              qint64 runMs) {
    const std::size_t index = items_.size();
    items_.push_back(Item{limiter, gateway, request, -1, 0});
    results_.emplace_back();
    Result& result = results_.back();
    if (gateways_ != nullptr) {
        // A gateway that remembers a refusal covering this request refuses it itself; a
        // batched gateway decides from its own counts.
        std::optional<Decision> local = gateways_->cachedRefusal(limiter, gateway, request);
        if (!local && gateways_->batched(limiter)) {
            try {
                local = gateways_->decideBatched(limiter, gateway, this->limiter(limiter, gateway),
                                                 router, request, runMs);
            } catch (const RedisError& e) {
                result.byGateway = true;
                result.cause = errorCauseOf(e);
                result.failure = std::current_exception();
                return index;
            }
        }
        if (local) {
            result.byGateway = true;
            result.decided = true;
            result.decision = *local;
            return index;
        }
    }
    const int round = perLimiter_ ? limiter : 0;
    if (std::size_t(round) >= rounds_.size()) {
        rounds_.resize(std::size_t(round) + 1);
    }
    DecisionBatch& batch = rounds_[std::size_t(round)];
    const Limiter& deciding = this->limiter(limiter, gateway);
    items_.back().round = round;
    items_.back().slot = batch.size();
    batch.add(router, deciding, request);
    if (const Limiter* reference = deciding.reference()) {
        items_.back().referenceSlot = std::ptrdiff_t(batch.size());
        batch.add(router, *reference, request);
    }
    return index;
}

void DecisionPath::run(RedisRouter& router, std::chrono::milliseconds timeout,
                       const DecisionBatch::ReplyClock& clock, qint64 startTime,
                       const std::function<void()>& whileSent) {
    // Each decision's latency ends when its own reply is read: limiters on one pipeline share
    // its round trip (their replies come back together), limiters on rounds of their own each
    // have their own, counted from when their round was sent.
    std::vector<qint64> roundStart(rounds_.size(), startTime);
    std::optional<qint64> firstRound;  // when the first round that called Redis was sent
    for (std::size_t r = 0; r < rounds_.size(); ++r) {
        if (rounds_[r].empty()) {
            continue;
        }
        roundStart[r] = clock ? clock() : startTime;
        if (!firstRound) {
            firstRound = roundStart[r];
        }
        rounds_[r].run(router, timeout, clock, roundTrips_ == 0 ? whileSent : nullptr);
        ++roundTrips_;
    }
    for (std::size_t i = 0; i < items_.size(); ++i) {
        const Item& item = items_[i];
        Result& result = results_[i];
        if (item.round < 0) {
            result.replyTime = startTime;
            continue;
        }
        const DecisionBatch::Result& sent = rounds_[std::size_t(item.round)].result(item.slot);
        result.decided = sent.decided;
        result.node = sent.node;
        result.cause = sent.cause;
        result.failure = sent.failure;
        if (sent.decided) {
            result.decision = sent.decision;
        }
        if (item.referenceSlot >= 0) {
            const DecisionBatch::Result& reference =
                rounds_[std::size_t(item.round)].result(std::size_t(item.referenceSlot));
            result.referenceDecided = reference.decided;
            if (reference.decided) {
                result.reference = reference.decision;
            }
        }
        // A later round's wait for the rounds before it is not its own reply time.
        result.replyTime = clock ? sent.replyTime - (roundStart[std::size_t(item.round)] -
                                                     firstRound.value_or(startTime))
                                 : startTime;
        if (sent.decided && gateways_ != nullptr) {
            gateways_->remember(item.limiter, item.gateway, item.request, sent.decision);
        }
    }
}

bool DecisionPath::release(RedisRouter& router, const Limiter& limiter, const Request& grant) {
    const ScriptCall call = limiter.prepareRelease(grant);
    RedisReply reply =
        router.runScript(limiter.slot(), *limiter.releaseScript(), call.keys, call.args);
    return limiter.parseRelease(ReplyView(reply.get()));
}

Decision DecisionPath::decideAlone(RedisRouter& router, const Limiter& limiter,
                                   const Request& request) {
    DecisionBatch batch;
    batch.add(router, limiter, request);
    batch.run(router, router.options().commandTimeout);
    const DecisionBatch::Result& result = batch.result(0);
    if (!result.decided) {
        if (result.failure) {
            std::rethrow_exception(result.failure);
        }
        throw RedisError(RedisError::Kind::Reply, "the decision failed");
    }
    return result.decision;
}

}  // namespace ratelab
