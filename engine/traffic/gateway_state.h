#pragma once

#include <QHash>
#include <QString>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "limiters/limiter.h"
#include "traffic/batched_window.h"
#include "traffic/traffic_spec.h"

namespace ratelab {

class RedisRouter;

// What the gateways of a run keep of their own, per limiter and gateway (a limiter's "gateway"
// option): the node-local limiters of mode "local" (limiter "<name>@g<g>", its own hash tag)
// and the refusals a "cache_refusals" gateway remembers per scope key. Shared by the workers:
// every gateway's cache has its own lock.
class GatewayState {
public:
    GatewayState(const QVector<LimiterSpec>& specs, int gateways, const LimiterOptions& options);

    int gateways() const { return gateways_; }
    // The limiter gateway g decides limiter `index` with: its own in mode local, else `shared`.
    const Limiter& limiter(int index, int gateway, const Limiter& shared) const;
    // A live change of limiter `index`: local limiters are made anew (the old ones stay alive).
    void update(int index, const LimiterSpec& spec);
    // Resets the keys of every local limiter.
    void reset(RedisRouter& router) const;
    // Every local limiter made so far (the live ones and the ones a change replaced).
    std::vector<const Limiter*> localLimiters() const;

    // cache_refusals: the refusal gateway g gives `request` without calling Redis, if it
    // remembers one that covers it (at least its permits, before blocked_until).
    std::optional<Decision> cachedRefusal(int index, int gateway, const Request& request) const;
    // Remembers a refusal Redis gave (a retry of -1 is not kept).
    void remember(int index, int gateway, const Request& request, const Decision& decision);

    // Mode batched (the fixed window): gateway g decides from its own counts (BatchedWindow),
    // `limiter` the shared one; runMs since the run's start. Throws RedisError.
    bool batched(int index) const {
        return limiters_[size_t(index)].spec.gateway.mode == GatewayMode::Batched;
    }
    Decision decideBatched(int index, int gateway, const Limiter& limiter, RedisRouter& router,
                           const Request& request, qint64 runMs);
    // The run's end: every batched gateway adds the grants it has not added yet; `limiters`
    // the shared ones, by index.
    void flush(RedisRouter& router, const std::vector<const Limiter*>& limiters);

    // The name local gateway g's limiter goes by.
    static QString localName(const QString& name, int gateway);

private:
    struct Refusal {
        qint64 permits = 0;
        qint64 blockedUntilMs = 0;
    };
    struct Cache {
        mutable std::mutex mutex;
        QHash<QString, Refusal> byScopeKey;
    };
    struct PerLimiter {
        LimiterSpec spec;
        std::vector<std::unique_ptr<std::atomic<const Limiter*>>> local;  // per gateway
        std::vector<std::unique_ptr<Cache>> caches;                       // per gateway
        std::vector<std::unique_ptr<BatchedWindow>> batches;              // per gateway
    };
    void makeLocal(PerLimiter& l);
    static QString scopeKey(const LimiterSpec& spec, const Request& request);

    int gateways_;
    LimiterOptions options_;
    std::vector<PerLimiter> limiters_;
    std::vector<std::unique_ptr<Limiter>> owned_;  // every local limiter ever made
};

}  // namespace ratelab
