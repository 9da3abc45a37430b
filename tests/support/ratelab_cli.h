#pragma once

#include <QByteArray>
#include <QStringList>

namespace ratelab::test {

// What the ratelab binary ($RATELAB_BIN) did with some arguments: its exit code (-1 when it
// timed out and was killed, -2 when it crashed), stdout and stderr.
struct CliResult {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

// Runs the binary with `args` and waits up to `timeoutMs` for it to end.
CliResult runRatelab(const QStringList& args, int timeoutMs = 120000);

}  // namespace ratelab::test
