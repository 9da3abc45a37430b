#include "output/output_paths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryFile>

#include "input_error.h"
#include "output/output_format.h"

namespace ratelab {
namespace {

const QString kOutOption = QStringLiteral("--out");
const QString kJunitOption = QStringLiteral("--junit");

// Empty when a new file can be made in `dir` (one is made and removed again); else why not.
QString refusesNewFiles(const QString& dir) {
    QTemporaryFile probe(QDir(dir).filePath(QStringLiteral(".ratelab-write-check-XXXXXX")));
    return probe.open() ? QString() : probe.errorString();
}

// The path with symbolic links resolved: the file's own when it exists, else its folder's.
QString resolved(const QString& path) {
    const QFileInfo info(path);
    if (info.exists()) {
        return info.canonicalFilePath();
    }
    const QString folder = info.absoluteDir().canonicalPath();
    return folder.isEmpty() ? info.absoluteFilePath() : QDir(folder).filePath(info.fileName());
}

void checkFolder(const OutputTargets& targets) {
    const QString& dir = targets.dir;
    if (QFileInfo(dir).exists() && !QFileInfo(dir).isDir()) {
        throw InputError(kOutOption, QStringLiteral("%1 is a file, not a folder").arg(dir));
    }
    if (!QDir().mkpath(dir)) {
        throw InputError(kOutOption, QStringLiteral("cannot create the folder %1").arg(dir));
    }
    const QString why = refusesNewFiles(dir);
    if (!why.isEmpty()) {
        throw InputError(kOutOption, QStringLiteral("cannot write in %1: %2").arg(dir, why));
    }
    for (const QString& name : targets.files) {
        const QString path = QDir(dir).filePath(name);
        if (QFileInfo(path).isDir()) {
            throw InputError(kOutOption,
                             QStringLiteral("%1 is a folder: the %2's %3 cannot be written there")
                                 .arg(path, targets.command, name));
        }
    }
}

void checkJunit(const OutputTargets& targets) {
    const QString& junit = targets.junit;
    const QFileInfo info(junit);
    if (info.isDir() || info.fileName().isEmpty()) {
        throw InputError(kJunitOption,
                         QStringLiteral("%1 is a folder; give a file (%2)")
                             .arg(junit, QDir(junit).filePath(QStringLiteral("junit.xml"))));
    }
    const QDir folder = info.absoluteDir();
    if (!folder.exists()) {
        throw InputError(kJunitOption, QStringLiteral("%1: no such folder %2")
                                           .arg(junit, QDir::toNativeSeparators(folder.path())));
    }
    if (info.exists() && !info.isFile()) {
        // A device or named pipe is written in place (writeFileAtomically).
        if (!info.isWritable()) {
            throw InputError(kJunitOption, QStringLiteral("%1: not writable").arg(junit));
        }
    } else {
        const QString why = info.exists() && !info.isWritable()
                                ? QStringLiteral("the file is not writable")
                                : refusesNewFiles(folder.path());
        if (!why.isEmpty()) {
            throw InputError(kJunitOption, QStringLiteral("cannot write %1: %2").arg(junit, why));
        }
    }
    const QString target = resolved(junit);
    for (const QString& name : targets.files) {
        if (resolved(QDir(targets.dir).filePath(name)) == target) {
            throw InputError(kJunitOption,
                             QStringLiteral("%1 is the %2's own %3 in the output folder %4: "
                                            "give the JUnit file another path")
                                 .arg(junit, targets.command, name, targets.dir));
        }
    }
}

// The targets' files in the folder, then the JUnit file when there is one.
QStringList targetPaths(const OutputTargets& targets) {
    QStringList paths;
    for (const QString& name : targets.files) {
        paths << QDir(targets.dir).filePath(name);
    }
    if (!targets.junit.isEmpty()) {
        paths << targets.junit;
    }
    return paths;
}

// An output that is the scenario file would remove or overwrite what the command reads.
void refuseInputAsOutput(const OutputTargets& targets) {
    if (targets.input.isEmpty() || !QFileInfo::exists(targets.input)) {
        return;
    }
    const QString input = resolved(targets.input);
    for (const QString& path : targetPaths(targets)) {
        if (resolved(path) == input) {
            const bool junit = path == targets.junit;
            throw InputError(junit ? kJunitOption : kOutOption,
                             QStringLiteral("%1 is the scenario file the %2 reads: %3")
                                 .arg(path, targets.command,
                                      junit ? QStringLiteral("give the JUnit file another path")
                                            : QStringLiteral("give the outputs another folder")));
        }
    }
}

}  // namespace

QStringList outputFolderFiles() {
    return {output_format::kSummaryFile, output_format::kBucketsFile, output_format::kReportPngFile,
            output_format::kReportHtmlFile};
}

void prepareOutputTargets(const OutputTargets& targets) {
    refuseInputAsOutput(targets);
    removeEarlierOutputs(targets);
    checkOutputTargets(targets);
}

void checkOutputTargets(const OutputTargets& targets) {
    checkFolder(targets);
    if (!targets.junit.isEmpty()) {
        checkJunit(targets);
    }
}

QStringList removeEarlierOutputs(const OutputTargets& targets) {
    QStringList removed;
    for (const QString& path : targetPaths(targets)) {
        const QFileInfo info(path);
        if (!info.isFile() || info.isSymLink()) {
            continue;  // nothing there, or not ours to remove (a device, a link)
        }
        QFile file(path);
        if (!file.remove()) {
            throw InputError(path, QStringLiteral("cannot remove the earlier %1's file: %2")
                                       .arg(targets.command, file.errorString()));
        }
        removed << path;
    }
    return removed;
}

}  // namespace ratelab
