#include "stats/run_stats.h"

#include <algorithm>

#include "limiters/script_spec.h"

namespace ratelab {

QVector<GroupTotals> groupTotals(const QVector<ClientTotals>& clients, const ClientGroups& groups) {
    QVector<GroupTotals> out(groups.names.size());
    QVector<QVector<double>> accepted(groups.names.size());
    for (int g = 0; g < groups.names.size(); ++g) {
        out[g].group = groups.names[g];
    }
    for (int c = 0; c < clients.size() && c < groups.ofClient.size(); ++c) {
        const ClientTotals& ct = clients[c];
        GroupTotals& gt = out[groups.ofClient[c]];
        ++gt.clients;
        gt += ct;
        accepted[groups.ofClient[c]].push_back(double(ct.accepted));
    }
    for (int g = 0; g < out.size(); ++g) {
        out[g].fairness = jainFairness(accepted[g]);
    }
    return out;
}

namespace {

// The outcome counters stored from `base` on in OutcomeTotals' order (fired, accepted,
// rejected, errors, errorsOpen, errorsClosed and, `withWaited`, waitedMsTotal): fired read first
// (acquire), the outcomes after it, the reverse of the writer's order (recordOutcome), so that
// fired never runs ahead of its outcome.
OutcomeTotals outcomesAt(const CounterArray& counters, int base, bool withWaited) {
    OutcomeTotals t;
    t.fired = counters.getAcquire(base);
    t.accepted = counters.get(base + 1);
    t.rejected = counters.get(base + 2);
    t.errors = counters.get(base + 3);
    t.errorsOpen = counters.get(base + 4);
    t.errorsClosed = counters.get(base + 5);
    t.waitedMsTotal = withWaited ? counters.get(base + 6) : 0;
    return t;
}

}  // namespace

LimiterCounters::LimiterCounters(int buckets, int clients, const int* groupOf, int groups,
                                 bool compared, ExtraBucketSeries extra)
    : bucketAccepted_(buckets),
      bucketRejected_(buckets),
      bucketErrors_(buckets),
      bucketErrorsOpen_(buckets),
      bucketErrorsClosed_(buckets),
      compared_(compared),
      bucketDisagreed_(compared ? buckets : 0),
      clientReference_(compared ? 2 * clients : 0),
      clients_(clients * kPerClient),
      groupOf_(groups > 0 ? groupOf : nullptr),
      buckets_(buckets),
      groupBuckets_(groups > 0 ? groups * buckets * kGroupBucketSeries : 0),
      bucketReleased_(extra.leases ? buckets : 0),
      bucketLeaked_(extra.leases ? buckets : 0),
      gatewayBuckets_(extra.gateways > 1 ? extra.gateways * buckets : 0) {}

void LimiterCounters::recordOutcome(int bucket, int client, Outcome outcome, qint64 waitedUs,
                                    ErrorCause cause) {
    const int base = client * kPerClient;
    switch (outcome) {
        case Outcome::Accepted:
            totals_.add(kAccepted, 1);
            bucketAccepted_.add(bucket, 1);
            if (groupOf_ != nullptr) {
                groupBuckets_.add((groupOf_[client] * buckets_ + bucket) * 2, 1);
            }
            clients_.add(base + kClientAccepted, 1);
            clients_.add(base + kClientWaitedMs, waitedUs / 1000);
            if (waitedUs > 0) {
                waited_.record(waitedUs);
            }
            break;
        case Outcome::Rejected:
            totals_.add(kRejected, 1);
            bucketRejected_.add(bucket, 1);
            if (groupOf_ != nullptr) {
                groupBuckets_.add((groupOf_[client] * buckets_ + bucket) * 2 + 1, 1);
            }
            clients_.add(base + kClientRejected, 1);
            break;
        case Outcome::Error:
        case Outcome::FailedOpen:
        case Outcome::FailedClosed:
            totals_.add(kErrors, 1);
            causes_.add(int(cause), 1);
            bucketErrors_.add(bucket, 1);
            clients_.add(base + kClientErrors, 1);
            if (outcome == Outcome::FailedOpen) {
                totals_.add(kErrorsOpen, 1);
                bucketErrorsOpen_.add(bucket, 1);
                clients_.add(base + kClientErrorsOpen, 1);
            } else if (outcome == Outcome::FailedClosed) {
                totals_.add(kErrorsClosed, 1);
                bucketErrorsClosed_.add(bucket, 1);
                clients_.add(base + kClientErrorsClosed, 1);
            }
            break;
    }
    // Fired last, with release: a reader that acquires fired first sees its outcome too, so a
    // live snapshot has fired <= accepted + rejected + errors; a finished run has equality.
    clients_.addRelease(base + kClientFired, 1);
    totals_.addRelease(kFired, 1);
}

void LimiterCounters::recordAttempt(qint64 latencyUs) {
    totals_.add(kAttempts, 1);
    latency_.record(latencyUs);
}

WorkerStats::WorkerStats(int limiters, int buckets, int clients, std::vector<int> groupOf,
                         int groups, const std::vector<bool>& compared, ExtraBucketSeries extra)
    : groupOf_(std::move(groupOf)), agreement_(limiters, buckets) {
    const int* of = groupOf_.empty() ? nullptr : groupOf_.data();
    for (int i = 0; i < limiters; ++i) {
        limiters_.push_back(
            std::make_unique<LimiterCounters>(buckets, clients, of, of ? groups : 0,
                                              size_t(i) < compared.size() && compared[i], extra));
    }
}

RunStats::RunStats(QVector<LimiterSpec> limiters, QStringList clients, int workers, int buckets,
                   ClientGroups groups, ExtraBucketSeries extra)
    : specs_(std::move(limiters)),
      clients_(std::move(clients)),
      groups_(std::move(groups)),
      buckets_(buckets),
      extra_(extra) {
    for (int i = 0; i < workers; ++i) {
        workers_.push_back(newWorker());
    }
}

std::unique_ptr<WorkerStats> RunStats::newWorker() const {
    std::vector<int> groupOf(groups_.ofClient.cbegin(), groups_.ofClient.cend());
    groupOf.resize(groups_.isEmpty() ? 0 : size_t(clients_.size()), 0);
    std::vector<bool> compared;
    for (const LimiterSpec& spec : specs_) {
        compared.push_back(referenceSpecOf(spec).has_value());
    }
    return std::make_unique<WorkerStats>(specs_.size(), buckets_, clients_.size(),
                                         std::move(groupOf), int(groups_.names.size()), compared,
                                         extra_);
}

std::unique_ptr<WorkerStats> RunStats::takeWorker(int i) {
    std::unique_ptr<WorkerStats> taken = std::move(workers_[size_t(i)]);
    workers_[size_t(i)] = newWorker();
    return taken;
}

void RunStats::adoptWorker(std::unique_ptr<WorkerStats> stats) {
    Q_ASSERT(stats && stats->limiters_.size() == size_t(specs_.size()));
    workers_.push_back(std::move(stats));
}

void RunStats::dropAcceptedLogs() {
    for (const auto& worker : workers_) {
        for (const auto& limiter : worker->limiters_) {
            limiter->logsAccepted_ = false;
        }
    }
}

void RunStats::setSpec(int i, const LimiterSpec& spec) {
    std::lock_guard<std::mutex> lock(specMutex_);
    specs_[i] = spec;
}

void RunStats::fill(RunSnapshot& snapshot) const {
    snapshot.limiters.clear();
    snapshot.lag = LatencyHistogram::Snapshot{};
    snapshot.scheduled = 0;
    snapshot.disagreements.clear();
    snapshot.failovers.clear();
    snapshot.stopCause.clear();
    snapshot.pipeline = PipelineUse{};
    for (const auto& w : workers_) {
        snapshot.pipeline.batches += w->pipeline_.get(WorkerStats::kBatches);
        snapshot.pipeline.decisions += w->pipeline_.get(WorkerStats::kDecisionsSent);
        snapshot.pipeline.roundTrips += w->pipeline_.get(WorkerStats::kRoundTrips);
        for (int e = 0; e < kPipelineEnds; ++e) {
            snapshot.pipeline.endedBy[e] += w->pipeline_.get(WorkerStats::kEnds + e);
        }
        snapshot.lag.merge(w->lag_.snapshot());
        snapshot.scheduled += w->scheduled_.get(0);
        w->agreement_.addTo(snapshot.disagreements);
        std::lock_guard<std::mutex> lock(w->failoverMutex_);
        if (snapshot.stopCause.isEmpty()) {
            snapshot.stopCause = w->stopCause_;
        }
        for (const FailoverEvent& f : w->failovers_) {
            // Every worker sees the same move: the earliest sighting stands for it.
            auto same = std::find_if(
                snapshot.failovers.begin(), snapshot.failovers.end(),
                [&](const FailoverEvent& g) { return g.from == f.from && g.to == f.to; });
            if (same == snapshot.failovers.end()) {
                snapshot.failovers.append(f);
            } else {
                same->atUs = std::min(same->atUs, f.atUs);
            }
        }
    }
    std::sort(snapshot.failovers.begin(), snapshot.failovers.end(),
              [](const FailoverEvent& a, const FailoverEvent& b) { return a.atUs < b.atUs; });
    for (int l = 0; l < specs_.size(); ++l) {
        LimiterSnapshot out;
        {
            std::lock_guard<std::mutex> lock(specMutex_);  // not the hot path: readers only
            out.spec = specs_[l];
        }
        out.bucketAccepted.fill(0, buckets_);
        out.bucketRejected.fill(0, buckets_);
        out.bucketErrors.fill(0, buckets_);
        out.bucketErrorsOpen.fill(0, buckets_);
        out.bucketErrorsClosed.fill(0, buckets_);
        if (extra_.leases) {
            out.bucketReleased.fill(0, buckets_);
            out.bucketLeaked.fill(0, buckets_);
        }
        out.hasReference = referenceSpecOf(out.spec).has_value();
        if (out.hasReference) {
            out.bucketDisagreed.fill(0, buckets_);
        }
        out.clients.resize(clients_.size());
        for (int c = 0; c < clients_.size(); ++c) {
            out.clients[c].client = clients_[c];
            if (c < groups_.ofClient.size()) {
                out.clients[c].group = groups_.names[groups_.ofClient[c]];
            }
        }
        for (const auto& w : workers_) {
            const LimiterCounters& lc = *w->limiters_[size_t(l)];
            out += outcomesAt(lc.totals_, LimiterCounters::kFired, false);
            out.attempts += lc.totals_.get(LimiterCounters::kAttempts);
            out.leases.released += lc.totals_.get(LimiterCounters::kReleased);
            out.leases.lateReleases += lc.totals_.get(LimiterCounters::kLateReleases);
            out.leases.leaked += lc.totals_.get(LimiterCounters::kLeaked);
            out.leases.expired += lc.totals_.get(LimiterCounters::kExpiredLeases);
            out.redisCalls += lc.totals_.get(LimiterCounters::kRedisCalls);
            out.reference.compared += lc.totals_.get(LimiterCounters::kCompared);
            out.reference.disagreed += lc.totals_.get(LimiterCounters::kDisagreed);
            for (int g = 0; g < scenario_limits::kMaxGateways; ++g) {
                const int at = LimiterCounters::kPerGateway * g;
                const qint64 decisions = lc.gateways_.get(at);
                if (decisions > 0 && out.gateways.size() <= g) {
                    out.gateways.resize(g + 1);
                }
                if (decisions > 0) {
                    out.gateways[g].decisions += decisions;
                    out.gateways[g].redisCalls += lc.gateways_.get(at + 1);
                    out.gateways[g].accepted += lc.gateways_.get(at + 2);
                }
            }
            for (int c = 0; c < kErrorCauses; ++c) {
                out.errorCauses[c] += lc.causes_.get(c);
            }
            for (int b = 0; b < buckets_; ++b) {
                out.bucketAccepted[b] += lc.bucketAccepted_.get(b);
                out.bucketRejected[b] += lc.bucketRejected_.get(b);
                out.bucketErrors[b] += lc.bucketErrors_.get(b);
                out.bucketErrorsOpen[b] += lc.bucketErrorsOpen_.get(b);
                out.bucketErrorsClosed[b] += lc.bucketErrorsClosed_.get(b);
                if (out.hasReference && lc.compared_) {
                    out.bucketDisagreed[b] += lc.bucketDisagreed_.get(b);
                }
            }
            for (int b = 0; b < lc.bucketReleased_.size() && b < buckets_; ++b) {
                out.bucketReleased[b] += lc.bucketReleased_.get(b);
                out.bucketLeaked[b] += lc.bucketLeaked_.get(b);
            }
            for (int c = 0; c < clients_.size(); ++c) {
                out.clients[c] += outcomesAt(lc.clients_, c * LimiterCounters::kPerClient, true);
                if (lc.compared_) {
                    out.clients[c].reference.compared += lc.clientReference_.get(2 * c);
                    out.clients[c].reference.disagreed += lc.clientReference_.get(2 * c + 1);
                }
            }
            out.latency.merge(lc.latency_.snapshot());
            out.waited.merge(lc.waited_.snapshot());
        }
        for (int g = 0; g < extra_.gateways && g < out.gateways.size(); ++g) {
            QVector<qint64>& buckets = out.gateways[g].bucketAccepted;
            buckets.fill(0, buckets_);
            for (const auto& w : workers_) {
                const CounterArray& counts = w->limiters_[size_t(l)]->gatewayBuckets_;
                for (int b = 0; b < buckets_ && g * buckets_ + b < counts.size(); ++b) {
                    buckets[b] += counts.get(g * buckets_ + b);
                }
            }
        }
        QVector<double> accepted;
        for (const ClientTotals& ct : out.clients) {
            accepted.push_back(double(ct.accepted));
            out.waitedMsTotal += ct.waitedMsTotal;
        }
        out.fairness = jainFairness(accepted);
        out.groups = groupTotals(out.clients, groups_);
        for (int g = 0; g < out.groups.size(); ++g) {
            GroupTotals& gt = out.groups[g];
            gt.bucketAccepted.fill(0, buckets_);
            gt.bucketRejected.fill(0, buckets_);
            for (const auto& w : workers_) {
                const LimiterCounters& lc = *w->limiters_[size_t(l)];
                if (lc.groupOf_ == nullptr) {
                    continue;
                }
                for (int b = 0; b < buckets_; ++b) {
                    const int at = (g * buckets_ + b) * 2;
                    gt.bucketAccepted[b] += lc.groupBuckets_.get(at);
                    gt.bucketRejected[b] += lc.groupBuckets_.get(at + 1);
                }
            }
        }
        snapshot.limiters.push_back(std::move(out));
    }
}

AdmittedBursts RunStats::admittedBursts(int l, const std::vector<qint64>& windowsMs,
                                        bool perClient) const {
    std::vector<const AcceptedLog*> logs;
    for (const auto& w : workers_) {
        logs.push_back(&w->limiters_[size_t(l)]->accepted_);
    }
    return ratelab::admittedBursts(logs, windowsMs, clients_.size(), perClient, groups_);
}

}  // namespace ratelab
