#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QVector>

#include "output/run_summary.h"

namespace ratelab {

// Writes `content` to a temporary file beside `path` (its data flushed to the disk with fsync,
// so that a write error the file system reports late, such as a full disk on delayed
// allocation, is seen) and renames it into place: a crash or a failed write never leaves half a
// file, and an older file of that name stays whole until the new one replaces it. A symbolic
// link is followed (the file it points to is replaced, the link kept). A device, pipe or socket
// that exists at `path` (/dev/null, a named pipe) is written in place instead, never replaced.
// An InputError naming the path and the system's reason ("cannot write: No space left on
// device") when it cannot; the temporary file is removed then.
void writeFileAtomically(const QString& path, const QByteArray& content);

// A file of an output folder, rendered by its writer (report.png, report.html, sweep.csv, ...).
struct RenderedFile {
    RenderedFile(QString fileName, QByteArray bytes)
        : name(std::move(fileName)), content(std::move(bytes)) {}
    // A file that could not be rendered: not written, named with `why` among the failures.
    static RenderedFile notRendered(QString fileName, QString why) {
        RenderedFile file(std::move(fileName), QByteArray());
        file.failure = std::move(why);
        return file;
    }

    QString name;  // in the folder
    QByteArray content;
    QString failure;  // non-empty: why it could not be rendered
};

// What a folder writer did: the files it wrote whole (their names in the folder, in order) and
// one message per file it could not write ("DIR/report.png: cannot write: No space left on
// device", or the folder that could not be made).
struct FolderWrite {
    QStringList written;
    QStringList failures;
    bool ok() const { return failures.isEmpty(); }
};

// Writes each of `files` into `dir` (made when missing) through writeFileAtomically, every one
// even when one before it failed (a smaller one may still fit on a full disk). A file it could
// not write (or that could not be rendered) leaves no older file of its name behind: the folder
// never mixes two writes.
FolderWrite writeFolderFiles(const QString& dir, const QVector<RenderedFile>& files);

// The one writer of an output folder: summary.json (summaryToJson) and buckets.csv
// (bucketsToCsv) of `summary`, then the rendered files, through writeFolderFiles.
FolderWrite writeOutputFiles(const QString& dir, const RunSummary& summary,
                             const QVector<RenderedFile>& rendered = {});

// What readOutputFolder reads: summary.json alone (`ratelab compare`), or with buckets.csv.
enum class OutputParts { Summary, SummaryAndBuckets };

// The one reader of an output folder: summary.json (summaryFromJson) and, when asked, buckets.csv
// (bucketsFromCsv); each file at most output_limits::kMaxOutputFileBytes. A missing folder or
// file, or a malformed one, is an InputError naming the file and the JSON path or line.
RunSummary readOutputFolder(const QString& dir, OutputParts parts = OutputParts::SummaryAndBuckets);

}  // namespace ratelab
