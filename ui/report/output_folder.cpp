#include "report/output_folder.h"

#include <QCoreApplication>

#include "input_error.h"
#include "output/output_folder.h"
#include "report/html_report.h"
#include "report/report_renderer.h"

namespace ratelab {

bool writeOutputFolder(const RunSnapshot& run, const QString& dir, QString* error) {
    const RunSummary summary = summaryOf(run);
    const QByteArray png = reportPng(run);
    if (png.isEmpty()) {
        *error = QCoreApplication::translate("ratelab::OutputFolder",
                                             "%1: the report could not be rendered")
                     .arg(output_format::kReportPngFile);
        return false;
    }
    try {
        writeOutputFiles(dir, summary,
                         {{output_format::kReportPngFile, png},
                          {output_format::kReportHtmlFile, reportHtml(summary, png)}});
    } catch (const InputError& e) {
        *error = e.message();
        return false;
    }
    return true;
}

}  // namespace ratelab
