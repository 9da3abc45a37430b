#include "report/output_folder.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>

#include "report/html_report.h"
#include "report/report_renderer.h"
#include "scenario/run_report.h"

namespace ratelab {
namespace {

bool writeFile(const QString& path, const QByteArray& content, QString* error) {
    QFile file(path);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
        file.write(content) == content.size() && file.flush())
        return true;
    *error = QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
    return false;
}

}  // namespace

bool writeOutputFolder(const RunSnapshot& run, const QString& dir, QString* error) {
    if (!QDir().mkpath(dir)) {
        *error = QStringLiteral("%1: cannot create the folder").arg(dir);
        return false;
    }
    const QDir out(dir);
    return writeFile(out.filePath(QStringLiteral("summary.json")),
                     QJsonDocument(summaryJson(run)).toJson(QJsonDocument::Indented), error) &&
           writeFile(out.filePath(QStringLiteral("buckets.csv")), bucketsCsv(run), error) &&
           writeReportPng(run, out.filePath(QStringLiteral("report.png")), error) &&
           writeReportHtml(dir, error);  // from summary.json and report.png
}

}  // namespace ratelab
