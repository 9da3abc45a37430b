#include "explain/decision_explainer.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <algorithm>
#include <map>

#include "explain/counterfactuals.h"
#include "explain/rate_limit_headers.h"
#include "explain/schedule_walk.h"
#include "input_error.h"
#include "json_input.h"

namespace ratelab {
namespace {

// A real-clock scenario's virtual start: a round instant, so explanations repeat.
constexpr qint64 kRealClockStartMs = 1'704'067'200'000;  // 2024-01-01T00:00:00Z

const LimiterSpec& findLimiter(const Scenario& scenario, const QString& name) {
    QStringList names;
    for (const LimiterSpec& spec : scenario.limiters) {
        if (spec.name == name) {
            return spec;
        }
        names << json_input::quoted(spec.name);
    }
    throw InputError(QStringLiteral("--limiter"),
                     QStringLiteral("no limiter is named %1; expected %2")
                         .arg(json_input::quoted(name), json_input::oneOf(names)));
}

// Deletes the scratch limiters' keys however the explanation ends.
struct ScratchKeys {
    RedisRouter& router;
    std::vector<const Limiter*> limiters;
    ~ScratchKeys() {
        for (const Limiter* limiter : limiters) {
            try {
                limiter->reset(router);
            } catch (...) {
                // Redis went away: the scratch keys expire (or are a scratch name's alone).
            }
        }
    }
};

// The keys a decision of `limiter` for `request` reads or writes, read from Redis and named
// as the user's limiter names them.
QVector<KeyState> decisionKeys(RedisRouter& router, const Limiter& limiter, const Request& request,
                               const QString& shownName) {
    LimiterState listing;
    readLimiterKeys(router.connectionForSlot(limiter.slot()), limiter, &listing, 1000, 20);
    RedisArgs keys = limiter.prepare(request).keys;
    for (const std::string& k : limiter.exactKeys()) {
        keys.push_back(k);
    }
    const QString scratch = limiter.spec().name;
    QVector<KeyState> out;
    for (KeyState key : listing.keys) {
        if (std::find(keys.begin(), keys.end(), key.key.toStdString()) == keys.end()) {
            continue;
        }
        key.key.replace(scratch, shownName);
        out.push_back(key);
    }
    return out;
}

struct Grant {
    qint64 atMs;
    QString client;
    qint64 permits;
};

// The index of the request `target` names: the N-th, or the one nearest its time (ties: the
// earlier), of its client when it names one.
qint64 chooseRequest(const Scenario& scenario, qint64 startMs, const ExplainTarget& target) {
    ScheduleWalk walk(scenario, startMs);
    const qint64 atMs = target.atMs < startMs ? startMs + target.atMs : target.atMs;
    qint64 best = -1;
    qint64 bestDistance = 0;
    for (ScheduleWalk::Step step = walk.next(); step.index >= 0; step = walk.next()) {
        if (target.index >= 0) {
            if (step.index == target.index) {
                return step.index;
            }
            continue;
        }
        if (!target.client.isEmpty() && step.request.client != target.client) {
            continue;
        }
        const qint64 distance = std::abs(startMs + step.runUs / 1000 - atMs);
        if (best < 0 || distance < bestDistance) {
            best = step.index;
            bestDistance = distance;
        } else if (startMs + step.runUs / 1000 > atMs) {
            break;  // further from here on
        }
    }
    if (best < 0) {
        throw InputError(
            target.index >= 0 ? QStringLiteral("--request") : QStringLiteral("--client"),
            target.index >= 0
                ? QStringLiteral("request %1 is past the end of the schedule (0-based)")
                      .arg(target.index)
                : QStringLiteral("client %1 sends no request in the schedule")
                      .arg(json_input::quoted(target.client)));
    }
    return best;
}

// Whose grants count against the request: the global limiter's grants since the first instant
// that still counts, by client, busiest first.
std::vector<ClientUse> usedBy(const std::vector<Grant>& grants, qint64 sinceMs) {
    std::map<QString, qint64> byClient;
    for (const Grant& g : grants) {
        if (g.atMs >= sinceMs) {
            byClient[g.client] += g.permits;
        }
    }
    std::vector<ClientUse> out;
    for (const auto& [client, permits] : byClient) {
        out.push_back({client, permits});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const ClientUse& a, const ClientUse& b) { return a.permits > b.permits; });
    return out;
}

}  // namespace

const LimiterSpec& explainedLimiter(const Scenario& scenario, const QString& limiterName) {
    return findLimiter(scenario, limiterName);
}

qint64 explainedRequest(const Scenario& scenario, const ExplainTarget& target) {
    const ClockSpec& clock = scenario.traffic.clock;
    return chooseRequest(scenario, clock.isVirtual ? clock.startMs : kRealClockStartMs, target);
}

Explanation explainDecision(const Scenario& scenario, const QString& limiterName,
                            const ExplainTarget& target, RedisRouter& router) {
    const LimiterSpec& spec = findLimiter(scenario, limiterName);
    const Algorithm& algorithm = algorithmOf(spec);
    Explanation e;
    e.scenario = scenario.name;
    e.spec = spec;
    const ClockSpec& clock = scenario.traffic.clock;
    e.startEpochMs = clock.isVirtual ? clock.startMs : kRealClockStartMs;
    if (!clock.isVirtual) {
        e.notes << QStringLiteral(
                       "the scenario runs on the real clock; explained on a virtual "
                       "clock starting at %1")
                       .arg(QDateTime::fromMSecsSinceEpoch(e.startEpochMs, QTimeZone::utc())
                                .toString(Qt::ISODateWithMs));
    }
    if (scenario.traffic.mode == AcquireMode::Wait) {
        e.notes << QStringLiteral("wait mode: each request is explained at its first try");
    }
    const qint64 index = chooseRequest(scenario, e.startEpochMs, target);

    // The scratch limiters: the replay's, the state just before the request, the probes'.
    const QString base = QStringLiteral("explain-%1-")
                             .arg(QRandomGenerator::global()->generate64() & 0xffffffffffULL, 10,
                                  16, QLatin1Char('0'));
    LimiterSpec scratch = spec;
    scratch.name = base + spec.name.left(spec_limits::kMaxNameLength - base.size());
    if (spec.time == TimeSource::Redis) {
        scratch.time = TimeSource::Client;
        e.notes << QStringLiteral(
            "\"time\": \"redis\": explained at the scenario's time, not "
            "Redis's clock");
    }
    LimiterSpec beforeSpec = scratch;
    beforeSpec.name = base + QStringLiteral("before");
    LimiterSpec probeSpec = scratch;
    probeSpec.name = base + QStringLiteral("probe");
    const std::unique_ptr<Limiter> replayed = makeLimiter(scratch);
    const std::unique_ptr<Limiter> before = makeLimiter(beforeSpec);
    const std::unique_ptr<Limiter> probe = makeLimiter(probeSpec);
    const ScratchKeys cleanup{router, {replayed.get(), before.get(), probe.get()}};

    // The requests before it, as a virtual run decides them.
    std::vector<Grant> grants;
    ScheduleWalk walk(scenario, e.startEpochMs);
    ScheduleWalk::Step chosen;
    for (ScheduleWalk::Step step = walk.next(); step.index >= 0; step = walk.next()) {
        if (step.index == index) {
            chosen = step;
            break;
        }
        const Decision d = replayed->decide(router, step.request);
        if (d.allowed) {
            grants.push_back({d.atMs, step.request.client, step.request.permits});
        }
    }
    e.index = index;
    e.requests = index + 1;
    e.runMs = chosen.runUs / 1000;
    e.request = chosen.request;

    // The decision, and what Redis held around it.
    e.stateBefore = decisionKeys(router, *replayed, e.request, spec.name);
    algorithm.copyState(router, *replayed, *before, e.request, 10 * 60 * 1000);
    e.decision = replayed->decide(router, e.request);
    e.reason = algorithm.reasonText(spec, e.decision);
    e.stateAfter = decisionKeys(router, *replayed, e.request, spec.name);
    e.quotas = algorithm.headerQuotas(spec, e.decision);
    e.headers = rateLimitHeaders(e.quotas, e.decision,
                                 spec.scope == Scope::PerClient ? e.request.client : QString());

    // What would have let it through, each decided again from the same state.
    Counterfactuals counterfactuals(router, *before, probeSpec.name);
    e.passesAtMs = e.decision.allowed            ? e.request.nowMs
                   : e.decision.retryAfterMs < 0 ? -1
                                                 : counterfactuals.passesAtMs(e.request);
    e.counterfactuals = counterfactuals.parameters(e.request, e.decision.allowed);
    if (spec.scope == Scope::Global) {
        e.capacityUsedBy = usedBy(grants, algorithm.countedSinceMs(spec, e.decision));
    }
    return e;
}

}  // namespace ratelab
