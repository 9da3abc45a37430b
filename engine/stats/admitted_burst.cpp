#include "stats/admitted_burst.h"

#include <algorithm>

#include "limiters/algorithm.h"

namespace ratelab {

BusiestInterval busiestInterval(std::vector<AcceptedAt> accepted, qint64 windowMs) {
    std::stable_sort(accepted.begin(), accepted.end(),
                     [](const AcceptedAt& a, const AcceptedAt& b) { return a.ms < b.ms; });
    return busiestIntervalSorted(accepted, windowMs);
}

BusiestInterval busiestIntervalSorted(const std::vector<AcceptedAt>& accepted, qint64 windowMs) {
    BusiestInterval best;
    best.windowMs = windowMs;
    // An interval holding decisions first..last can start at the first one's time: starting
    // there includes every decision a later start would and loses none before it.
    qint64 inside = 0;
    size_t first = 0;
    for (size_t last = 0; last < accepted.size(); ++last) {
        inside += accepted[last].permits;
        while (accepted[last].ms - accepted[first].ms >= windowMs) {
            inside -= accepted[first].permits;
            ++first;
        }
        // Decisions at the same time as `last` after it belong in too: counted when the
        // pointer reaches the last of them, so compare only there.
        if (last + 1 < accepted.size() && accepted[last + 1].ms == accepted[last].ms) {
            continue;
        }
        if (inside > best.permits) {
            best.permits = inside;
            best.fromMs = accepted[first].ms;
            best.firstMs = accepted[first].ms;
            best.lastMs = accepted[last].ms;
        }
    }
    return best;
}

std::vector<qint64> admittedBurstWindows(const std::vector<qint64>& configMs) {
    std::vector<qint64> windows = {1000, 10000, 60000};
    for (qint64 ms : configMs) {
        if (ms >= 1) {
            windows.push_back(ms);
        }
    }
    std::sort(windows.begin(), windows.end());
    windows.erase(std::unique(windows.begin(), windows.end()), windows.end());
    return windows;
}

std::vector<qint64> limiterWindowsMs(const LimiterSpec& spec) {
    return algorithmOf(spec).windowsMs(spec);
}

}  // namespace ratelab
