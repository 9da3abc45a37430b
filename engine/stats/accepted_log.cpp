#include "stats/accepted_log.h"

#include <algorithm>
#include <limits>

namespace ratelab {

void AcceptedLog::record(qint64 ms, int client, qint64 permits) {
    if (!records_.empty()) {
        AcceptedRecord& last = records_.back();
        if (last.ms == ms && last.client == client &&
            qint64(last.permits) + permits <= std::numeric_limits<qint32>::max()) {
            last.permits += qint32(permits);
            return;
        }
    }
    records_.push_back(AcceptedRecord{ms, qint32(client), qint32(permits)});
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
    std::stable_sort(all.begin(), all.end(),
                     [](const AcceptedRecord& a, const AcceptedRecord& b) { return a.ms < b.ms; });
    AdmittedBursts bursts;
    {
        std::vector<AcceptedAt> times;
        times.reserve(all.size());
        for (const AcceptedRecord& r : all) {
            times.push_back(AcceptedAt{r.ms, r.permits});
        }
        bursts.overall = busiestOf(times, windowsMs);
    }
    if (perClient) {
        std::vector<std::vector<AcceptedAt>> byClient(size_t(std::max(0, clients)));
        for (const AcceptedRecord& r : all) {
            if (r.client >= 0 && r.client < clients) {
                byClient[size_t(r.client)].push_back(AcceptedAt{r.ms, r.permits});
            }
        }
        for (const std::vector<AcceptedAt>& times : byClient) {
            bursts.perClient.push_back(busiestOf(times, windowsMs));
        }
    }
    return bursts;
}

}  // namespace ratelab
