#pragma once

#include <QByteArray>
#include <QString>
#include <QVector>

#include "output/run_summary.h"

namespace ratelab {

// Writes `content` to a temporary file beside `path` and renames it into place: a crash or a
// failed write never leaves half a file, and an older file of that name stays whole until the
// new one replaces it. A device, pipe or socket that exists at `path` (/dev/null, a named pipe)
// is written in place instead, never replaced. An InputError naming the path when it cannot.
void writeFileAtomically(const QString& path, const QByteArray& content);

// A file of the output folder rendered outside the engine (report.png, report.html).
struct RenderedFile {
    QString name;  // in the folder
    QByteArray content;
};

// The one writer of an output folder: summary.json (summaryToJson) and buckets.csv
// (bucketsToCsv) of `summary`, then the rendered files, each written atomically. The folder is
// made when missing. An InputError names the folder or the file that could not be written.
void writeOutputFiles(const QString& dir, const RunSummary& summary,
                      const QVector<RenderedFile>& rendered = {});

// What readOutputFolder reads: summary.json alone (`ratelab compare`), or with buckets.csv.
enum class OutputParts { Summary, SummaryAndBuckets };

// The one reader of an output folder: summary.json (summaryFromJson) and, when asked, buckets.csv
// (bucketsFromCsv); each file at most output_limits::kMaxOutputFileBytes. A missing folder or
// file, or a malformed one, is an InputError naming the file and the JSON path or line.
RunSummary readOutputFolder(const QString& dir, OutputParts parts = OutputParts::SummaryAndBuckets);

}  // namespace ratelab
