#pragma once

#include <memory>

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

    // Explains one decision in two steps around it (a worker decides it: DecisionObserver):
    // before() reads the keys the decision of `request` reads and writes and keeps the state it
    // finds in a scratch limiter; after() reads the keys again and explains `decision`: the
    // request, decision, reason, keys before and after (named as `shownName` names them),
    // headers, passes_at_ms and the counterfactuals (decided again from the state kept). A
    // gateway's own decision (`byGateway`: a cached refusal, a batched window's count) is
    // explained by gatewayReasonText, with the keys and headers and no counterfactuals (they are
    // Redis's decisions). Both throw RedisError when Redis fails.
    // `reference`: a script limiter's reference's decision of the same request, if it made one.
    void before(const Request& request);
    Explanation after(const Request& request, const Decision& decision, bool byGateway, int gateway,
                      qint64 decideUs, const Decision* reference = nullptr);
    // The scratch limiters' specs (their keys are deleted with Limiter::reset).
    std::vector<LimiterSpec> scratchLimiters() const;

private:
    RedisRouter& router_;
    const Limiter& limiter_;
    QString shownName_;
    std::unique_ptr<Limiter> before_;
    std::unique_ptr<Limiter> probe_;
    bool ownsScratch_;
    QVector<KeyState> stateBefore_;  // before()'s, for after()
};

// "explain-<10 random hex digits>-": scratch limiter names no user's limiter has.
QString explainScratchBase();

}  // namespace ratelab
