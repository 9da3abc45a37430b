#pragma once

#include <QString>

namespace ratelab {

class MainWindow;

// Drives the real window through a short demo for the screenshots of the README and docs/: loads
// the scenario, waits for Redis, starts the run, and while it runs (and after) saves the timelines,
// the comparison view, the Redis state panel, the Redisson tab, the 1024x700 and presentation
// layouts and, with a dark palette, the timelines and the Redisson tab again as PNGs into `dir`,
// then quits the application. Returns at once; the demo runs on the event loop.
void startScreenshotDemo(MainWindow& window, const QString& scenarioPath, const QString& dir,
                         int runSeconds);

}  // namespace ratelab
