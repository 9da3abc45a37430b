#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace ratelab {

// report.html: one self-contained page for attaching to a ticket. No network (the chart is a
// data: URI, the CSS inline, no scripts), black on white so it prints. Written as XHTML (well-
// formed XML, every text escaped) from the run's summary.json: the run's facts, the verdict and
// expectation table, the chart image, per limiter its counts and latency, the admitted burst
// ("admitted_burst"), and the per-client table. Fields the summary does not hold are left out.
QByteArray reportHtml(const QJsonObject& summary, const QByteArray& png);

// Reads summary.json and report.png (optional) from outDir and writes outDir/report.html.
// Returns false and sets *error (naming the file) when a file cannot be read or written.
bool writeReportHtml(const QString& outDir, QString* error);

}  // namespace ratelab
