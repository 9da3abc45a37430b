#include "support/test_files.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QtTest>

namespace ratelab::test {

void writeTestFile(const QString& path, const QByteArray& content, qint64 size) {
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY2(file.open(QIODevice::WriteOnly), qPrintable(path));
    QCOMPARE(file.write(content), content.size());
    if (size > content.size()) {
        QVERIFY2(file.resize(size), qPrintable(path));
    }
}

QByteArray readTestFile(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QString writeTestFileIn(const QString& dir, const QString& name, const QByteArray& content) {
    const QString path = QDir(dir).filePath(name);
    writeTestFile(path, content);
    return path;
}

QString exampleScenarioPath(const QString& name) {
    const QString root = qEnvironmentVariable("RATELAB_SOURCE_DIR");
    const QString folder = root.isEmpty()
                               ? QFINDTESTDATA("../../resources/scenarios")
                               : QDir(root).filePath(QStringLiteral("resources/scenarios"));
    return QDir(folder).filePath(name);
}

QString exampleScriptPath(const QString& name) {
    return QFileInfo(exampleScenarioPath(QStringLiteral("../scripts/") + name)).absoluteFilePath();
}

}  // namespace ratelab::test
