// Limiter spec files: read whole up to 1 MiB; missing, empty, oversized, deeply nested and binary
// files refused with a message that starts with the file's path.

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "input_error.h"
#include "limiters/limiter_spec.h"
#include "support/limiter_spec_documents.h"
#include "support/test_files.h"

using namespace ratelab;
using namespace ratelab::test;

class TestLimiterSpecFiles : public QObject {
    Q_OBJECT

private slots:
    void loadFile();
    void loadFileErrors();
    void loadBadFiles_data();
    void loadBadFiles();
};

void TestLimiterSpecFiles::loadFile() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("spec.json"));
    writeTestFile(path, tb() + '\n');
    QCOMPARE(loadLimiterSpecFile(path),
             tokenBucket(QStringLiteral("api"), Scope::Global, 10, 1000));

    // Exactly 1 MiB is still accepted.
    QByteArray padded = fw();
    padded += QByteArray(1024 * 1024 - padded.size(), ' ');
    writeTestFile(path, padded);
    QCOMPARE(loadLimiterSpecFile(path),
             fixedWindow(QStringLiteral("quota"), Scope::Global, 5, 2, CalendarUnit::Minutes));
}

void TestLimiterSpecFiles::loadFileErrors() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("spec.json"));

    struct Case {
        const char* name;
        QByteArray content;  // null: the file is not created
        QString where;
        QString message;
    };
    const Case cases[] = {
        {"missing file", QByteArray(), path, QStringLiteral("cannot read the file")},
        {"empty file", QByteArray(""), path, QStringLiteral("the file is empty")},
        {"blank file", QByteArray(" \n\t\n"), path, QStringLiteral("the file is empty")},
        {"over 1 MiB", fw() + QByteArray(1024 * 1024, ' '), path, QStringLiteral("1 MiB")},
        {"bad field", tb(R"("rate": -1, "interval_ms": 1000)"), path + QStringLiteral(": $.rate"),
         QStringLiteral("must be an integer from 1 to 1000000000, got -1")},
        {"malformed", QByteArray("{\n  \"type\": tru\n}"),
         path + QStringLiteral(": line 2, column 13"), QStringLiteral("malformed JSON")},
        {"not an object", QByteArray("[1, 2]"), path + QStringLiteral(": $"),
         QStringLiteral("expected a JSON object")},
    };
    for (const Case& c : cases) {
        QFile::remove(path);
        if (!c.content.isNull()) {
            writeTestFile(path, c.content);
        }
        try {
            loadLimiterSpecFile(path);
            QFAIL(c.name);
        } catch (const InputError& error) {
            QVERIFY2(error.where() == c.where,
                     qPrintable(QLatin1String(c.name) + QStringLiteral(": ") + error.where()));
            QVERIFY2(error.problem().contains(c.message),
                     qPrintable(QLatin1String(c.name) + QStringLiteral(": ") + error.problem()));
            QVERIFY(error.message().startsWith(path + QStringLiteral(": ")));
        }
    }

    // A directory is not a spec file.
    try {
        loadLimiterSpecFile(dir.path());
        QFAIL("read a directory");
    } catch (const InputError& error) {
        QCOMPARE(error.where(), dir.path());
        QVERIFY2(error.problem().contains(QStringLiteral("cannot read the file")),
                 qPrintable(error.problem()));
    }
}

// Files that must be refused whole: oversized (100 MB, sparse: refused from its size, unread),
// deeply nested, binary. Each message starts with the file's path.
void TestLimiterSpecFiles::loadBadFiles_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<qint64>("size");    // > content size: the file is extended (sparse) to it
    QTest::addColumn<QString>("where");  // after "<path>: ", or empty when where is the path
    QTest::addColumn<QString>("message");

    const qint64 hundredMb = 100LL * 1024 * 1024;
    QTest::newRow("100 MB of spaces after a spec")
        << tb() << hundredMb << QString()
        << QStringLiteral(
               "the file is larger than 1 MiB (104857600 bytes); a limiter spec is a "
               "few lines of JSON");
    QTest::newRow("100 MB of NULs") << QByteArray() << hundredMb << QString()
                                    << QStringLiteral("larger than 1 MiB (104857600 bytes)");
    QTest::newRow("1 MiB + 1 byte") << QByteArray("{") << qint64(1024 * 1024 + 1) << QString()
                                    << QStringLiteral("larger than 1 MiB (1048577 bytes)");
    QTest::newRow("empty") << QByteArray("") << qint64(0) << QString()
                           << QStringLiteral("the file is empty");
    QTest::newRow("100000 nested arrays")
        << nestedArrays(100000) << qint64(0) << QStringLiteral("line 1, column 1025")
        << QStringLiteral("JSON nested more than 1024 levels deep");
    QTest::newRow("100000 nested objects")
        << QByteArray("{\"a\":").repeated(100000) + QByteArray(100000, '}') << qint64(0)
        << QStringLiteral("line 1, column 5121")
        << QStringLiteral("JSON nested more than 1024 levels deep");
    QTest::newRow("binary garbage")
        << QByteArray(
               "\x7f"
               "ELF\x02\x01\x01\x00\x00\x00\xff\xfe",
               12)
        << qint64(0) << QStringLiteral("$") << QStringLiteral("expected a JSON object");
    QTest::newRow("UTF-16 text") << QByteArray("\xff\xfe{\0\"\0t\0\"\0:\0 \01\0}\0", 18)
                                 << qint64(0) << QStringLiteral("$")
                                 << QStringLiteral("expected a JSON object");
}

void TestLimiterSpecFiles::loadBadFiles() {
    QFETCH(QByteArray, content);
    QFETCH(qint64, size);
    QFETCH(QString, where);
    QFETCH(QString, message);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("spec.json"));
    writeTestFile(path, content, size);
    try {
        loadLimiterSpecFile(path);
        QFAIL("accepted");
    } catch (const InputError& error) {
        QCOMPARE(error.where(), where.isEmpty() ? path : path + QStringLiteral(": ") + where);
        QVERIFY2(error.problem().contains(message), qPrintable(error.problem()));
        QVERIFY(error.message().startsWith(path + QStringLiteral(": ")));
    }
}

QTEST_GUILESS_MAIN(TestLimiterSpecFiles)
#include "tst_limiter_spec_files.moc"
