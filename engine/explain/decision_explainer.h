#pragma once

#include <functional>
#include <memory>
#include <optional>

#include "explain/explanation.h"
#include "redis/redis_router.h"

namespace ratelab {

// Explains the decisions of one limiter as they are made (the window's Step panel, and below
// `ratelab explain`): reads the keys the decision reads and writes just before and just after
// it (by name, no SCAN), keeps the state it found in a scratch limiter, and finds the
// counterfactuals by deciding again from that state (Counterfactuals). Its two scratch
// limiters ("<scratchBase>before-<name>", "<scratchBase>probe-<name>") are deleted when it goes
// (one SCAN each). Not thread-safe: one caller.
class DecisionExplainer {
public:
    // `ownsScratch`: the destructor deletes the scratch limiters' keys (on the caller's thread,
    // with Redis commands); false leaves that to whoever holds scratchLimiters().
    DecisionExplainer(RedisRouter& router, const Limiter& limiter, QString shownName,
                      QString scratchBase, bool ownsScratch = true);
    ~DecisionExplainer();
    DecisionExplainer(const DecisionExplainer&) = delete;
    DecisionExplainer& operator=(const DecisionExplainer&) = delete;

    // Decides `request` on the limiter and explains it: the request, decision, reason, keys
    // before and after (named as `shownName` names them), headers, passes_at_ms and the
    // counterfactuals. Throws RedisError when Redis fails.
    Explanation decide(const Request& request);
    // A gateway that may decide on its own (a limiter's "gateway" option): `local` returns its
    // decision (a cached refusal, a batched window's count) or none, and Redis decides. A
    // gateway's own decision is explained by gatewayReasonText, with the keys before and after
    // and the headers, and no counterfactuals (they are Redis's decisions).
    struct Gateway {
        int index = 0;
        std::function<std::optional<Decision>()> local;
    };
    Explanation decide(const Request& request, const Gateway& gateway);
    // The scratch limiters' specs (their keys are deleted with Limiter::reset).
    std::vector<LimiterSpec> scratchLimiters() const;

private:
    RedisRouter& router_;
    const Limiter& limiter_;
    QString shownName_;
    std::unique_ptr<Limiter> before_;
    std::unique_ptr<Limiter> probe_;
    bool ownsScratch_;
};

// "explain-<10 random hex digits>-": scratch limiter names no user's limiter has.
QString explainScratchBase();

}  // namespace ratelab
