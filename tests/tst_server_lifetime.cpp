// The managed local redis-server dies with ratelab, even when ratelab is killed with SIGKILL,
// and leaves no process and no socket behind; a signal ratelab handles (SIGTERM, SIGHUP) also
// removes the server's folder.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>

namespace {

// Children of `parent` whose command is redis-server, from /proc.
QList<qint64> redisChildren(qint64 parent) {
    QList<qint64> found;
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (!numeric) {
            continue;
        }
        QFile status(QStringLiteral("/proc/%1/status").arg(pid));
        if (!status.open(QIODevice::ReadOnly)) {
            continue;
        }
        const QByteArray text = status.readAll();
        if (text.contains("\nPPid:\t" + QByteArray::number(parent) + "\n") &&
            text.startsWith("Name:\tredis-server")) {
            found.push_back(pid);
        }
    }
    return found;
}

// Gone, or a zombie waiting for whoever adopted it.
bool gone(qint64 pid) {
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    return !status.open(QIODevice::ReadOnly) || status.readAll().contains("\nState:\tZ");
}

QString socketOf(qint64 pid) {
    QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (!cmdline.open(QIODevice::ReadOnly)) {
        return {};
    }
    // redis-server rewrites its title to "redis-server unixsocket:/path/redis.sock".
    const QByteArray title = cmdline.readAll().replace('\0', ' ');
    const qsizetype at = title.indexOf("unixsocket:");
    if (at < 0) {
        return {};
    }
    return QString::fromLocal8Bit(title.mid(at + 11).trimmed().split(' ').first());
}

}  // namespace

class TestServerLifetime : public QObject {
    Q_OBJECT

private slots:
    // SIGHUP failed before: ratelab died of it (no exit code, no summary) and the folder stayed.
    void diesWithRatelab_data() {
        QTest::addColumn<int>("signal");
        QTest::addColumn<int>("exitCode");  // -1: killed, no exit code
        QTest::newRow("SIGKILL") << int(SIGKILL) << -1;
        QTest::newRow("SIGTERM") << int(SIGTERM) << 143;
        QTest::newRow("SIGHUP") << int(SIGHUP) << 129;
    }
    void diesWithRatelab() {
        QFETCH(int, signal);
        QFETCH(int, exitCode);
        QTemporaryDir dir;
        QFile scenario(dir.filePath(QStringLiteral("long.json")));
        QVERIFY(scenario.open(QIODevice::WriteOnly));
        scenario.write(R"({"limiters": [{"type": "token_bucket", "name": "lifetime", "rate": 5,
            "interval_ms": 1000}], "traffic": {"shape": {"type": "constant", "rate": 20},
            "duration_s": 120}})");
        scenario.close();

        QProcess ratelab;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("REDIS_URL"));  // so it starts its own server
        ratelab.setProcessEnvironment(env);
        ratelab.start(qEnvironmentVariable("RATELAB_BIN"),
                      {QStringLiteral("run"), scenario.fileName(), QStringLiteral("--out"),
                       dir.filePath(QStringLiteral("out"))});
        QVERIFY(ratelab.waitForStarted());
        QList<qint64> servers;
        QTRY_VERIFY_WITH_TIMEOUT(!(servers = redisChildren(ratelab.processId())).isEmpty(), 10000);
        QCOMPARE(servers.size(), 1);
        const qint64 server = servers.first();
        // The title is rewritten a moment after exec: until then it names no socket.
        QString socket;
        QTRY_VERIFY_WITH_TIMEOUT(!(socket = socketOf(server)).isEmpty(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(socket), 10000);

        ::kill(pid_t(ratelab.processId()), signal);
        QVERIFY(ratelab.waitForFinished(30000));
        QTRY_VERIFY_WITH_TIMEOUT(gone(server), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!QFile::exists(socket), 10000);
        if (exitCode >= 0) {
            QCOMPARE(ratelab.exitStatus(), QProcess::NormalExit);
            QCOMPARE(ratelab.exitCode(), exitCode);
            QVERIFY(!QFileInfo::exists(QFileInfo(socket).absolutePath()));
            QFile summary(dir.filePath(QStringLiteral("out/summary.json")));
            QVERIFY(summary.open(QIODevice::ReadOnly));
            QVERIFY(summary.readAll().contains("\"finished\": false"));
        }
    }
};

QTEST_GUILESS_MAIN(TestServerLifetime)
#include "tst_server_lifetime.moc"
