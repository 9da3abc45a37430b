#include "traffic/gateway_state.h"

namespace ratelab {

GatewayState::GatewayState(const QVector<LimiterSpec>& specs, int gateways,
                           const LimiterOptions& options)
    : gateways_(std::max(1, gateways)), options_(options) {
    limiters_.resize(size_t(specs.size()));
    for (qsizetype i = 0; i < specs.size(); ++i) {
        PerLimiter& l = limiters_[size_t(i)];
        l.spec = specs[i];
        for (int g = 0; g < gateways_; ++g) {
            l.local.push_back(std::make_unique<std::atomic<const Limiter*>>(nullptr));
            l.caches.push_back(std::make_unique<Cache>());
            l.batches.push_back(std::make_unique<BatchedWindow>());
        }
        makeLocal(l);
    }
}

QString GatewayState::localName(const QString& name, int gateway) {
    return name + QStringLiteral("@g%1").arg(gateway);
}

void GatewayState::makeLocal(PerLimiter& l) {
    for (int g = 0; g < gateways_; ++g) {
        const Limiter* made = nullptr;
        if (l.spec.gateway.mode == GatewayMode::Local) {
            LimiterSpec spec = l.spec;
            spec.name = localName(l.spec.name, g);
            owned_.push_back(makeLimiter(spec, options_));
            made = owned_.back().get();
        }
        l.local[size_t(g)]->store(made);
    }
}

const Limiter& GatewayState::limiter(int index, int gateway, const Limiter& shared) const {
    const Limiter* local = limiters_[size_t(index)].local[size_t(gateway)]->load();
    return local != nullptr ? *local : shared;
}

void GatewayState::update(int index, const LimiterSpec& spec) {
    PerLimiter& l = limiters_[size_t(index)];
    l.spec = spec;
    makeLocal(l);
    for (const auto& cache : l.caches) {
        const std::lock_guard<std::mutex> lock(cache->mutex);
        cache->byScopeKey.clear();
    }
}

void GatewayState::reset(RedisRouter& router) const {
    for (const PerLimiter& l : limiters_) {
        for (const auto& local : l.local) {
            if (const Limiter* limiter = local->load()) {
                limiter->reset(router);
            }
        }
    }
}

std::vector<const Limiter*> GatewayState::localLimiters() const {
    std::vector<const Limiter*> out;
    for (const auto& limiter : owned_) {
        out.push_back(limiter.get());
    }
    return out;
}

Decision GatewayState::decideBatched(int index, int gateway, const Limiter& limiter,
                                     RedisRouter& router, const Request& request, qint64 runMs) {
    return limiters_[size_t(index)].batches[size_t(gateway)]->decide(limiter, router, request,
                                                                     runMs);
}

void GatewayState::flush(RedisRouter& router, const std::vector<const Limiter*>& limiters) {
    for (size_t i = 0; i < limiters_.size() && i < limiters.size(); ++i) {
        if (limiters_[i].spec.gateway.mode != GatewayMode::Batched) {
            continue;  // (the parser takes "batched" only for a batchable type)
        }
        for (const auto& batch : limiters_[i].batches) {
            batch->flush(*limiters[i], router);
        }
    }
}

QString GatewayState::scopeKey(const LimiterSpec& spec, const Request& request) {
    return spec.scope == Scope::PerClient ? request.client : QString();
}

std::optional<Decision> GatewayState::cachedRefusal(int index, int gateway,
                                                    const Request& request) const {
    const PerLimiter& l = limiters_[size_t(index)];
    if (!l.spec.gateway.cacheRefusals) {
        return std::nullopt;
    }
    Refusal refusal;
    {
        const Cache& cache = *l.caches[size_t(gateway)];
        const std::lock_guard<std::mutex> lock(cache.mutex);
        const auto it = cache.byScopeKey.constFind(scopeKey(l.spec, request));
        if (it == cache.byScopeKey.constEnd()) {
            return std::nullopt;
        }
        refusal = it.value();
    }
    if (request.permits < refusal.permits || request.nowMs >= refusal.blockedUntilMs) {
        return std::nullopt;
    }
    Decision d;
    d.allowed = false;
    d.retryAfterMs = refusal.blockedUntilMs - request.nowMs;
    d.remaining = 0;
    d.atMs = request.nowMs;
    d.calledRedis = false;
    d.reason.permits = request.permits;
    return d;
}

void GatewayState::remember(int index, int gateway, const Request& request,
                            const Decision& decision) {
    const PerLimiter& l = limiters_[size_t(index)];
    if (!l.spec.gateway.cacheRefusals || decision.allowed || decision.retryAfterMs < 0 ||
        !decision.calledRedis) {
        return;
    }
    Cache& cache = *l.caches[size_t(gateway)];
    const std::lock_guard<std::mutex> lock(cache.mutex);
    cache.byScopeKey.insert(scopeKey(l.spec, request),
                            Refusal{request.permits, request.nowMs + decision.retryAfterMs});
}

}  // namespace ratelab
