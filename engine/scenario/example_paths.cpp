#include "scenario/example_paths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace ratelab {

namespace {

// Set by engine/CMakeLists.txt on this file only: <source>/resources of the tree it was built from.
#ifndef RATELAB_SOURCE_RESOURCES_DIR
#define RATELAB_SOURCE_RESOURCES_DIR ""
#endif

// The existing ones of base/scenarios and base/examples, in that order.
QStringList existingExampleDirs(const QString& base) {
    QStringList dirs;
    for (const QLatin1String sub : {QLatin1String("scenarios"), QLatin1String("examples")}) {
        const QString dir = QDir::cleanPath(base + QLatin1Char('/') + sub);
        if (QFileInfo(dir).isDir()) {
            dirs << dir;
        }
    }
    return dirs;
}

}  // namespace

QStringList exampleScenarioDirs(const QString& executableDir, const QString& sourceResourcesDir) {
    // The installed layout wins, so that a packaged ratelab never shows a stale source tree.
    if (!executableDir.isEmpty()) {
        const QStringList installed =
            existingExampleDirs(executableDir + QLatin1String("/../share/ratelab"));
        if (!installed.isEmpty()) {
            return installed;
        }
    }
    if (sourceResourcesDir.isEmpty()) {
        return {};
    }
    return existingExampleDirs(sourceResourcesDir);
}

QStringList exampleScenarioDirs() {
    const QString executableDir =
        QCoreApplication::instance() ? QCoreApplication::applicationDirPath() : QString();
    return exampleScenarioDirs(executableDir, QStringLiteral(RATELAB_SOURCE_RESOURCES_DIR));
}

}  // namespace ratelab
