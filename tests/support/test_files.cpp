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

}  // namespace ratelab::test
