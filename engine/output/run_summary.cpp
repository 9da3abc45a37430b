#include "output/run_summary.h"

#include <algorithm>

#include "output/run_verdict.h"

namespace ratelab {
namespace {

double ms(std::int64_t us) {
    return double(us) / 1000.0;
}

Percentiles percentilesOf(const LatencyHistogram::Snapshot& h) {
    Percentiles p;
    p.count = qint64(h.total);
    p.p50Ms = ms(h.percentile(50));
    p.p90Ms = ms(h.percentile(90));
    p.p99Ms = ms(h.percentile(99));
    p.p999Ms = ms(h.percentile(99.9));
    p.maxMs = ms(h.max);
    p.meanMs = h.mean() / 1000.0;
    return p;
}

QMap<QString, qint64> causeMap(const QVector<ErrorCauseCount>& causes) {
    QMap<QString, qint64> out;
    for (const ErrorCauseCount& c : causes) {
        out.insert(errorCauseName(c.cause), c.count);
    }
    return out;
}

// The first `buckets` values of `counts`, zeros past its end.
template <typename T>
QVector<T> sized(const QVector<T>& counts, int buckets) {
    QVector<T> out(buckets);
    for (int b = 0; b < buckets; ++b) {
        out[b] = counts.value(b);
    }
    return out;
}

ClientSummary clientOf(const ClientTotals& c) {
    ClientSummary out;
    out.client = c.client;
    out.group = c.group;
    out.counts = c.outcomes();
    out.admittedBurst = c.admittedBurst;
    return out;
}

GroupSummary groupOf(const GroupTotals& g, int buckets) {
    GroupSummary out;
    out.group = g.group;
    out.clients = g.clients;
    out.counts = g.outcomes();
    out.fairness = g.fairness;
    out.admittedBurst = g.admittedBurst;
    out.admittedBurstRunClock = g.admittedBurstRunClock;
    out.bucketAccepted = sized(g.bucketAccepted, buckets);
    out.bucketRejected = sized(g.bucketRejected, buckets);
    return out;
}

// Which clients are listed one by one: all of them up to `listed`, else the `listed` that sent
// the most requests (ties: the earlier one).
std::vector<bool> listedClients(const QVector<ClientTotals>& clients, int listed) {
    std::vector<bool> keep(size_t(clients.size()), clients.size() <= listed);
    if (clients.size() <= listed) {
        return keep;
    }
    std::vector<int> order(size_t(clients.size()));
    for (int c = 0; c < clients.size(); ++c) {
        order[size_t(c)] = c;
    }
    std::nth_element(order.begin(), order.begin() + listed, order.end(), [&](int a, int b) {
        return clients[a].fired != clients[b].fired ? clients[a].fired > clients[b].fired : a < b;
    });
    for (int i = 0; i < listed; ++i) {
        keep[size_t(order[size_t(i)])] = true;
    }
    return keep;
}

void addTo(OtherClients& others, const ClientTotals& c) {
    ++others.clients;
    others.counts += c;
}

LimiterSummary limiterOf(const LimiterSnapshot& l, int buckets, int maxListedClients) {
    LimiterSummary out;
    out.name = l.spec.name;
    out.type = limiterTypeName(l.spec.type);
    out.onError = failurePolicyName(l.spec.onError);
    out.spec = l.spec;
    out.counts = l.outcomes();
    out.attempts = l.attempts;
    out.leases = l.leases;
    out.hasReference = l.hasReference;
    if (!l.spec.gateway.isDefault() || l.gateways.size() > 1) {
        out.redisCalls = l.redisCalls;
        out.gateways = l.gateways;
    }
    out.errorsByCause = causeMap(nonZeroCauses(l.errorCauses));
    out.accountingExact = l.fired == l.accepted + l.rejected + l.errors;
    out.latency = percentilesOf(l.latency);
    out.waited = percentilesOf(l.waited);
    out.fairness = l.fairness;
    const std::vector<bool> listed = listedClients(l.clients, std::max(0, maxListedClients));
    for (int c = 0; c < l.clients.size(); ++c) {
        if (listed[size_t(c)]) {
            out.clients.append(clientOf(l.clients[c]));
        } else {
            addTo(out.otherClients, l.clients[c]);
        }
    }
    for (const GroupTotals& g : l.groups) {
        out.groups.append(groupOf(g, buckets));
    }
    out.admittedBurst = l.admittedBurst;
    out.admittedBurstRunClock = l.admittedBurstRunClock;
    out.buckets.accepted = sized(l.bucketAccepted, buckets);
    out.buckets.rejected = sized(l.bucketRejected, buckets);
    out.buckets.errors = sized(l.bucketErrors, buckets);
    out.buckets.errorsOpen = sized(l.bucketErrorsOpen, buckets);
    out.buckets.errorsClosed = sized(l.bucketErrorsClosed, buckets);
    if (!l.bucketReleased.isEmpty()) {
        out.buckets.released = sized(l.bucketReleased, buckets);
        out.buckets.leaked = sized(l.bucketLeaked, buckets);
    }
    if (l.hasReference) {
        out.bucketDisagreed = sized(l.bucketDisagreed, buckets);
    }
    return out;
}

}  // namespace

const LimiterSummary* RunSummary::find(const QString& name) const {
    for (const LimiterSummary& l : limiters) {
        if (l.name == name) {
            return &l;
        }
    }
    return nullptr;
}

QStringList groupsWithSeries(const RunSummary& summary) {
    QStringList names;
    for (const LimiterSummary& l : summary.limiters) {
        for (const GroupSummary& g : l.groups) {
            if (!g.bucketAccepted.isEmpty() && !names.contains(g.group)) {
                names << g.group;
            }
        }
    }
    return names;
}

qint64 runLengthUs(const RunSnapshot& run) {
    if (run.finished && run.stoppedEarly) {
        return run.finishedAtUs;  // what it really ran
    }
    return run.finished ? std::max(run.finishedAtUs, run.durationUs) : run.elapsedUs;
}

double achievedRate(const RunSnapshot& run) {
    const qint64 us = runLengthUs(run);
    return us > 0 ? double(run.scheduled) / (double(us) / 1e6) : 0;
}

QVector<ErrorCauseCount> runErrorCauses(const RunSnapshot& run) {
    qint64 total[kErrorCauses] = {};
    for (const LimiterSnapshot& l : run.limiters) {
        for (int c = 0; c < kErrorCauses; ++c) {
            total[c] += l.errorCauses[c];
        }
    }
    return nonZeroCauses(total);
}

namespace {

// Accepted in the buckets that overlap [atUs - span, atUs + span].
qint64 acceptedAround(const LimiterSnapshot& l, qint64 bucketMs, qint64 atUs) {
    const qint64 bucketUs = std::max<qint64>(1, bucketMs) * 1000;
    const qint64 first = std::max<qint64>(0, (atUs - kFailoverSpanMs * 1000) / bucketUs);
    const qint64 last = (atUs + kFailoverSpanMs * 1000) / bucketUs;
    qint64 accepted = 0;
    for (qint64 b = first; b <= last && b < l.bucketAccepted.size(); ++b) {
        accepted += l.bucketAccepted[b];
    }
    return accepted;
}

}  // namespace

QVector<FailoverSummary> failoversOf(const RunSnapshot& run) {
    QVector<FailoverSummary> out;
    for (const FailoverEvent& f : run.failovers) {
        FailoverSummary s{double(f.atUs) / 1000, f.from, f.to, {}};
        for (const LimiterSnapshot& l : run.limiters) {
            s.acceptedAround.append({l.spec.name, acceptedAround(l, run.bucketMs, f.atUs)});
        }
        out.append(s);
    }
    return out;
}

RunSummary summaryOf(const RunSnapshot& run, int maxListedClients) {
    RunSummary s;
    s.scenario = run.scenarioName;
    s.virtualClock = run.virtualClock;
    s.clockSpeed = run.clockSpeed;
    s.roundTripPerLimiter = run.roundTripPerLimiter;
    s.pipeline = pipelineSummaryOf(run);
    s.expectations = run.expectations;
    for (ExpectationResult& r : s.expectations) {
        r.expectation.limiter = r.limiter;  // "*" checked on this limiter
    }
    s.startEpochMs = run.startEpochMs;
    s.durationS = double(run.durationUs) / 1e6;
    s.runS = double(runLengthUs(run)) / 1e6;
    s.finished = run.finished && !run.stoppedEarly;
    s.stoppedEarly = run.stoppedEarly;
    s.errorsByCause = causeMap(runErrorCauses(run));
    s.bucketMs = run.bucketMs;
    s.requests = run.scheduled;
    s.targetRate = run.targetRate;
    s.achievedRate = achievedRate(run);
    s.scheduleLag = percentilesOf(run.lag);
    const int buckets =
        run.limiters.isEmpty() ? 0 : int(run.limiters.front().bucketAccepted.size());
    for (const LimiterSnapshot& l : run.limiters) {
        s.limiters.append(limiterOf(l, buckets, maxListedClients));
    }
    // The pairs compare only when the limiters decided the same requests (try mode).
    if (run.sameRequests) {
        for (const LimiterDisagreement& d : run.disagreements) {
            s.disagreements.append({run.limiters[d.a].spec.name, run.limiters[d.b].spec.name,
                                    d.compared, d.disagreed});
        }
    }
    s.bucketTargetRate = sized(run.bucketTargetRate, buckets);
    s.failovers = failoversOf(run);
    s.verdictReason = incompleteReason(s);
    s.verdict = runVerdict(s);
    return s;
}

}  // namespace ratelab
