#include "run/scenario_explainer.h"

#include <QDateTime>
#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "explain/decision_explainer.h"
#include "input_error.h"
#include "interrupt_flag.h"
#include "json_input.h"
#include "limiters/scratch_keys.h"
#include "limiters/script_spec.h"
#include "redis/redis_error.h"
#include "redis/redis_router.h"
#include "run/schedule_decider.h"
#include "run/schedule_walk.h"

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
        throwIfInterrupted("finding the request to explain");
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

namespace {

// Watches a schedule decided up to the explained request: the grants before it (whose
// capacity a global limiter's refusal names) and the ones released in time; and explains the
// request itself around its batch, through its gateway (a gateway of mode local decides on its
// own limiter, "<name>@g<g>", shown by that name).
class ExplainObserver final : public DecisionObserver {
public:
    ExplainObserver(qint64 index, RedisRouter& router, const ScheduleDecider& decider,
                    QString scratchBase)
        : index_(index), router_(router), decider_(decider), base_(std::move(scratchBase)) {}

    bool explains(qint64 k) const override { return k == index_; }
    void before(const Attempt& attempt, const Limiter& limiter) override {
        const LimiterSpec& spec = decider_.scenario().limiters[0];
        const int g = attempt.job.gateway;
        const QString shown = spec.gateway.mode == GatewayMode::Local
                                  ? GatewayState::localName(shownName_, g)
                                  : shownName_;
        explainer_ = std::make_unique<DecisionExplainer>(router_, limiter, shown, base_);
        explainer_->before(attempt.request);
        sentAt_ = std::chrono::steady_clock::now();
    }
    void decided(const Attempt& attempt, const DecisionPath::Result& result) override {
        if (keepAlive_.due()) {
            keepAlive_.keep(router_, decider_.limitersWithKeys());
        }
        if (attempt.job.k == index_ && attempt.firstTry) {
            if (!result.decided) {
                std::rethrow_exception(result.failure);
            }
            explained_ = explainer_->after(attempt.request, result.decision, result.byGateway,
                                           attempt.job.gateway,
                                           std::chrono::duration_cast<std::chrono::microseconds>(
                                               std::chrono::steady_clock::now() - sentAt_)
                                               .count(),
                                           result.referenceDecided ? &result.reference : nullptr);
            runUs_ = attempt.job.scheduledRunUs;
            return;
        }
        if (result.decided && result.decision.allowed) {
            grants_.push_back({result.decision.atMs, attempt.request.client,
                               attempt.request.permits, attempt.job.k});
        }
    }
    void released(int, qint64 k, Release release) override {
        if (release != Release::Leaked) {
            ++releases_;
        }
        if (release == Release::InTime) {
            released_.insert(k);
        }
    }

    QString shownName_;
    std::optional<Explanation> explained_;
    qint64 runUs_ = 0;
    std::vector<Grant> grants_;
    std::set<qint64> released_;  // grants whose slots no longer count (released in time)
    qint64 releases_ = 0;

private:
    qint64 index_;
    RedisRouter& router_;
    const ScheduleDecider& decider_;
    QString base_;
    std::unique_ptr<DecisionExplainer> explainer_;
    std::chrono::steady_clock::time_point sentAt_{};
    ScratchKeepAlive keepAlive_;  // a walk longer than the scratch keys' capped TTLs
};

}  // namespace

Explanation explainDecision(const Scenario& scenario, const QString& limiterName,
                            const ExplainTarget& target, RedisRouter& router) {
    findLimiter(scenario, limiterName);  // named first, as the command line checks it
    return explainRequest(scenario, limiterName, explainedRequest(scenario, target), router);
}

Explanation explainRequest(const Scenario& scenario, const QString& limiterName, qint64 index,
                           RedisRouter& router) {
    const LimiterSpec& spec = findLimiter(scenario, limiterName);
    const Algorithm& algorithm = algorithmOf(spec);
    const ClockSpec& clock = scenario.traffic.clock;
    const qint64 startEpochMs = clock.isVirtual ? clock.startMs : kRealClockStartMs;
    QStringList notes;
    if (!clock.isVirtual) {
        notes << QStringLiteral(
                     "the scenario runs on the real clock; explained on a virtual "
                     "clock starting at %1")
                     .arg(QDateTime::fromMSecsSinceEpoch(startEpochMs, QTimeZone::utc())
                              .toString(Qt::ISODateWithMs));
    }
    if (scenario.traffic.mode == AcquireMode::Wait) {
        notes << QStringLiteral(
            "wait mode: the request's first try is explained (the retries of the requests "
            "before it are decided as a run decides them)");
    }
    // The schedule is decided under a scratch name (its gateways' own limiters too); the
    // explainer keeps two more.
    const QString base = explainScratchBase();
    Scenario scratch = scenario;
    scratch.limiters = {spec};
    scratch.limiters[0].name = base + spec.name.left(spec_limits::kMaxNameLength - base.size());
    scratch.expectations.clear();
    if (spec.time == TimeSource::Redis) {
        scratch.limiters[0].time = TimeSource::Client;
        notes << QStringLiteral(
            "\"time\": \"redis\": explained at the scenario's time, not Redis's clock");
    }
    ScheduleDecider::Options options;
    options.limiters = scratchOptions();
    options.connect = router.options();
    options.keepAcceptedLogs = false;
    options.limiters.keepRawReplies = true;            // a script limiter's reply, shown as it came
    options.pipeline = scenario_limits::kMaxPipeline;  // the requests before it, pipelined
    if (onRedisClock(spec)) {
        // Its keys' TTLs run on Redis's clock: the requests before it go at their own pace.
        options.speed = 1;
        notes << QStringLiteral(
            "\"clock\": \"redis\": the schedule up to the request was paced in real time");
    }
    ScheduleDecider decider(std::move(scratch), router.url(), startEpochMs, options);
    // The scratch keys go however this ends (an error, an interrupt).
    struct Cleanup {
        RedisRouter& router;
        const ScheduleDecider& decider;
        ~Cleanup() { deleteScratchKeys(router, decider.limitersWithKeys()); }
    } cleanup{router, decider};
    decider.resetKeys(router);

    ExplainObserver observer(index, router, decider, base);
    observer.shownName_ = spec.name;
    decider.setObserver(&observer);
    // In stretches, with the interrupt read in between: on a quick Redis every answer comes
    // within the interrupt's grace, so a long schedule stops here, and `cleanup` runs.
    constexpr qint64 kStretch = 4096;
    for (qint64 k = std::min(index, kStretch - 1);; k = std::min(index, k + kStretch)) {
        throwIfInterrupted("deciding the requests before the one explained");
        if (!decider.advanceThrough(k)) {
            throw InputError(
                QStringLiteral("--request"),
                QStringLiteral("request %1 is past the end of the schedule (0-based)").arg(index));
        }
        if (k == index) {
            break;
        }
    }
    if (!observer.explained_) {
        throw RedisError(RedisError::Kind::Reply, "the explained request was not decided");
    }
    if (observer.releases_ > 0) {
        notes << QStringLiteral("%1 grant(s) before it released their slots after their hold")
                     .arg(observer.releases_);
    }
    Explanation decided = std::move(*observer.explained_);
    decided.scenario = scenario.name;
    decided.spec = spec;
    decided.startEpochMs = startEpochMs;
    decided.notes = notes + decided.notes;
    decided.index = index;
    decided.requests = index + 1;
    decided.runMs = observer.runUs_ / 1000;
    if (spec.scope == Scope::Global) {
        decided.capacityUsedBy = usedBy(
            observer.grants_, algorithm.countedSinceMs(spec, decided.decision), observer.released_);
    }
    return decided;
}

}  // namespace ratelab
