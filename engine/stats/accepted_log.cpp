#include "stats/accepted_log.h"

#include <algorithm>
#include <limits>

#include "stats/run_snapshot.h"

namespace ratelab {

void AcceptedLog::record(qint64 runMs, qint64 limiterMs, int client, qint64 permits) {
    if (!records_.empty()) {
        AcceptedRecord& last = records_.back();
        if (last.runMs == runMs && last.limiterMs == limiterMs && last.client == client &&
            qint64(last.permits) + permits <= std::numeric_limits<qint32>::max()) {
            last.permits += qint32(permits);
            return;
        }
    }
    records_.push_back(AcceptedRecord{runMs, limiterMs, qint32(client), qint32(permits)});
}

namespace {

std::vector<BusiestInterval> busiestOf(const std::vector<AcceptedAt>& sorted,
                                       const std::vector<qint64>& windowsMs) {
    std::vector<BusiestInterval> out;
    out.reserve(windowsMs.size());
    for (qint64 window : windowsMs) {
        out.push_back(busiestIntervalSorted(sorted, window));
    }
    return out;
}

// Every record's time on one clock (a member of AcceptedRecord) with its permits.
std::vector<AcceptedAt> timesOn(const std::vector<AcceptedRecord>& records,
                                qint64 AcceptedRecord::*clock) {
    std::vector<AcceptedAt> times;
    times.reserve(records.size());
    for (const AcceptedRecord& r : records) {
        times.push_back(AcceptedAt{r.*clock, r.permits});
    }
    return times;
}

// The busiest intervals of each part (`partOf` a record's part, -1 none) of records already in
// order on `clock`.
template <typename PartOf>
std::vector<std::vector<BusiestInterval>> busiestPerPart(const std::vector<AcceptedRecord>& sorted,
                                                         qint64 AcceptedRecord::*clock, int parts,
                                                         PartOf partOf,
                                                         const std::vector<qint64>& windowsMs) {
    std::vector<std::vector<AcceptedAt>> byPart(size_t(std::max(0, parts)));
    for (const AcceptedRecord& r : sorted) {
        const int part = partOf(r);
        if (part >= 0 && part < parts) {
            byPart[size_t(part)].push_back(AcceptedAt{r.*clock, r.permits});
        }
    }
    std::vector<std::vector<BusiestInterval>> out;
    out.reserve(byPart.size());
    for (std::vector<AcceptedAt>& times : byPart) {
        out.push_back(busiestOf(times, windowsMs));
        std::vector<AcceptedAt>().swap(times);  // freed as it goes
    }
    return out;
}

bool byRunMs(const AcceptedRecord& a, const AcceptedRecord& b) {
    return a.runMs < b.runMs;
}
bool byLimiterMs(const AcceptedRecord& a, const AcceptedRecord& b) {
    return a.limiterMs < b.limiterMs;
}

}  // namespace

AdmittedBursts admittedBursts(const std::vector<const AcceptedLog*>& logs,
                              const std::vector<qint64>& windowsMs, int clients, bool perClient,
                              const ClientGroups& groups) {
    std::vector<AcceptedRecord> all;
    size_t total = 0;
    for (const AcceptedLog* log : logs) {
        total += log->records().size();
    }
    all.reserve(total);
    for (const AcceptedLog* log : logs) {
        all.insert(all.end(), log->records().begin(), log->records().end());
    }
    AdmittedBursts bursts;
    const auto groupOf = [&groups](const AcceptedRecord& r) {
        return r.client >= 0 && r.client < groups.ofClient.size() ? groups.ofClient[r.client] : -1;
    };
    const int groupCount = int(groups.names.size());
    // Sorted by the run's time, the records also give each group's grants in that order.
    std::stable_sort(all.begin(), all.end(), byRunMs);
    bursts.overallRunClock = busiestOf(timesOn(all, &AcceptedRecord::runMs), windowsMs);
    if (groupCount > 0) {
        bursts.perGroupRunClock =
            busiestPerPart(all, &AcceptedRecord::runMs, groupCount, groupOf, windowsMs);
    }
    // Sorted by the limiter's time, the records also give each client's grants in that order.
    std::stable_sort(all.begin(), all.end(), byLimiterMs);
    bursts.overall = busiestOf(timesOn(all, &AcceptedRecord::limiterMs), windowsMs);
    if (perClient) {
        bursts.perClient = busiestPerPart(
            all, &AcceptedRecord::limiterMs, clients,
            [](const AcceptedRecord& r) { return int(r.client); }, windowsMs);
    }
    if (groupCount > 0) {
        bursts.perGroup =
            busiestPerPart(all, &AcceptedRecord::limiterMs, groupCount, groupOf, windowsMs);
    }
    return bursts;
}

void applyAdmittedBursts(const AdmittedBursts& b, LimiterSnapshot& limiter) {
    limiter.admittedBurst = b.overall;
    limiter.admittedBurstRunClock = b.overallRunClock;
    for (int c = 0; c < limiter.clients.size() && size_t(c) < b.perClient.size(); ++c) {
        limiter.clients[c].admittedBurst = b.perClient[size_t(c)];
    }
    for (int g = 0; g < limiter.groups.size() && size_t(g) < b.perGroup.size(); ++g) {
        limiter.groups[g].admittedBurst = b.perGroup[size_t(g)];
        limiter.groups[g].admittedBurstRunClock = b.perGroupRunClock[size_t(g)];
    }
}

}  // namespace ratelab
