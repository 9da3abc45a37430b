#pragma once

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>
#include <memory>

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

// A ratelab child the test acts on while it runs (a signal, a fault). With `managedServer`,
// REDIS_URL is left out of its environment, so it starts its own redis-server.
std::unique_ptr<QProcess> startRatelab(const QStringList& args, bool managedServer = false);

// Reads the child's stderr until it holds `needle` (what was read is appended to `seen`); false
// when it did not within `ms`, or the child ended first.
bool waitForStderr(QProcess& p, const QByteArray& needle, QByteArray& seen, int ms = 20000);

// Waits for the child to end: its exit code (-1: still running at `guardMs`, then killed; -2:
// ended by a signal), its stdout and the rest of its stderr.
CliResult finishRatelab(QProcess& p, int guardMs = 10000);

}  // namespace ratelab::test
