#include "stats/accepted_log.h"

#include <algorithm>
#include <limits>

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

std::vector<AcceptedAt> sortedByTime(std::vector<AcceptedAt> times) {
    std::stable_sort(times.begin(), times.end(),
                     [](const AcceptedAt& a, const AcceptedAt& b) { return a.ms < b.ms; });
    return times;
}

}  // namespace

AdmittedBursts admittedBursts(const std::vector<const AcceptedLog*>& logs,
                              const std::vector<qint64>& windowsMs, int clients, bool perClient) {
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
    bursts.overallRunClock =
        busiestOf(sortedByTime(timesOn(all, &AcceptedRecord::runMs)), windowsMs);
    // Sorted by the limiter's time, the records also give each client's grants in that order.
    std::stable_sort(all.begin(), all.end(), [](const AcceptedRecord& a, const AcceptedRecord& b) {
        return a.limiterMs < b.limiterMs;
    });
    bursts.overall = busiestOf(timesOn(all, &AcceptedRecord::limiterMs), windowsMs);
    if (perClient) {
        std::vector<std::vector<AcceptedAt>> byClient(size_t(std::max(0, clients)));
        for (const AcceptedRecord& r : all) {
            if (r.client >= 0 && r.client < clients) {
                byClient[size_t(r.client)].push_back(AcceptedAt{r.limiterMs, r.permits});
            }
        }
        for (const std::vector<AcceptedAt>& clientTimes : byClient) {
            bursts.perClient.push_back(busiestOf(clientTimes, windowsMs));
        }
    }
    return bursts;
}

}  // namespace ratelab
