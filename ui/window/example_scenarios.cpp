#include "window/example_scenarios.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace ratelab {

QString examplesDirectory() {
    QDir dir(QCoreApplication::applicationDirPath());
    for (int up = 0; up < 6; ++up) {
        const QString candidate = dir.filePath(QStringLiteral("resources/scenarios"));
        if (QFileInfo(candidate).isDir())
            return QDir(candidate).canonicalPath();
        if (!dir.cdUp())
            break;
    }
    return QString();
}

QStringList exampleScenarios() {
    const QString dir = examplesDirectory();
    if (dir.isEmpty())
        return {};
    QStringList paths;
    for (const QFileInfo& file :
         QDir(dir).entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        paths << file.canonicalFilePath();
    return paths;
}

bool isShippedExample(const QString& path) {
    const QString dir = examplesDirectory();
    if (dir.isEmpty() || path.isEmpty())
        return false;
    const QFileInfo file(path);
    return file.exists() && file.canonicalPath() == dir;
}

}  // namespace ratelab
