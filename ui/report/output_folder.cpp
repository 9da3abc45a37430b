#include "report/output_folder.h"

#include <QCoreApplication>

#include "report/html_report.h"
#include "report/report_renderer.h"

namespace ratelab {

FolderWrite writeOutputFolder(const RunSnapshot& run, const QString& dir, page_kit::Scheme scheme) {
    const RunSummary summary = summaryOf(run);
    const QByteArray png = reportPng(run, scheme == page_kit::Scheme::Dark);
    const RenderedFile pngFile =
        png.isEmpty() ? RenderedFile::notRendered(
                            output_format::kReportPngFile,
                            QCoreApplication::translate("ratelab::OutputFolder",
                                                        "the report could not be rendered"))
                      : RenderedFile(output_format::kReportPngFile, png);
    return writeOutputFiles(
        dir, summary,
        {pngFile, {output_format::kReportHtmlFile, reportHtml(summary, png, scheme)}});
}

}  // namespace ratelab
