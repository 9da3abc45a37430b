#include "window/example_scenarios.h"

#include <QDir>
#include <QFileInfo>

#include "scenario/example_paths.h"

namespace ratelab {

QString examplesDirectory() {
    // exampleScenarioDirs() lists the scenarios folder first, then the limiter specs' folder.
    for (const QString& dir : exampleScenarioDirs()) {
        if (QFileInfo(dir).fileName() == QLatin1String("scenarios"))
            return QDir(dir).canonicalPath();
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
    const QFileInfo file(path);
    if (path.isEmpty() || !file.exists())
        return false;
    // Any of the shipped folders (scenarios and limiter specs): never saved over.
    for (const QString& dir : exampleScenarioDirs()) {
        if (file.canonicalPath() == QDir(dir).canonicalPath())
            return true;
    }
    return false;
}

}  // namespace ratelab
