#include "output/output_folder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>

#include "input_error.h"
#include "input_limits.h"
#include "json_input.h"
#include "output/buckets_csv.h"
#include "output/summary_json.h"

namespace ratelab {

void writeFileAtomically(const QString& path, const QByteArray& content) {
    const QFileInfo info(path);
    if (info.exists() && !info.isFile() && !info.isDir()) {
        // A device, pipe or socket (/dev/null, /dev/stdout, a named pipe, also through a
        // symbolic link) is written in place: a temporary file renamed over it would replace
        // the special file itself (as root, /dev/null became a regular file). Unbuffered, so a
        // full device (/dev/full) fails at the write.
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered) ||
            file.write(content) != content.size()) {
            throw InputError(path, QStringLiteral("cannot write: %1").arg(file.errorString()));
        }
        return;
    }
    // QSaveFile writes a temporary file in the same folder and renames it on commit(); without
    // a commit (a failed write) the temporary file is removed.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size() ||
        !file.commit()) {
        throw InputError(path, QStringLiteral("cannot write: %1").arg(file.errorString()));
    }
}

void writeOutputFiles(const QString& dir, const RunSummary& summary,
                      const QVector<RenderedFile>& rendered) {
    if (!QDir().mkpath(dir)) {
        throw InputError(dir, QStringLiteral("cannot create the folder"));
    }
    const QDir out(dir);
    writeFileAtomically(out.filePath(output_format::kSummaryFile),
                        QJsonDocument(summaryToJson(summary)).toJson(QJsonDocument::Indented));
    writeFileAtomically(out.filePath(output_format::kBucketsFile), bucketsToCsv(summary));
    for (const RenderedFile& file : rendered) {
        writeFileAtomically(out.filePath(file.name), file.content);
    }
}

RunSummary readOutputFolder(const QString& dir, OutputParts parts) {
    if (!QFileInfo(dir).isDir()) {
        throw InputError(dir, QStringLiteral("no such output folder"));
    }
    const QString summaryPath = QDir(dir).filePath(output_format::kSummaryFile);
    const QString bucketsPath = QDir(dir).filePath(output_format::kBucketsFile);
    QStringList needed{summaryPath};
    if (parts == OutputParts::SummaryAndBuckets) {
        needed << bucketsPath;
    }
    for (const QString& path : needed) {
        if (!QFileInfo::exists(path)) {
            throw InputError(path, QStringLiteral("missing: not a ratelab run's output folder"));
        }
    }
    const QByteArray json =
        json_input::readSmallFile(summaryPath, output_limits::kMaxOutputFileBytes,
                                  QStringLiteral("not a summary.json written by ratelab run"));
    QJsonObject root;
    try {
        root = json_input::parseObject(json);
    } catch (const InputError& e) {
        throw e.within(summaryPath);
    }
    RunSummary summary = summaryFromJson(root, summaryPath);
    if (parts == OutputParts::SummaryAndBuckets) {
        bucketsFromCsv(
            json_input::readSmallFile(bucketsPath, output_limits::kMaxOutputFileBytes,
                                      QStringLiteral("not a buckets.csv written by ratelab run")),
            bucketsPath, summary);
    }
    return summary;
}

}  // namespace ratelab
