#pragma once

#include <QByteArray>

#include "output/run_summary.h"

namespace ratelab {

// report.html: one self-contained page for attaching to a ticket. No network (the chart is a
// data: URI, the CSS inline, no scripts), black on white so it prints. Written as XHTML (well-
// formed XML, every text escaped) from the run's summary (what summary.json holds): the run's
// facts, the verdict and expectation table, the chart image (`png`, left out when empty), per
// limiter its counts and latency, the admitted burst on both clocks, the per-client table and
// the disagreements. Sections the run has nothing for (no expectations, no admitted burst, no
// clients, no pairs) are left out.
QByteArray reportHtml(const RunSummary& summary, const QByteArray& png);

}  // namespace ratelab
