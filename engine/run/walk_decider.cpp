#include "run/walk_decider.h"

#include "redis/redis_error.h"

namespace ratelab {
namespace {

QVector<LimiterSpec> specsOf(const std::vector<const Limiter*>& limiters) {
    QVector<LimiterSpec> specs;
    for (const Limiter* limiter : limiters) {
        specs.push_back(limiter->spec());
    }
    return specs;
}

LimiterOptions optionsOf(const std::vector<const Limiter*>& limiters) {
    return limiters.empty() ? LimiterOptions{} : limiters.front()->options();
}

}  // namespace

WalkDecider::WalkDecider(std::vector<const Limiter*> limiters, const TrafficSpec& traffic,
                         int batchRequests)
    : limiters_(std::move(limiters)),
      traffic_(traffic),
      gateways_(std::make_unique<GatewayState>(specsOf(limiters_), traffic.gateways.count,
                                               optionsOf(limiters_))),
      batchRequests_(std::max(1, batchRequests)) {}

int WalkDecider::batchRequests(const Scenario& scenario) {
    // A worker's batch takes `pipeline` decisions, each request one per limiter, all of it.
    const int limiters = std::max<int>(1, int(scenario.limiters.size()));
    return (std::max(1, scenario.traffic.pipeline) + limiters - 1) / limiters;
}

void WalkDecider::report(int l, qint64 index, Release release) const {
    if (sink_) {
        sink_(l, index, release);
    }
}

void WalkDecider::begin(RedisRouter& router, const ScheduleWalk::Step& step) {
    if (step.runUs == batchRunUs_ && inBatch_ < batchRequests_) {
        ++inBatch_;  // decided with the batch's first: no release comes between them
        return;
    }
    batchRunUs_ = step.runUs;
    inBatch_ = 1;
    learnRefusals();
    releaseUntil(router, step.runUs);
}

void WalkDecider::learnRefusals() {
    for (const Refusal& r : refusals_) {
        gateways_->remember(r.limiter, r.gateway, r.request, r.decision);
    }
    refusals_.clear();
}

std::vector<HeldGrant> WalkDecider::takeHeldGrants() {
    std::vector<HeldGrant> held;
    for (; !releases_.empty(); releases_.pop()) {
        const Due& due = releases_.top();
        held.push_back({due.runUs, due.grantRunUs, due.index, due.limiter, due.client,
                        due.grant.permits, due.gateway});
    }
    return held;
}

std::unique_ptr<GatewayState> WalkDecider::takeGateways() {
    learnRefusals();
    return std::move(gateways_);
}

void WalkDecider::releaseUntil(RedisRouter& router, qint64 runUs) {
    while (!releases_.empty() && releases_.top().runUs <= runUs) {
        const Due due = releases_.top();
        releases_.pop();
        const Limiter& holder = limiter(due.limiter, due.gateway);
        if (!holder.holdsGrants()) {
            continue;
        }
        ++releasesMade_;
        try {
            report(due.limiter, due.index,
                   holder.release(router, due.grant) ? Release::Late : Release::InTime);
        } catch (const RedisError&) {
            // A release that failed leaves the slots to their lease, as a crashed worker's.
            report(due.limiter, due.index, Release::Leaked);
        }
    }
}

const Limiter& WalkDecider::limiter(int l, int gateway) const {
    return gateways_->limiter(l, gateway, *limiters_[size_t(l)]);
}

std::optional<Decision> WalkDecider::decideLocally(RedisRouter& router, int l,
                                                   const ScheduleWalk::Step& step) {
    if (std::optional<Decision> cached = gateways_->cachedRefusal(l, step.gateway, step.request)) {
        return cached;
    }
    const Limiter& deciding = limiter(l, step.gateway);
    if (!gateways_->batched(l) || deciding.spec().type != LimiterType::FixedWindow) {
        return std::nullopt;
    }
    return gateways_->decideBatched(l, step.gateway, deciding, router, step.request,
                                    step.runUs / 1000);
}

void WalkDecider::decided(int l, const ScheduleWalk::Step& step, const Decision& decision,
                          bool fromRedis) {
    if (fromRedis && !decision.allowed) {
        refusals_.push_back({l, step.gateway, step.request, decision});
    }
    if (!decision.allowed || !limiter(l, step.gateway).holdsGrants() ||
        traffic_.hold.type == HoldSpec::Type::None) {
        return;
    }
    if (step.holdMs < 0) {
        report(l, step.index, Release::Leaked);
        return;
    }
    Request grant = step.request;
    grant.nowMs += step.holdMs;
    releases_.push({step.runUs + step.holdMs * 1000, step.index, l, step.gateway, step.client,
                    step.runUs, grant});
}

Decision WalkDecider::decide(RedisRouter& router, int l, const ScheduleWalk::Step& step) {
    if (std::optional<Decision> local = decideLocally(router, l, step)) {
        decided(l, step, *local, false);
        return *local;
    }
    const Decision d = limiter(l, step.gateway).decide(router, step.request);
    decided(l, step, d, true);
    return d;
}

void WalkDecider::flush(RedisRouter& router) {
    gateways_->flush(router, limiters_);
}

}  // namespace ratelab
