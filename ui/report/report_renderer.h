#pragma once

#include <QByteArray>
#include <QImage>
#include <QString>

#include "stats/run_snapshot.h"

namespace ratelab {

// Renders a run's report with Qt Charts, offscreen: one chart per limiter, stacked, sharing the
// run-time axis (seconds): accepted (deep blue) and rejected (orange) per time bucket, errors
// (hatched grey) when there are any, the limit per bucket (limitPerBucket) as a dashed line, and
// for fixed windows the calendar window boundaries as thin vertical lines, and per traffic group
// a line of its accepted requests (style::groupPen). Each chart's title names
// the limiter and its totals. Needs a QApplication (QT_QPA_PLATFORM=offscreen works headless).
// `dark`: on a dark background in the dark palette's colours (a window in its dark theme).
QImage renderReport(const RunSnapshot& run, int width = 1200, int heightPerLimiter = 360,
                    bool dark = false);

// renderReport encoded as PNG (report.png); empty when it could not be rendered or encoded.
QByteArray reportPng(const RunSnapshot& run, bool dark = false);

}  // namespace ratelab
