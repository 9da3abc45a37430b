#include "charts/chart_cost.h"

#include <QElapsedTimer>

#if defined(Q_OS_UNIX)
#include <time.h>
#endif

namespace ratelab {
namespace {

qint64 wallNs() {
    static QElapsedTimer clock;
    if (!clock.isValid())
        clock.start();
    return clock.nsecsElapsed();
}

}  // namespace

ChartCost& ChartCost::global() {
    static ChartCost cost;
    return cost;
}

qint64 threadCpuNs() {
#if defined(Q_OS_UNIX) && defined(CLOCK_THREAD_CPUTIME_ID)
    timespec ts{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
#endif
    return 0;
}

ChartCostScope::ChartCostScope(qint64* cpuNs, qint64* wallNsOut, qint64* count)
    : cpuNs_(cpuNs), wallNs_(wallNsOut), cpuStart_(threadCpuNs()), wallStart_(wallNs()) {
    ++*count;
}

ChartCostScope::~ChartCostScope() {
    *cpuNs_ += threadCpuNs() - cpuStart_;
    *wallNs_ += wallNs() - wallStart_;
}

}  // namespace ratelab
