#pragma once

#include <memory>
#include <vector>

#include "explain/explanation.h"
#include "redis/redis_router.h"

namespace ratelab {

// Decides one request again on real Redis, from a saved state, under changed circumstances:
// the state the request found lives in the keys of `before` (a scratch limiter of the user's
// config); each probe copies it (Algorithm::copyState) to the scratch limiter named
// `probeName` with the config asked, and decides the request there. Every probe starts from
// the same state; the probe's keys are the caller's to delete.
class Counterfactuals {
public:
    Counterfactuals(RedisRouter& router, const Limiter& before, QString probeName);

    // The earliest time (epoch ms, >= request.nowMs) at which the request alone is granted,
    // searched by deciding at candidate times; -1 when it never is within a year.
    qint64 passesAtMs(const Request& request);
    // Per numeric parameter, the value nearest its own that grants the request at its time
    // (a minimum for a rate or limit, a maximum for a window or interval), searched by
    // deciding with candidate values; `granted`: how the request was decided as configured.
    std::vector<Counterfactual> parameters(const Request& request, bool granted);

    // Whether the request is granted under `spec` (named as the probe), at `request.nowMs`;
    // nullopt when the state has no meaning under that config, or when the user's script
    // cannot decide with it (an error reply: scriptFailure() says which).
    std::optional<bool> grants(const LimiterSpec& spec, const Request& request);
    const QString& scriptFailure() const { return scriptFailure_; }

private:
    Counterfactual search(const NumericParam& param, const Request& request, bool granted);

    RedisRouter& router_;
    const Limiter& before_;
    QString probeName_;
    QString scriptFailure_;  // the last probe's error reply, when a user's script failed
};

}  // namespace ratelab
