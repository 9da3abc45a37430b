#pragma once

#include <QString>

namespace ratelab {

class MainWindow;

// Drives the real window through a short demo for the screenshots of the README and docs/: loads
// the scenario, waits for Redis, starts the run, and while it runs saves the timelines (and a
// grayscale copy), the Redis state panel and the Redisson tab; once it is over the comparison
// view and the run's output folder (`run/`, report.html among its files), both at 1024x700, both in presentation mode and the timelines after leaving it, and with
// a dark palette the timelines, the comparison and the Redisson tab, as PNGs into `dir`; then
// quits the application. Returns at once; the demo runs on the event loop.
void startScreenshotDemo(MainWindow& window, const QString& scenarioPath, const QString& dir,
                         int runSeconds);

}  // namespace ratelab
