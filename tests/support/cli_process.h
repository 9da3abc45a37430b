#pragma once

#include <QByteArray>
#include <QProcessEnvironment>
#include <QStringList>

namespace ratelab::test {

// What one run of the ratelab binary ($RATELAB_BIN) gave: its exit code (-1 when it timed out
// and was killed, -2 when it crashed), stdout and stderr. `input` is written to its stdin.
struct CliResult {
    int exitCode;
    QByteArray out;
    QByteArray err;
};

CliResult runRatelab(const QStringList& args,
                     const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
                     int timeoutMs = 120000, const QByteArray& input = QByteArray());

}  // namespace ratelab::test
