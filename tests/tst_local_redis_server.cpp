// The managed local redis-server: private 0700 folder, unix socket only, no persistence,
// stopped and cleaned up afterwards.
#include <sys/stat.h>
#include <QFileInfo>
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
