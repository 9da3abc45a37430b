#include "support/cli_process.h"

#include <QProcess>

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

}  // namespace ratelab::test
