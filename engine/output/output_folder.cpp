#include "output/output_folder.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <algorithm>
#include <cerrno>
#include <cstring>

#include "input_error.h"
#include "input_limits.h"
#include "json_input.h"
#include "output/buckets_csv.h"
#include "output/summary_json.h"

namespace ratelab {

namespace {

QString systemReason(int error) {
    return QString::fromLocal8Bit(std::strerror(error));
}

[[noreturn]] void cannotWrite(const QString& path, int error) {
    throw InputError(path, QStringLiteral("cannot write: %1").arg(systemReason(error)));
}

// Writes all of `content` to `fd`; false with errno set at the first write that fails.
bool writeAll(int fd, const QByteArray& content) {
    const char* data = content.constData();
    qint64 left = content.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, data, size_t(std::min<qint64>(left, 1 << 30)));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            errno = n < 0 ? errno : EIO;
            return false;
        }
        data += n;
        left -= n;
    }
    return true;
}

// The file `path` names once its symbolic links are followed, for a path that does not exist
// yet (a dangling link: the file it points to is made).
QString finalPath(const QString& path) {
    QFileInfo info(path);
    for (int depth = 0; depth < 64 && info.isSymLink(); ++depth) {
        info.setFile(info.symLinkTarget());
    }
    return info.filePath();
}

// Creates a file no one else has, beside `target`: ".<name>.<random>", mode 0666 less the
// umask, or the mode of the file it is to replace. Returns its descriptor (-1 and errno when it
// cannot) and sets *tempPath.
int createTemporary(const QString& target, QString* tempPath) {
    const QFileInfo info(target);
    int fd = -1;
    for (int attempt = 0; fd < 0 && attempt < 16; ++attempt) {
        *tempPath = info.dir().filePath(
            QStringLiteral(".%1.%2")
                .arg(info.fileName())
                .arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0')));
        fd = ::open(QFile::encodeName(*tempPath).constData(),
                    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) {
            return -1;
        }
    }
    struct stat existing {};
    if (fd >= 0 && ::stat(QFile::encodeName(target).constData(), &existing) == 0) {
        ::fchmod(fd, existing.st_mode & 07777);
    }
    return fd;
}

// A device, pipe or socket: written in place, unbuffered, so that a full device (/dev/full)
// fails at the write.
void writeInPlace(const QString& path, const QByteArray& content) {
    int fd = -1;
    do {  // a named pipe waits for its reader; a first SIGINT lets the write go on
        fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        cannotWrite(path, errno);
    }
    const bool written = writeAll(fd, content);
    const int error = errno;
    ::close(fd);
    if (!written) {
        cannotWrite(path, error);
    }
}

}  // namespace

void writeFileAtomically(const QString& path, const QByteArray& content) {
    const QFileInfo info(path);  // stat: through every link, /dev/stdout's too
    if (info.exists() && !info.isFile() && !info.isDir()) {
        // A temporary file renamed over a device, pipe or socket (/dev/null, /dev/stdout, a
        // named pipe) would replace the special file itself (as root, /dev/null became a
        // regular file).
        writeInPlace(path, content);
        return;
    }
    if (info.isDir()) {
        cannotWrite(path, EISDIR);
    }
    if (info.exists() && !info.isWritable()) {
        cannotWrite(path, EACCES);  // a read-only file is not replaced behind its owner's back
    }
    const QString target = info.exists() ? info.canonicalFilePath() : finalPath(path);
    QString temp;
    const int fd = createTemporary(target, &temp);
    if (fd < 0) {
        cannotWrite(path, errno);
    }
    // Written, on the disk (fsync: a file system may report a full disk or an I/O error only
    // then), closed, then renamed over the target: at every step before the rename the target
    // is what it was.
    bool done = writeAll(fd, content) && ::fsync(fd) == 0;
    int error = errno;
    if (::close(fd) != 0 && done) {
        done = false;
        error = errno;
    }
    if (done &&
        ::rename(QFile::encodeName(temp).constData(), QFile::encodeName(target).constData()) != 0) {
        done = false;
        error = errno;
    }
    if (!done) {
        ::unlink(QFile::encodeName(temp).constData());
        cannotWrite(path, error);
    }
}

FolderWrite writeFolderFiles(const QString& dir, const QVector<RenderedFile>& files) {
    FolderWrite result;
    if (!QDir().mkpath(dir)) {
        result.failures << dir + QStringLiteral(": cannot create the folder");
        return result;
    }
    const QDir out(dir);
    for (const RenderedFile& file : files) {
        const QString path = out.filePath(file.name);
        try {
            if (!file.failure.isEmpty()) {
                throw InputError(path, file.failure);
            }
            writeFileAtomically(path, file.content);
            result.written << file.name;
        } catch (const InputError& e) {
            result.failures << e.message();
            // An earlier write's file of this name would pass for this write's.
            if (const QFileInfo earlier(path); earlier.isFile() && earlier.isWritable()) {
                QFile::remove(path);
            }
        }
    }
    return result;
}

FolderWrite writeOutputFiles(const QString& dir, const RunSummary& summary,
                             const QVector<RenderedFile>& rendered) {
    QVector<RenderedFile> files{
        {output_format::kSummaryFile,
         QJsonDocument(summaryToJson(summary)).toJson(QJsonDocument::Indented)},
        {output_format::kBucketsFile, bucketsToCsv(summary)}};
    files += rendered;
    return writeFolderFiles(dir, files);
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
