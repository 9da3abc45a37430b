#include "run/scenario_explainer.h"

#include <QDateTime>
#include <algorithm>
#include <map>
#include <set>

#include "explain/decision_explainer.h"
#include "input_error.h"
#include "json_input.h"
#include "run/schedule_walk.h"
#include "run/walk_decider.h"

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

void resetScratch(RedisRouter& router, const Limiter& limiter) {
    try {
        limiter.reset(router);
    } catch (...) {
        // Redis went away: the scratch keys are a scratch name's alone, most with a TTL.
    }
}

struct Grant {
    qint64 atMs;
    QString client;
    qint64 permits;
    qint64 index;  // in the schedule
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
// that still counts and not released before it, by client, busiest first.
std::vector<ClientUse> usedBy(const std::vector<Grant>& grants, qint64 sinceMs,
                              const std::set<qint64>& released) {
    std::map<QString, qint64> byClient;
    for (const Grant& g : grants) {
        if (g.atMs >= sinceMs && released.count(g.index) == 0) {
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

    // The replay's scratch limiter; the explainer keeps its own two.
    const QString base = explainScratchBase();
    LimiterSpec scratch = spec;
    scratch.name = base + spec.name.left(spec_limits::kMaxNameLength - base.size());
    if (spec.time == TimeSource::Redis) {
        scratch.time = TimeSource::Client;
        e.notes << QStringLiteral(
            "\"time\": \"redis\": explained at the scenario's time, not "
            "Redis's clock");
    }
    const std::unique_ptr<Limiter> replayed = makeLimiter(scratch);
    // The gateways' own state and the grants' releases, as the run keeps them.
    WalkDecider decider({replayed.get()}, scenario.traffic, WalkDecider::batchRequests(scenario));
    std::set<qint64> released;  // grants whose slots no longer count (released in time)
    decider.setReleaseSink([&](int, qint64 k, WalkDecider::Release release) {
        if (release == WalkDecider::Release::InTime) {
            released.insert(k);
        }
    });
    struct Cleanup {
        RedisRouter& router;
        const Limiter& limiter;
        const WalkDecider& decider;
        ~Cleanup() {
            resetScratch(router, limiter);
            try {
                decider.reset(router);
            } catch (...) {
                // As resetScratch: the gateways' scratch keys are theirs alone.
            }
        }
    } cleanup{router, *replayed, decider};

    // The requests before it, as a virtual run decides them.
    std::vector<Grant> grants;
    ScheduleWalk walk(scenario, e.startEpochMs);
    ScheduleWalk::Step chosen;
    for (ScheduleWalk::Step step = walk.next(); step.index >= 0; step = walk.next()) {
        decider.begin(router, step);
        if (step.index == index) {
            chosen = step;
            break;
        }
        const Decision d = decider.decide(router, 0, step);
        if (d.allowed) {
            grants.push_back({d.atMs, step.request.client, step.request.permits, step.index});
        }
    }
    if (decider.releasesMade() > 0) {
        e.notes << QStringLiteral("%1 grant(s) before it released their slots after their hold")
                       .arg(decider.releasesMade());
    }

    // A gateway of mode local decides on its own limiter ("<name>@g<g>"), shown by that name.
    const int g = chosen.gateway;
    const bool local = spec.gateway.mode == GatewayMode::Local;
    DecisionExplainer explainer(router, decider.limiter(0, g),
                                local ? GatewayState::localName(spec.name, g) : spec.name, base);
    bool byGateway = false;
    Explanation decided = explainer.decide(
        chosen.request, DecisionExplainer::Gateway{g, [&] {
                                                       std::optional<Decision> d =
                                                           decider.decideLocally(router, 0, chosen);
                                                       byGateway = d.has_value();
                                                       return d;
                                                   }});
    decided.scenario = e.scenario;
    decided.spec = spec;
    decided.startEpochMs = e.startEpochMs;
    decided.notes = e.notes + decided.notes;
    decided.index = index;
    decided.requests = index + 1;
    decided.runMs = chosen.runUs / 1000;
    if (!byGateway) {
        decided.reason = algorithm.reasonText(spec, decided.decision);
    }
    if (spec.scope == Scope::Global) {
        decided.capacityUsedBy =
            usedBy(grants, algorithm.countedSinceMs(spec, decided.decision), released);
    }
    return decided;
}

}  // namespace ratelab
