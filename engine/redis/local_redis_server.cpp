#include "redis/local_redis_server.h"

#include <sys/prctl.h>
#include <unistd.h>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QThread>
#include <csignal>

#include "redis/redis_connection.h"
#include "redis/redis_error.h"

namespace ratelab {
namespace {

// A unix socket path must fit in sockaddr_un (108 bytes); a long TMPDIR would not leave room.
QString tempRoot() {
    const QString preferred = QDir::tempPath();
    return preferred.size() <= 60 ? preferred : QStringLiteral("/tmp");
}

QString tail(const QString& path, int lines) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    const QStringList all =
        QString::fromLocal8Bit(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return all.mid(qMax(0, all.size() - lines)).join(QLatin1Char('\n'));
}

const QString kOwnerFile = QStringLiteral("owner");
const QString kSocketFile = QStringLiteral("redis.sock");
const QString kLogFile = QStringLiteral("redis.log");

// A process's start time (clock ticks since boot, /proc/<pid>/stat's 22nd field), which tells
// it from a later process given the same pid; empty when there is no such process.
QByteArray processStartTime(qint64 pid) {
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly)) {
        return {};
    }
    const QByteArray text = stat.readAll();
    // The command name (2nd field) is in parentheses and may hold spaces: count after it.
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    return fields.size() > 19 ? fields[19] : QByteArray();
}

// "<pid> <start time>" of the process that made the folder.
QByteArray ownerLine(qint64 pid) {
    return QByteArray::number(pid) + ' ' + processStartTime(pid) + '\n';
}

// Whether the ratelab that made the folder is gone: its owner file names a process that no
// longer runs (or a later one under the same pid). False for a folder without an owner file.
bool ownerIsDead(const QDir& folder) {
    QFile owner(folder.filePath(kOwnerFile));
    if (!owner.open(QIODevice::ReadOnly)) {
        return false;
    }
    const QList<QByteArray> fields = owner.readAll().trimmed().split(' ');
    bool numeric = false;
    const qint64 pid = fields.value(0).toLongLong(&numeric);
    if (!numeric || pid <= 0 || fields.size() != 2) {
        return false;
    }
    return processStartTime(pid) != fields[1];
}

// Folders whose ratelab is gone: killed, or ended by a signal it did not handle. Its server got
// SIGTERM (the parent-death signal) and removed its socket, or was killed with it and left
// the socket behind; either way the folder stays. Removed at once when its owner file names a
// process that is gone; a folder without one (an older ratelab's, or one being made right
// now) when it has no socket and is over a minute old. Only the files a managed server's
// folder holds are removed, and the folder only when that leaves it empty.
void sweepDeadFolders(const QString& root) {
    const QDir dir(root);
    const QDateTime before = QDateTime::currentDateTime().addSecs(-60);
    const QFileInfoList folders =
        dir.entryInfoList({QStringLiteral("ratelab-redis-*")}, QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QFileInfo& folder : folders) {
        QDir stale(folder.absoluteFilePath());
        if (folder.ownerId() != ::getuid()) {
            continue;
        }
        const bool dead = ownerIsDead(stale);
        const bool oldWithoutOwner = !stale.exists(kOwnerFile) && folder.lastModified() < before &&
                                     !stale.exists(kSocketFile);
        if (dead || oldWithoutOwner) {
            for (const QString& file : {kSocketFile, kLogFile, kOwnerFile}) {
                stale.remove(file);
            }
            dir.rmdir(folder.fileName());  // only succeeds if nothing else is inside
        }
    }
}

// Marks a new folder as this process's, for sweepDeadFolders.
void writeOwner(const QString& folder) {
    QFile owner(QDir(folder).filePath(kOwnerFile));
    if (owner.open(QIODevice::WriteOnly)) {
        owner.write(ownerLine(::getpid()));
    }
}

}  // namespace

LocalRedisServer::LocalRedisServer() = default;

LocalRedisServer::~LocalRedisServer() {
    stop();
}

QString LocalRedisServer::serverExecutable() {
    const QString fromEnv = qEnvironmentVariable("RATELAB_REDIS_SERVER");
    if (!fromEnv.isEmpty()) {
        return fromEnv;
    }
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("redis-server"));
    return onPath.isEmpty() ? QStringLiteral("/usr/bin/redis-server") : onPath;
}

void LocalRedisServer::start(int startTimeoutMs) {
    if (running()) {
        stop();
    }
    if (!dir_) {
        sweepDeadFolders(tempRoot());
        // QTemporaryDir creates the folder with mkdtemp: mode 0700, readable by us alone.
        dir_ =
            std::make_unique<QTemporaryDir>(tempRoot() + QStringLiteral("/ratelab-redis-XXXXXX"));
        if (dir_->isValid()) {
            writeOwner(dir_->path());
        }
    }
    if (!dir_->isValid()) {
        const QString reason = dir_->errorString();
        dir_.reset();
        throw RedisError(
            RedisError::Kind::Connect,
            "cannot create a private folder for the local redis-server: " + reason.toStdString());
    }
    const QString executable = serverExecutable();
    const QString logPath = dir_->filePath(kLogFile);

    process_ = std::make_unique<QProcess>();
    process_->setProgram(executable);
    process_->setArguments(
        QStringList{QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--unixsocket"),
                    socketPath(), QStringLiteral("--unixsocketperm"), QStringLiteral("700"),
                    QStringLiteral("--save"), QString(), QStringLiteral("--appendonly"),
                    QStringLiteral("no"), QStringLiteral("--dir"), dir_->path(),
                    QStringLiteral("--daemonize"), QStringLiteral("no"),
                    QStringLiteral("--loglevel"), QStringLiteral("warning"),
                    QStringLiteral("--logfile"), QString()} +
        extraArguments_);
    process_->setStandardOutputFile(logPath);
    process_->setStandardErrorFile(logPath, QIODevice::Append);
    const pid_t parent = ::getpid();
    // Runs in the child between fork and exec: when the parent dies (even by SIGKILL) the
    // server gets SIGTERM, shuts down and unlinks its socket.
    process_->setChildProcessModifier([parent] {
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent) {
            ::_exit(1);  // the parent died before prctl took effect
        }
    });
    process_->start();
    if (!process_->waitForStarted(startTimeoutMs)) {
        const std::string reason = process_->errorString().toStdString();
        stop();
        throw RedisError(RedisError::Kind::Connect, "cannot start " + executable.toStdString() +
                                                        ": " + reason +
                                                        " (install the redis-server package)");
    }

    const QDeadlineTimer deadline(startTimeoutMs);
    RedisUrl target = url();
    while (true) {
        if (process_->state() == QProcess::NotRunning) {
            const std::string log = tail(logPath, 5).toStdString();
            stop();
            throw RedisError(RedisError::Kind::Connect,
                             "the local redis-server exited during start-up: " + log);
        }
        if (QFile::exists(socketPath())) {
            try {
                RedisConnection probe(target, ConnectOptions{std::chrono::milliseconds(500),
                                                             std::chrono::milliseconds(500)});
                RedisReply pong = probe.command({"PING"});
                if (replyString(pong.get(), "PING") == "PONG") {
                    return;
                }
            } catch (const RedisError&) {
                // not ready yet
            }
        }
        if (deadline.hasExpired()) {
            stop();
            throw RedisError(RedisError::Kind::Connect,
                             "the local redis-server did not answer within " +
                                 std::to_string(startTimeoutMs) + " ms");
        }
        process_->waitForFinished(20);  // sleeps, but wakes at once if it exits
    }
}

void LocalRedisServer::crash() {
    if (process_) {
        process_->kill();
        process_->waitForFinished(3000);
        process_.reset();
    }
    QFile::remove(socketPath());
}

void LocalRedisServer::stop() {
    if (process_) {
        if (process_->state() != QProcess::NotRunning) {
            process_->terminate();  // SIGTERM: redis-server shuts down cleanly (no persistence)
            if (!process_->waitForFinished(3000)) {
                process_->kill();
                process_->waitForFinished(3000);
            }
        }
        process_.reset();
    }
    dir_.reset();  // removes the socket and log with the folder
}

bool LocalRedisServer::running() const {
    return process_ && process_->state() != QProcess::NotRunning;
}

qint64 LocalRedisServer::pid() const {
    return process_ ? process_->processId() : 0;
}

QString LocalRedisServer::socketPath() const {
    return dir_ ? dir_->filePath(kSocketFile) : QString();
}

RedisUrl LocalRedisServer::url() const {
    RedisUrl target;
    target.transport = RedisUrl::Transport::Unix;
    target.socketPath = socketPath();
    return target;
}

}  // namespace ratelab
