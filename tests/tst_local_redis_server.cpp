// The managed local redis-server: private 0700 folder, unix socket only, no persistence,
// stopped and cleaned up afterwards; folders whose ratelab is gone are removed at the next start.
#include <sys/stat.h>
#include <unistd.h>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>

#include "redis/local_redis_server.h"
#include "redis/redis_connection.h"

using namespace ratelab;

class TestLocalRedisServer : public QObject {
    Q_OBJECT

private:
    static std::string config(RedisConnection& c, const char* name) {
        RedisReply r = c.command({"CONFIG", "GET", name});
        return r->elements == 2 ? replyString(r->element[1], name) : std::string();
    }

    // A managed server's folder as a ratelab leaves it behind: its owner line and files.
    static QString leftFolder(const QString& root, const QString& name, const QByteArray& owner,
                              const QStringList& files) {
        QDir(root).mkdir(name);
        const QDir folder(QDir(root).filePath(name));
        QFile ownerFile(folder.filePath(QStringLiteral("owner")));
        if (!owner.isEmpty() && ownerFile.open(QIODevice::WriteOnly)) {
            ownerFile.write(owner);
        }
        for (const QString& file : files) {
            QFile f(folder.filePath(file));
            if (f.open(QIODevice::WriteOnly)) {
                f.write("x");
            }
        }
        return folder.path();
    }

    // "<pid> <start time>" of this process, as a live ratelab's folder names it.
    static QByteArray ownLine() {
        QFile stat(QStringLiteral("/proc/self/stat"));
        if (!stat.open(QIODevice::ReadOnly)) {
            return {};
        }
        const QByteArray text = stat.readAll();
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        return QByteArray::number(qint64(::getpid())) + ' ' + fields.value(19) + '\n';
    }

private slots:
    void startsPrivateServer() {
        LocalRedisServer server;
        server.start();
        QVERIFY(server.running());
        const QString socket = server.socketPath();
        const QFileInfo folder(QFileInfo(socket).absolutePath());
        struct stat info {};
        QCOMPARE(::stat(QFile::encodeName(folder.absoluteFilePath()).constData(), &info), 0);
        QCOMPARE(info.st_mode & 0777, mode_t(0700));

        RedisConnection c(server.url());
        QCOMPARE(replyString(c.command({"PING"}).get(), "PING"), std::string("PONG"));
        QCOMPARE(config(c, "port"), std::string("0"));
        QCOMPARE(config(c, "save"), std::string(""));
        QCOMPARE(config(c, "appendonly"), std::string("no"));

        const qint64 pid = server.pid();
        QVERIFY(pid > 0);
        server.stop();
        QVERIFY(!server.running());
        QVERIFY(!QFileInfo::exists(socket));
        QVERIFY(!QFileInfo::exists(folder.absoluteFilePath()));
        QVERIFY(::kill(static_cast<pid_t>(pid), 0) != 0);  // the process is gone
    }

    // A ratelab ended by a signal it did not handle (or killed with its server) leaves its
    // folder, with the log and maybe the socket. The next start removes the folders whose owner
    // is gone, at once; a live ratelab's folder, and files a managed server never writes, stay.
    // Failed before: a folder that still held a socket was kept for ever.
    void sweepsFoldersOfDeadOwners() {
        QTemporaryDir root;
        QVERIFY(root.isValid());
        // A process that ran and is gone (processId() is 0 once it has finished: read it first).
        QProcess gone;
        gone.start(QStringLiteral("sleep"), {QStringLiteral("30")});
        QVERIFY(gone.waitForStarted());
        const qint64 gonePid = gone.processId();
        gone.kill();
        QVERIFY(gone.waitForFinished());
        const QByteArray deadOwner = QByteArray::number(gonePid) + " 12345\n";
        const QStringList serverFiles{QStringLiteral("redis.sock"), QStringLiteral("redis.log")};
        const QString dead =
            leftFolder(root.path(), QStringLiteral("ratelab-redis-dead01"), deadOwner, serverFiles);
        const QString deadLogOnly = leftFolder(root.path(), QStringLiteral("ratelab-redis-dead02"),
                                               deadOwner, {QStringLiteral("redis.log")});
        const QString live =
            leftFolder(root.path(), QStringLiteral("ratelab-redis-live01"), ownLine(), serverFiles);
        const QString foreign = leftFolder(root.path(), QStringLiteral("ratelab-redis-dead03"),
                                           deadOwner, {QStringLiteral("notes.txt")});
        const QString fresh = leftFolder(root.path(), QStringLiteral("ratelab-redis-new001"),
                                         QByteArray(), {QStringLiteral("redis.log")});

        const QByteArray tmpdir = qgetenv("TMPDIR");
        qputenv("TMPDIR", QFile::encodeName(root.path()));
        LocalRedisServer server;
        server.start();
        const QString own = QFileInfo(server.socketPath()).absolutePath();
        qputenv("TMPDIR", tmpdir);
        if (tmpdir.isEmpty()) {
            qunsetenv("TMPDIR");
        }
        QVERIFY(own.startsWith(root.path()));
        QVERIFY(QFileInfo::exists(QDir(own).filePath(QStringLiteral("owner"))));

        QVERIFY2(!QFileInfo::exists(dead), qPrintable(dead));
        QVERIFY2(!QFileInfo::exists(deadLogOnly), qPrintable(deadLogOnly));
        QVERIFY(QFileInfo::exists(QDir(live).filePath(QStringLiteral("redis.sock"))));
        QVERIFY(QFileInfo::exists(QDir(foreign).filePath(QStringLiteral("notes.txt"))));
        QVERIFY(QFileInfo::exists(fresh));  // no owner, under a minute old: maybe starting now
        server.stop();
        QVERIFY(!QFileInfo::exists(own));
    }

    void missingExecutable() {
        qputenv("RATELAB_REDIS_SERVER", "/nonexistent/redis-server");
        LocalRedisServer server;
        QVERIFY_THROWS_EXCEPTION(std::exception, server.start());
        qunsetenv("RATELAB_REDIS_SERVER");
        QVERIFY(!server.running());
    }
};

QTEST_GUILESS_MAIN(TestLocalRedisServer)
#include "tst_local_redis_server.moc"
