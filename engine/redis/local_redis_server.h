#pragma once

#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <memory>

#include "url/redis_url.h"

namespace ratelab {

// A private redis-server started as a child process: unix socket only (no TCP port), inside a
// fresh temp folder of mode 0700, no RDB or AOF persistence (the folder holds the socket and the
// server's log). The child gets SIGTERM as a parent-death signal, so even when ratelab is killed
// with SIGKILL the server shuts down and removes its socket; the destructor stops it and removes
// the folder. The folder names its ratelab (an "owner" file: pid and start time); folders whose
// ratelab is gone (killed, or ended by a signal it did not handle) are removed at the next
// start, with whatever socket and log they still hold.
class LocalRedisServer {
public:
    LocalRedisServer();
    ~LocalRedisServer();
    LocalRedisServer(const LocalRedisServer&) = delete;
    LocalRedisServer& operator=(const LocalRedisServer&) = delete;

    // Starts the server and waits until it answers PING. Throws RedisError(Kind::Connect) with
    // the reason (redis-server missing, exited early, socket never came up).
    void start(int startTimeoutMs = 5000);
    // More redis-server arguments for the next start (tests: "--enable-debug-command local").
    void setExtraArguments(const QStringList& arguments) { extraArguments_ = arguments; }
    void stop();
    // For fault tests: SIGKILLs the server but keeps its folder, so start() brings a new,
    // empty server up on the same socket path.
    void crash();

    bool running() const;
    qint64 pid() const;
    QString socketPath() const;
    RedisUrl url() const;

    // redis-server's path: $RATELAB_REDIS_SERVER, else found on PATH, else /usr/bin/redis-server.
    static QString serverExecutable();

private:
    std::unique_ptr<QTemporaryDir> dir_;
    std::unique_ptr<QProcess> process_;
    QStringList extraArguments_;
};

}  // namespace ratelab
