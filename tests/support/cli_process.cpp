#include "support/cli_process.h"

#include <QElapsedTimer>

namespace ratelab::test {

CliResult runRatelab(const QStringList& args, const QProcessEnvironment& env, int timeoutMs,
                     const QByteArray& input) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(qEnvironmentVariable("RATELAB_BIN"), args);
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {-1, {}, "timed out"};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

std::unique_ptr<QProcess> startRatelab(const QStringList& args, bool managedServer) {
    auto p = std::make_unique<QProcess>();
    if (managedServer) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("REDIS_URL"));
        p->setProcessEnvironment(env);
    }
    p->start(qEnvironmentVariable("RATELAB_BIN"), args);
    p->waitForStarted();
    return p;
}

bool waitForStderr(QProcess& p, const QByteArray& needle, QByteArray& seen, int ms) {
    QElapsedTimer timer;
    timer.start();
    while (!seen.contains(needle) && timer.elapsed() < ms && p.state() == QProcess::Running) {
        p.waitForReadyRead(100);
        seen += p.readAllStandardError();
    }
    return seen.contains(needle);
}

CliResult finishRatelab(QProcess& p, int guardMs) {
    CliResult f{-1, {}, {}};
    if (!p.waitForFinished(guardMs)) {
        p.kill();
        p.waitForFinished();
    } else {
        f.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    }
    f.out = p.readAllStandardOutput();
    f.err = p.readAllStandardError();
    return f;
}

}  // namespace ratelab::test
