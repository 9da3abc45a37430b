#include "tools/ui_bench.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

#include "charts/chart_cost.h"
#include "run/run_controller.h"
#include "window/connection_bar.h"
#include "window/main_window.h"

namespace ratelab {
namespace {

struct Probe {
    QElapsedTimer clock;
    qint64 last = 0;
    std::vector<double> lateMs;
    int redraws = 0;
    qint64 firstRedraw = -1;
    qint64 lastRedraw = 0;
    // The UI thread's CPU clock and the charts' costs when the run started.
    qint64 cpuStartNs = 0;
    ChartCost chartsAtStart;
};

double percentile(std::vector<double> values, double p) {
    if (values.empty()) {
        return 0;
    }
    std::sort(values.begin(), values.end());
    const size_t rank = std::min(values.size() - 1, size_t(p / 100.0 * double(values.size())));
    return values[rank];
}

}  // namespace

void startUiBench(MainWindow& window, const QString& scenarioPath, int seconds,
                  const QElapsedTimer& sinceLaunch) {
    if (!window.openScenario(scenarioPath)) {
        std::fprintf(stderr, "ui bench: %s\n", qPrintable(window.bannerText()));
        QTimer::singleShot(0, qApp, [] { QApplication::exit(2); });
        return;
    }
    auto probe = std::make_shared<Probe>();
    auto* wait = new QTimer(&window);
    wait->setInterval(5);
    const qint64 launchedMsAgo = sinceLaunch.elapsed();
    auto sinceOpen = std::make_shared<QElapsedTimer>();
    sinceOpen->start();
    QObject::connect(
        wait, &QTimer::timeout, &window, [&window, wait, probe, seconds, launchedMsAgo, sinceOpen] {
            if (!window.connectionBar()->connected() || !window.startAction()->isEnabled()) {
                return;
            }
            wait->stop();
            std::printf("usable_after_ms: %lld\n",
                        static_cast<long long>(launchedMsAgo + sinceOpen->elapsed()));
            QObject::connect(window.controller(), &RunController::snapshotReady, &window, [probe] {
                const qint64 now = probe->clock.elapsed();
                if (probe->firstRedraw < 0) {
                    probe->firstRedraw = now;
                }
                probe->lastRedraw = now;
                probe->redraws++;
            });
            // A 5 ms timer: how late it fires is how long the event loop was busy.
            auto* tick = new QTimer(&window);
            tick->setTimerType(Qt::PreciseTimer);
            tick->setInterval(5);
            probe->clock.start();
            probe->last = 0;
            QObject::connect(tick, &QTimer::timeout, &window, [probe] {
                const qint64 now = probe->clock.nsecsElapsed();
                if (probe->last > 0) {
                    probe->lateMs.push_back(std::max(0.0, double(now - probe->last) / 1e6 - 5.0));
                }
                probe->last = now;
            });
            tick->start();
            probe->cpuStartNs = threadCpuNs();
            probe->chartsAtStart = ChartCost::global();
            window.startAction()->trigger();
            QTimer::singleShot(seconds * 1000, &window, [&window, probe, seconds] {
                const double cpuS = double(threadCpuNs() - probe->cpuStartNs) / 1e9;
                const ChartCost& now = ChartCost::global();
                const ChartCost& then = probe->chartsAtStart;
                window.controller()->stop();
                const double spanS = double(probe->lastRedraw - probe->firstRedraw) / 1000.0;
                const RunSnapshot& run = window.lastSnapshot();
                std::printf(
                    "requests: %lld  achieved_rate: %.0f/s  limiters: %d\n",
                    static_cast<long long>(run.scheduled),
                    run.elapsedUs > 0 ? double(run.scheduled) / (double(run.elapsedUs) / 1e6) : 0.0,
                    int(run.limiters.size()));
                std::printf("redraw_hz: %.1f\n",
                            spanS > 0 ? double(probe->redraws - 1) / spanS : 0.0);
                std::printf("event_loop_stall_ms: p50 %.2f  p99 %.2f  max %.2f\n",
                            percentile(probe->lateMs, 50), percentile(probe->lateMs, 99),
                            percentile(probe->lateMs, 100));
                // Thread CPU clocks, sampled on the UI thread: how much of a core it used, and
                // how much of that went into the timelines (updating them from snapshots, and
                // painting; paint wall time also counts waiting for Qt's fill threads).
                std::printf("ui_thread_cpu_s: %.2f  (%.0f%% of a core over %d s)\n", cpuS,
                            100.0 * cpuS / double(seconds), seconds);
                std::printf("charts_update: cpu %.2f s  wall %.2f s  calls %lld\n",
                            double(now.updateCpuNs - then.updateCpuNs) / 1e9,
                            double(now.updateWallNs - then.updateWallNs) / 1e9,
                            static_cast<long long>(now.updates - then.updates));
                std::printf("charts_paint: cpu %.2f s  wall %.2f s  paints %lld\n",
                            double(now.paintCpuNs - then.paintCpuNs) / 1e9,
                            double(now.paintWallNs - then.paintWallNs) / 1e9,
                            static_cast<long long>(now.paints - then.paints));
                std::fflush(stdout);
                window.setWindowModified(false);  // a demo: nothing of the user's to keep
                window.close();
                QApplication::quit();
            });
        });
    wait->start();
}

}  // namespace ratelab
