#pragma once

#include <QString>

namespace ratelab {

class MainWindow;

// The window's responsiveness benchmark: runs a scenario in the real window for `seconds` and
// prints how often the views were redrawn (redraw_hz) and how late a 5 ms probe timer fired
// (the UI event loop's stalls: p50/p99/max in ms), then quits. Numbers, not a test.
void startUiBench(MainWindow& window, const QString& scenarioPath, int seconds);

}  // namespace ratelab
