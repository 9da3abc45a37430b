#include "support/ratelab_cli.h"

#include <QProcess>

namespace ratelab::test {

CliResult runRatelab(const QStringList& args, int timeoutMs) {
    QProcess p;
    p.start(qEnvironmentVariable("RATELAB_BIN"), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {-1, {}, "timed out"};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

}  // namespace ratelab::test
