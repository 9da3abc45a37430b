#pragma once

#include <QtGlobal>

namespace ratelab {

// What the timelines cost the UI thread, for the window's benchmark (ratelab --ui-bench):
// thread CPU time and wall time spent updating the charts from snapshots and painting them.
// Only the UI thread touches these (the charts are widgets).
struct ChartCost {
    qint64 updateCpuNs = 0;
    qint64 updateWallNs = 0;
    qint64 updates = 0;
    qint64 paintCpuNs = 0;
    qint64 paintWallNs = 0;  // includes waiting for fills handed to Qt's thread pool
    qint64 paints = 0;

    static ChartCost& global();
};

// The calling thread's CPU time in nanoseconds (0 where the platform has no thread clock).
qint64 threadCpuNs();

// Adds the CPU and wall time of its scope to one of ChartCost's pairs.
class ChartCostScope {
public:
    ChartCostScope(qint64* cpuNs, qint64* wallNs, qint64* count);
    ~ChartCostScope();
    ChartCostScope(const ChartCostScope&) = delete;
    ChartCostScope& operator=(const ChartCostScope&) = delete;

private:
    qint64* cpuNs_;
    qint64* wallNs_;
    qint64 cpuStart_;
    qint64 wallStart_;
};

}  // namespace ratelab
