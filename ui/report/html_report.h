#pragma once

#include <QByteArray>

#include "output/run_summary.h"
#include "report/page_kit.h"

namespace ratelab {

// report.html: one self-contained page for attaching to a ticket, from the run's summary (what
// summary.json and buckets.csv hold). Its script draws the timelines as inline SVG (hover for a
// column's figures in every limiter, drag or the buttons to zoom all of them), the limit, the
// calendar windows and the marked admitted burst as the window does, and the comparison's bars;
// the tables (the run's facts, the verdict and expectations, per limiter its counts, latency and
// admitted burst on both clocks, the per-client table and the disagreements) need no script.
// Sections the run has nothing for are left out. No network: the style and the script are
// inline and a Content-Security-Policy allows nothing else (images only as data: URIs).
// `png` (report.png, left out when empty) is the picture a reader without scripts sees. The
// series' colours are the window's, light or dark as the reader's browser prefers; print is
// black on white. Written as XHTML (well-formed XML, every text escaped).
// `scheme`: the reader's preference (Auto), or the colours of the window that wrote it.
QByteArray reportHtml(const RunSummary& summary, const QByteArray& png,
                      page_kit::Scheme scheme = page_kit::Scheme::Auto);

}  // namespace ratelab
