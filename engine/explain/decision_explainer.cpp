#include "explain/decision_explainer.h"

#include <QRandomGenerator>
#include <algorithm>

#include "explain/counterfactuals.h"
#include "explain/gateway_reason.h"
#include "explain/rate_limit_headers.h"
#include "limiters/scratch_keys.h"
#include "limiters/script_spec.h"

namespace ratelab {
namespace {

// The keys a decision of `limiter` for `request` reads or writes, read by name from Redis and
// named as the user's limiter names them.
QVector<KeyState> decisionKeys(RedisRouter& router, const Limiter& limiter, const Request& request,
                               const QString& shownName) {
    std::vector<std::string> names;
    const ScriptCall call = limiter.prepare(request);
    for (const std::string& k : call.keys) {
        names.push_back(k);
    }
    for (const std::string& k : limiter.exactKeys()) {
        names.push_back(k);
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    QVector<KeyState> keys =
        readKeysNamed(router.connectionForSlot(limiter.slotOf(call)), limiter, names, 20);
    const QString scratch = limiter.spec().name;
    for (KeyState& key : keys) {
        // A script limiter's scratch copy puts its name before the user's keys: shown without.
        if (limiter.userScript() && key.key.startsWith(scratch + QLatin1Char(':'))) {
            key.key.remove(0, scratch.size() + 1);
        }
        key.key.replace(scratch, shownName);
    }
    return keys;
}

}  // namespace

QString explainScratchBase() {
    return QStringLiteral("explain-%1-")
        .arg(QRandomGenerator::global()->generate64() & 0xffffffffffULL, 10, 16, QLatin1Char('0'));
}

DecisionExplainer::DecisionExplainer(RedisRouter& router, const Limiter& limiter, QString shownName,
                                     QString scratchBase, bool ownsScratch)
    : router_(router),
      limiter_(limiter),
      shownName_(std::move(shownName)),
      ownsScratch_(ownsScratch) {
    // "<base>before-<name>": each scratch name says whose it is (cut to the longest name).
    const auto scratchName = [&](const QString& role) {
        const QString prefix = scratchBase + role + QLatin1Char('-');
        return prefix + shownName_.left(spec_limits::kMaxNameLength - prefix.size());
    };
    LimiterSpec before = limiter.spec();
    before.name = scratchName(QStringLiteral("before"));
    before_ = makeLimiter(before, scratchOptions());
    LimiterSpec probe = limiter.spec();
    probe.name = scratchName(QStringLiteral("probe"));
    probe_ = makeLimiter(probe, scratchOptions());
}

DecisionExplainer::~DecisionExplainer() {
    if (ownsScratch_) {
        deleteScratchKeys(router_, {before_.get(), probe_.get()});
    }
}

std::vector<LimiterSpec> DecisionExplainer::scratchLimiters() const {
    return {before_->spec(), probe_->spec()};
}

void DecisionExplainer::before(const Request& request) {
    stateBefore_ = decisionKeys(router_, limiter_, request, shownName_);
    algorithmOf(limiter_.spec()).copyState(router_, limiter_, *before_, request, 10 * 60 * 1000);
}

Explanation DecisionExplainer::after(const Request& request, const Decision& decision,
                                     bool byGateway, int gateway, qint64 decideUs,
                                     const Decision* reference) {
    const LimiterSpec& spec = limiter_.spec();
    const Algorithm& algorithm = algorithmOf(spec);
    Explanation e;
    e.spec = spec;
    e.spec.name = shownName_;
    e.request = request;
    e.stateBefore = std::move(stateBefore_);
    e.decision = decision;
    e.decideUs = decideUs;
    e.reason = byGateway ? gatewayReasonText(spec, gateway, e.decision)
                         : algorithm.reasonText(e.spec, e.decision);
    e.scriptReply = QString::fromStdString(e.decision.reason.rawReply);
    if (const std::optional<LimiterSpec> referenceSpec = referenceSpecOf(e.spec);
        referenceSpec && reference != nullptr) {
        ReferenceDecision r;
        r.spec = *referenceSpec;
        r.decision = *reference;
        r.reason = algorithmOf(r.spec).reasonText(r.spec, r.decision);
        e.reference = r;
    }
    e.stateAfter = decisionKeys(router_, limiter_, request, shownName_);
    e.quotas = algorithm.headerQuotas(spec, e.decision);
    e.headers = rateLimitHeaders(e.quotas, e.decision,
                                 spec.scope == Scope::PerClient ? request.client : QString());
    if (byGateway) {
        e.passesAtMs = e.decision.allowed            ? request.nowMs
                       : e.decision.retryAfterMs < 0 ? -1
                                                     : request.nowMs + e.decision.retryAfterMs;
        e.notes << QStringLiteral(
                       "decided by gateway %1 from its own state (no counterfactuals: they are "
                       "Redis's decisions)")
                       .arg(gateway);
        return e;
    }
    // What would have let it through, each decided again from the same state.
    Counterfactuals counterfactuals(router_, *before_, probe_->spec().name);
    e.passesAtMs = e.decision.allowed            ? request.nowMs
                   : e.decision.retryAfterMs < 0 ? -1
                                                 : counterfactuals.passesAtMs(request);
    e.counterfactuals = counterfactuals.parameters(request, e.decision.allowed);
    return e;
}

}  // namespace ratelab
