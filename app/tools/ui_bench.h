#pragma once

#include <QElapsedTimer>
#include <QString>

namespace ratelab {

class MainWindow;

// The window's responsiveness benchmark: runs a scenario in the real window for `seconds` and
// prints how often the views were redrawn (redraw_hz) and how late a 5 ms probe timer fired
// (the UI event loop's stalls: p50/p99/max in ms), then quits. Numbers, not a test.
// It also prints the UI thread's CPU time over the run (its thread clock) and, of that, what
// the timelines took to update and to paint (charts/chart_cost.h).
// `sinceLaunch` started when the process did: the time to a usable window (connected to its
// Redis, Start enabled) is printed as usable_after_ms.
void startUiBench(MainWindow& window, const QString& scenarioPath, int seconds,
                  const QElapsedTimer& sinceLaunch);

}  // namespace ratelab
