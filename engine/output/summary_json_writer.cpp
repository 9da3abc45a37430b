#include <QJsonArray>
#include <cmath>

#include "output/summary_json.h"

namespace ratelab {
namespace {

namespace key = output_format::key;

QJsonObject percentilesJson(const Percentiles& p) {
    return QJsonObject{{key::kCount, double(p.count)}, {key::kP50Ms, p.p50Ms},
                       {key::kP90Ms, p.p90Ms},         {key::kP99Ms, p.p99Ms},
                       {key::kP999Ms, p.p999Ms},       {key::kMaxMs, p.maxMs},
                       {key::kMeanMs, p.meanMs}};
}

QJsonObject causesJson(const QMap<QString, qint64>& causes) {
    QJsonObject out;
    for (auto it = causes.begin(); it != causes.end(); ++it) {
        out.insert(it.key(), double(it.value()));
    }
    return out;
}

// One figure per window (burstMetricName) and the list: [{"window_ms", "accepted", "from_ms",
// "first_ms", "last_ms"}] ascending by window (ms since the run's start).
void insertAdmittedBurst(QJsonObject& object, const std::vector<BusiestInterval>& bursts,
                         BurstClock clock) {
    QJsonArray list;
    for (const BusiestInterval& b : bursts) {
        object.insert(burstMetricName(b.windowMs, clock), double(b.permits));
        list.append(QJsonObject{{key::kWindowMs, double(b.windowMs)},
                                {key::kAccepted, double(b.permits)},
                                {key::kFromMs, double(b.fromMs)},
                                {key::kFirstMs, double(b.firstMs)},
                                {key::kLastMs, double(b.lastMs)}});
    }
    object.insert(clock == BurstClock::Run ? key::kAdmittedBurstRunClock : key::kAdmittedBurst,
                  list);
}

// `hasReference`: a script limiter's, whose comparisons with its reference are written too.
void insertCounts(QJsonObject& object, const OutcomeTotals& c, bool hasReference) {
    object.insert(key::kFired, double(c.fired));
    object.insert(key::kAccepted, double(c.accepted));
    object.insert(key::kRejected, double(c.rejected));
    object.insert(key::kErrors, double(c.errors));
    object.insert(key::kErrorsOpen, double(c.errorsOpen));
    object.insert(key::kErrorsClosed, double(c.errorsClosed));
    object.insert(key::kWaitedMsTotal, double(c.waitedMsTotal));
    if (hasReference) {
        object.insert(key::kComparedWithReference, double(c.reference.compared));
        object.insert(key::kDisagreementsWithReference, double(c.reference.disagreed));
    }
}

QJsonObject clientJson(const ClientSummary& c, bool hasReference) {
    QJsonObject client{{key::kClient, c.client}};
    if (!c.group.isEmpty()) {
        client.insert(key::kGroup, c.group);
    }
    insertCounts(client, c.counts, hasReference);
    if (!c.admittedBurst.empty()) {
        insertAdmittedBurst(client, c.admittedBurst, BurstClock::Limiter);
    }
    return client;
}

QJsonObject groupJson(const GroupSummary& g, bool hasReference) {
    QJsonObject group{
        {key::kGroup, g.group}, {key::kClients, double(g.clients)}, {key::kFairness, g.fairness}};
    insertCounts(group, g.counts, hasReference);
    insertAdmittedBurst(group, g.admittedBurst, BurstClock::Limiter);
    insertAdmittedBurst(group, g.admittedBurstRunClock, BurstClock::Run);
    return group;
}

QJsonObject otherClientsJson(const OtherClients& o, bool hasReference) {
    QJsonObject others{{key::kClients, double(o.clients)}};
    insertCounts(others, o.counts, hasReference);
    return others;
}

QJsonObject limiterJson(const LimiterSummary& l) {
    QJsonArray clients;
    for (const ClientSummary& c : l.clients) {
        clients.append(clientJson(c, l.hasReference));
    }
    QJsonArray groups;
    for (const GroupSummary& g : l.groups) {
        groups.append(groupJson(g, l.hasReference));
    }
    QJsonObject limiter{{key::kName, l.name},
                        {key::kType, l.type},
                        {key::kOnError, l.onError},
                        {key::kAttempts, double(l.attempts)},
                        {key::kErrorsByCause, causesJson(l.errorsByCause)},
                        {key::kAccountingExact, l.accountingExact},
                        {key::kLatency, percentilesJson(l.latency)},
                        {key::kWaited, percentilesJson(l.waited)},
                        {key::kFairness, l.fairness},
                        {key::kClients, clients}};
    if (l.spec) {
        // Self-contained: a script limiter's Lua inline, readable wherever the folder goes.
        limiter.insert(key::kSpec, limiterSpecToJson(*l.spec, SpecFiles::Inline));
    }
    if (!groups.isEmpty()) {
        limiter.insert(key::kGroups, groups);
    }
    insertCounts(limiter, l.counts, l.hasReference);
    if (l.leases.any()) {
        limiter.insert(key::kLeases,
                       QJsonObject{{key::kReleased, double(l.leases.released)},
                                   {key::kLateReleases, double(l.leases.lateReleases)},
                                   {key::kLeaked, double(l.leases.leaked)},
                                   {key::kExpired, double(l.leases.expired)}});
    }
    if (l.redisCalls >= 0) {
        QJsonArray gateways;
        for (qsizetype g = 0; g < l.gateways.size(); ++g) {
            gateways.append(QJsonObject{{key::kGateway, double(g)},
                                        {key::kDecisions, double(l.gateways[g].decisions)},
                                        {key::kRedisCalls, double(l.gateways[g].redisCalls)},
                                        {key::kAccepted, double(l.gateways[g].accepted)}});
        }
        limiter.insert(key::kRedisCalls, double(l.redisCalls));
        limiter.insert(key::kGateways, gateways);
    }
    if (l.otherClients.clients > 0) {
        limiter.insert(key::kOtherClients, otherClientsJson(l.otherClients, l.hasReference));
    }
    insertAdmittedBurst(limiter, l.admittedBurst, BurstClock::Limiter);
    insertAdmittedBurst(limiter, l.admittedBurstRunClock, BurstClock::Run);
    return limiter;
}

// [{"limiter", "expression", "metric", "op", "threshold", "measured", "held"}] (measured null
// when the run has no such figure).
QJsonArray expectationsJson(const QVector<ExpectationResult>& results) {
    QJsonArray out;
    for (const ExpectationResult& r : results) {
        const Expectation& e = r.expectation;
        out.append(
            QJsonObject{{key::kLimiter, r.limiter},
                        {key::kExpression, e.text()},
                        {key::kMetric, e.metric},
                        {key::kOp, compareOpName(e.op)},
                        {key::kThreshold, e.threshold},
                        {key::kMeasured, std::isnan(r.measured) ? QJsonValue(QJsonValue::Null)
                                                                : QJsonValue(r.measured)},
                        {key::kHeld, r.held}});
    }
    return out;
}

QJsonArray disagreementsJson(const QVector<DisagreementSummary>& pairs) {
    QJsonArray out;
    for (const DisagreementSummary& d : pairs) {
        out.append(QJsonObject{{key::kLimiters, QJsonArray{d.a, d.b}},
                               {key::kCompared, double(d.compared)},
                               {key::kDisagreed, double(d.disagreed)}});
    }
    return out;
}

QJsonArray failoversJson(const QVector<FailoverSummary>& failovers) {
    QJsonArray out;
    for (const FailoverSummary& f : failovers) {
        QJsonObject around;
        for (const auto& [limiter, accepted] : f.acceptedAround) {
            around.insert(limiter, double(accepted));
        }
        out.append(QJsonObject{{key::kAtMs, f.atMs},
                               {key::kFrom, f.from},
                               {key::kTo, f.to},
                               {key::kAcceptedAround, around}});
    }
    return out;
}

}  // namespace

QJsonObject pipelineJson(const PipelineSummary& p) {
    return QJsonObject{
        {key::kRequested, p.requested},         {key::kThreads, p.threads},
        {key::kBatches, double(p.batches)},     {key::kRoundTrips, double(p.roundTrips)},
        {key::kDecisions, double(p.decisions)}, {key::kEndedBy, causesJson(p.endedBy)},
        {key::kLimitedBy, p.limitedBy}};
}

QJsonObject summaryToJson(const RunSummary& s) {
    QJsonArray limiters;
    for (const LimiterSummary& l : s.limiters) {
        limiters.append(limiterJson(l));
    }
    QJsonObject json{
        {key::kFormat, output_format::kFormat},
        {key::kScenario, s.scenario},
        {key::kClock, s.virtualClock ? output_format::kVirtualClock : output_format::kRealClock},
        {key::kClockSpeed, s.clockSpeed},
        {key::kRoundTrips, s.roundTripPerLimiter ? output_format::kPerLimiterRoundTrips
                                                 : output_format::kSharedRoundTrips},
        {key::kPipeline, pipelineJson(s.pipeline)},
        {key::kExpectations, expectationsJson(s.expectations)},
        {key::kVerdict, s.verdict},
        {key::kVerdictReason, s.verdictReason},
        {key::kStartEpochMs, double(s.startEpochMs)},
        {key::kDurationS, s.durationS},
        {key::kRunS, s.runS},
        {key::kFinished, s.finished},
        {key::kStoppedEarly, s.stoppedEarly},
        {key::kErrorsByCause, causesJson(s.errorsByCause)},
        {key::kBucketMs, double(s.bucketMs)},
        {key::kRequests, double(s.requests)},
        {key::kTargetRate, s.targetRate},
        {key::kAchievedRate, s.achievedRate},
        {key::kScheduleLag, percentilesJson(s.scheduleLag)},
        {key::kLimiters, limiters},
        {key::kDisagreements, disagreementsJson(s.disagreements)}};
    if (!s.failovers.isEmpty()) {
        json.insert(key::kFailovers, failoversJson(s.failovers));
    }
    return json;
}

QJsonObject summaryJson(const RunSnapshot& run) {
    return summaryToJson(summaryOf(run));
}

}  // namespace ratelab
