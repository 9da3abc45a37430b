// Outputs on a full disk: each file is written whole or not at all, each one not written is
// named with the system's reason, and the exit code is 4 where it would have been 0. The disk is
// a real one: a tmpfs of 64 KiB mounted for the test (as root; skipped where mounting is not
// allowed), filled up to one page. Failed before: with a page left, summary.json was renamed
// into place cut at 4096 bytes, buckets.csv and the JUnit file at 0 bytes (QSaveFile lost the
// error of its last flush), and only report.png was named.
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>
#include <cerrno>
#include <cstring>

#include "input_error.h"
#include "output/output_folder.h"
#include "support/cli_process.h"
#include "support/test_files.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// Whether `content` is the whole of a file of that name (each format's own end).
bool whole(const QString& name, const QByteArray& content) {
    if (name.endsWith(QLatin1String(".json"))) {
        QJsonParseError error;
        QJsonDocument::fromJson(content, &error);
        return error.error == QJsonParseError::NoError;
    }
    if (name.endsWith(QLatin1String(".csv"))) {
        return content.count('\n') > 1 && content.endsWith('\n');
    }
    if (name.endsWith(QLatin1String(".png"))) {
        return content.startsWith("\x89PNG\r\n") && content.endsWith("IEND\xae\x42\x60\x82");
    }
    if (name.endsWith(QLatin1String(".html"))) {
        return content.trimmed().endsWith("</html>");
    }
    QXmlStreamReader xml(content);  // the JUnit file
    while (!xml.atEnd()) {
        xml.readNext();
    }
    return !content.isEmpty() && !xml.hasError();
}

}  // namespace

class TestFullDisk : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString disk_;  // the tmpfs, mounted for each test function

    // Fills the disk but for `pages` pages of 4 KiB.
    void fill(int pages) {
        struct statvfs fs {};
        QVERIFY(::statvfs(QFile::encodeName(disk_).constData(), &fs) == 0);
        const qint64 free = qint64(fs.f_bavail) * qint64(fs.f_frsize);
        QVERIFY(free > pages * 4096);
        QFile filler(QDir(disk_).filePath(QStringLiteral("filler")));
        QVERIFY(filler.open(QIODevice::WriteOnly));
        QCOMPARE(filler.write(QByteArray(free - pages * 4096, 'f')), free - pages * 4096);
        QVERIFY(filler.flush());
    }

    QString scenario() {
        const QString path = dir_.filePath(QStringLiteral("disk.json"));
        writeTestFile(path, QStringLiteral(R"({"name": "full disk",
  "limiters": [{"type": "token_bucket", "name": "%1", "rate": 10, "interval_ms": 1000}],
  "traffic": {"shape": {"type": "constant", "rate": 50}, "duration_s": 2,
              "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": 0}},
  "expect": {"*": ["accepted <= 20"]},
  "sweep": {"vary": {"%1.rate": [5, 10]}, "maximize": "accepted"}})")
                                .arg(uniqueName(QStringLiteral("disk")))
                                .toUtf8());
        return path;
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void init() {
        disk_ = dir_.filePath(QStringLiteral("disk"));
        QVERIFY(QDir().mkpath(disk_));
        if (::mount("tmpfs", QFile::encodeName(disk_).constData(), "tmpfs", 0, "size=64k") != 0) {
            QSKIP(qPrintable(QStringLiteral("cannot mount a tmpfs (%1): needs root")
                                 .arg(QString::fromLocal8Bit(std::strerror(errno)))));
        }
    }

    void cleanup() {
        if (!disk_.isEmpty()) {
            ::umount2(QFile::encodeName(disk_).constData(), MNT_DETACH);
        }
    }

    // `run` and `sweep` with one page left: each output whole or absent and named, exit 4.
    void commandOutputs_data() {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QStringList>("files");
        QTest::newRow("run") << "run"
                             << QStringList{QStringLiteral("out/summary.json"),
                                            QStringLiteral("out/buckets.csv"),
                                            QStringLiteral("out/report.png"),
                                            QStringLiteral("out/report.html"),
                                            QStringLiteral("junit.xml")};
        QTest::newRow("sweep") << "sweep"
                               << QStringList{QStringLiteral("out/sweep.csv"),
                                              QStringLiteral("out/sweep.json"),
                                              QStringLiteral("out/sweep.png"),
                                              QStringLiteral("out/sweep.html"),
                                              QStringLiteral("junit.xml")};
    }
    void commandOutputs() {
        QFETCH(QString, command);
        QFETCH(QStringList, files);
        fill(1);
        const QDir disk(disk_);
        const CliResult r = runRatelab(
            {command, scenario(), QStringLiteral("--out"), disk.filePath(QStringLiteral("out")),
             QStringLiteral("--junit"), disk.filePath(QStringLiteral("junit.xml")),
             QStringLiteral("--redis"), fixtureUrl().toDisplayString()});
        QVERIFY2(r.exitCode == 4, r.err.constData());
        const QString err = QString::fromUtf8(r.err);
        const QString out = QString::fromUtf8(r.out);
        int missing = 0;
        for (const QString& file : files) {
            const QString path = disk.filePath(file);
            if (QFileInfo::exists(path)) {
                QVERIFY2(whole(file, readTestFile(path)),
                         qPrintable(file + QStringLiteral(" is cut")));
                QVERIFY2(!err.contains(path), qPrintable(err));
            } else {
                ++missing;
                QVERIFY2(err.contains(path + QStringLiteral(": cannot write: No space left on "
                                                            "device")),
                         qPrintable(file + QStringLiteral(" not named: ") + err));
                QVERIFY2(!out.contains(QStringLiteral("wrote ") + path), qPrintable(out));
            }
        }
        QVERIFY2(missing > 0, "the disk held every file: the test proves nothing");
        QVERIFY2(!err.contains(QStringLiteral("Unknown error")), qPrintable(err));
        // No temporary file is left behind.
        for (const QString& folder : {disk_, disk.filePath(QStringLiteral("out"))}) {
            for (const QString& name : QDir(folder).entryList(QDir::Files | QDir::Hidden)) {
                QVERIFY2(!name.startsWith(QLatin1Char('.')), qPrintable(name));
            }
        }
    }

    // The folder writer goes on after a file that does not fit (a smaller one may), and a file
    // it could not write leaves no older file of its name behind.
    void folderWriter() {
        const QString out = QDir(disk_).filePath(QStringLiteral("folder"));
        QVERIFY(QDir().mkpath(out));
        writeTestFile(QDir(out).filePath(QStringLiteral("big.bin")), "an earlier write's");
        fill(1);
        const FolderWrite result =
            writeFolderFiles(out, {{QStringLiteral("big.bin"), QByteArray(3 * 4096, 'b')},
                                   {QStringLiteral("small.txt"), QByteArray("fits\n")}});
        QCOMPARE(result.written, QStringList{QStringLiteral("small.txt")});
        QCOMPARE(result.failures,
                 QStringList{QDir(out).filePath(QStringLiteral("big.bin")) +
                             QStringLiteral(": cannot write: No space left on device")});
        QCOMPARE(QDir(out).entryList(QDir::Files | QDir::Hidden),
                 QStringList{QStringLiteral("small.txt")});
        QCOMPARE(readTestFile(QDir(out).filePath(QStringLiteral("small.txt"))),
                 QByteArray("fits\n"));
    }

    // One file that does not fit: the older file of that name stays whole.
    void oneFileKeepsTheOlder() {
        const QString path = QDir(disk_).filePath(QStringLiteral("junit.xml"));
        writeTestFile(path, "<testsuites/>\n");
        fill(1);
        try {
            writeFileAtomically(path, QByteArray(3 * 4096, 'x'));
            QFAIL("written");
        } catch (const InputError& e) {
            QCOMPARE(e.message(), path + QStringLiteral(": cannot write: No space left on device"));
        }
        QCOMPARE(readTestFile(path), QByteArray("<testsuites/>\n"));
        QCOMPARE(QDir(disk_).entryList(QDir::Files | QDir::Hidden),
                 (QStringList{QStringLiteral("filler"), QStringLiteral("junit.xml")}));
    }
};

QTEST_GUILESS_MAIN(TestFullDisk)
#include "tst_full_disk.moc"
