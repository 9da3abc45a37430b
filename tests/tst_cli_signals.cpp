// Every command handles SIGINT, SIGTERM and SIGHUP the same way: it stops and exits 130, 143 or
// 129, long before the guard, whatever it is doing (walking a schedule on a quick Redis,
// scanning a large keyspace, waiting on an idle pipe). Before, explain and keys (and trace
// import) installed no handler and died by the signal, explain leaving its scratch keys.
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <functional>
#include <memory>

#include "redis/local_redis_server.h"
#include "redis/redis_connection.h"
#include "redis/redis_reply.h"
#include "support/test_files.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

constexpr int kGuardMs = 10000;  // generous: a signal must end a command long before this

// Whether process `pid` has a handler for `signal` (its SigCgt mask in /proc): the command
// has installed its handlers, so a signal now tests them, not the default action.
bool catches(qint64 pid, int signal) {
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly)) {
        return false;
    }
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("SigCgt:")) {
            bool ok = false;
            const quint64 mask = line.mid(7).trimmed().toULongLong(&ok, 16);
            return ok && ((mask >> (signal - 1)) & 1) != 0;
        }
    }
    return false;
}

// The exit code of `p` after `signal` (-1: still running at the guard, -2: died by a signal),
// sent once `busy()` says the command is at its work (or the guard has passed: a command that
// never gets there gets the signal anyway).
int stopWith(QProcess& p, int signal, const std::function<bool()>& busy, QByteArray* err) {
    QElapsedTimer waited;
    waited.start();
    while (!busy() && p.state() == QProcess::Running && waited.elapsed() < kGuardMs) {
        QTest::qWait(20);
    }
    const qint64 pid = p.processId();
    if (p.state() != QProcess::Running || pid <= 0) {
        // Ended before the signal (a pid of 0 would signal this test's own process group).
        p.waitForFinished();
        *err = "ended before the signal: " + p.readAllStandardError();
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    }
    ::kill(pid_t(pid), signal);
    int code = -1;
    if (p.waitForFinished(kGuardMs)) {
        code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    } else {
        p.kill();
        p.waitForFinished();
    }
    *err = p.readAllStandardError();
    return code;
}

// A redis-server of the test's own (DEBUG allowed), whose keys only the command touches.
std::unique_ptr<LocalRedisServer> privateServer() {
    auto server = std::make_unique<LocalRedisServer>();
    server->setExtraArguments({QStringLiteral("--enable-debug-command"), QStringLiteral("local")});
    server->start();
    return server;
}

long long keysOf(RedisConnection& admin) {
    return replyInteger(admin.command({"DBSIZE"}).get(), "DBSIZE");
}

std::unique_ptr<QProcess> start(const QStringList& args) {
    auto p = std::make_unique<QProcess>();
    p->start(qEnvironmentVariable("RATELAB_BIN"), args);
    p->waitForStarted();
    return p;
}

}  // namespace

class TestCliSignals : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    static void addSignals() {
        QTest::addColumn<int>("signal");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("SIGINT") << int(SIGINT) << 130;
        QTest::newRow("SIGTERM") << int(SIGTERM) << 143;
        QTest::newRow("SIGHUP") << int(SIGHUP) << 129;
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // explain of the 200,000th request: the schedule before it is decided on Redis, one quick
    // answer after another (each within the interrupt's grace), for many seconds.
    void explain_data() { addSignals(); }
    void explain() {
        QFETCH(int, signal);
        QFETCH(int, exitCode);
        const auto server = privateServer();
        RedisConnection admin(server->url());
        const QString limiter = uniqueName(QStringLiteral("sig-explain"));
        const QString scenario = dir_.filePath(QStringLiteral("explain.json"));
        writeTestFile(scenario, QStringLiteral(R"({"name": "signals",
  "limiters": [{"type": "sliding_window", "name": "%1", "rules": [{"limit": 50, "window_ms": 1000}]}],
  "traffic": {"shape": {"type": "constant", "rate": 2000}, "duration_s": 100,
              "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": 0}}})")
                                    .arg(limiter)
                                    .toUtf8());
        auto p = start({QStringLiteral("explain"), scenario, QStringLiteral("--limiter"), limiter,
                        QStringLiteral("--request"), QStringLiteral("199999"),
                        QStringLiteral("--redis"), server->url().toDisplayString()});
        QByteArray err;
        // Busy: the walk has written its first scratch key.
        const int code = stopWith(
            *p, signal, [&] { return keysOf(admin) > 0; }, &err);
        QVERIFY2(code == exitCode,
                 qPrintable(QStringLiteral("exit %1: %2").arg(code).arg(QString::fromUtf8(err))));
        QVERIFY2(err.contains("interrupted by SIG"), err.constData());
    }

    // keys --delete on a keyspace of a million keys of the limiter's tag: stopped while it
    // scans or between two batches of deletes, most keys still there.
    void keys() {
        const auto server = privateServer();
        const QString name = uniqueName(QStringLiteral("sig-keys"));
        ConnectOptions patient;
        patient.commandTimeout = std::chrono::milliseconds(60000);
        RedisConnection admin(server->url(), patient);
        constexpr long long kKeys = 1'000'000;
        throwIfError(admin
                         .command({"DEBUG", "POPULATE", std::to_string(kKeys),
                                   "{" + name.toStdString() + "}"})
                         .get(),
                     "DEBUG POPULATE");
        auto p = start({QStringLiteral("keys"), name, QStringLiteral("--delete"),
                        QStringLiteral("--redis"), server->url().toDisplayString()});
        QByteArray err;
        // Busy: the keys listed, the first batch deleted.
        const int code = stopWith(
            *p, SIGINT, [&] { return keysOf(admin) < kKeys; }, &err);
        QVERIFY2(code == 130,
                 qPrintable(QStringLiteral("exit %1: %2").arg(code).arg(QString::fromUtf8(err))));
        const long long left = keysOf(admin);
        QVERIFY2(left > kKeys / 2, qPrintable(QStringLiteral("%1 keys left").arg(left)));
    }

    // trace import from a pipe that stays open and brings nothing: the read ends on the
    // signal, and nothing is written.
    void traceImportWaitingOnStdin_data() { addSignals(); }
    void traceImportWaitingOnStdin() {
        QFETCH(int, signal);
        QFETCH(int, exitCode);
        auto p =
            start({QStringLiteral("trace"), QStringLiteral("import"), QStringLiteral("--format"),
                   QStringLiteral("combined"), QStringLiteral("-")});
        p->write(
            "127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET / HTTP/1.0\" 200 1 \"-\" "
            "\"k6\"\n");
        QByteArray err;
        // Busy: it reads stdin, which stays open and brings nothing more; the handlers are in
        // place (a command without them dies by the signal after the guard).
        const int code = stopWith(
            *p, signal, [&] { return catches(p->processId(), signal); }, &err);
        QVERIFY2(code == exitCode,
                 qPrintable(QStringLiteral("exit %1: %2").arg(code).arg(QString::fromUtf8(err))));
        QCOMPARE(p->readAllStandardOutput(), QByteArray());
    }
};

QTEST_GUILESS_MAIN(TestCliSignals)
#include "tst_cli_signals.moc"
