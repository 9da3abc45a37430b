#include "lessons/lesson_paths.h"

#include <QDir>
#include <QFileInfo>

#include "scenario/example_paths.h"

namespace ratelab {

QString shippedLessonsDir() {
    for (const QString& dir : exampleScenarioDirs()) {
        const QString lessons = QDir::cleanPath(dir + QStringLiteral("/../lessons"));
        if (QFileInfo(dir).fileName() == QLatin1String("scenarios") && QFileInfo(lessons).isDir()) {
            return lessons;
        }
    }
    return {};
}

QStringList shippedLessons() {
    const QString dir = shippedLessonsDir();
    if (dir.isEmpty()) {
        return {};
    }
    QStringList files;
    for (const QString& name :
         QDir(dir).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        files << QDir(dir).filePath(name);
    }
    return files;
}

}  // namespace ratelab
