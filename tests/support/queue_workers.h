#pragma once

#include <QByteArray>
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QVector>
#include <memory>
#include <vector>

#include "support/cli_process.h"

namespace ratelab::test {

// `ratelab worker` processes and the distributed commands' children, for the distributed
// tests (tst_distributed_sweep, tst_distributed_hunt): every wait is on a log line.
using Processes = std::vector<std::unique_ptr<QProcess>>;

// The fixture's URL (REDIS_URL).
QString fixtureText();

// Waits until `p`'s stderr (appended to `seen`) matches `pattern`.
bool waitForMatch(QProcess& p, const QRegularExpression& pattern, QByteArray& seen, int ms = 60000);

// finishRatelab, also for a child that has ended already (seen while its stderr was read).
CliResult endOf(QProcess& p, int guardMs = 180000);

// A worker on `queue` claiming after 500 ms, once it has joined (its log so far in `log`).
std::unique_ptr<QProcess> startWorker(const QString& queue, QByteArray& log,
                                      const QString& url = fixtureText());

// SIGTERM to each worker: each ends with 0 and says so; their logs, all together, or "WORKER
// FAILED" (with a warning) when one did not.
QByteArray stopWorkers(Processes& workers, QVector<QByteArray>& logs);

// Nothing of the queue's jobs is left on the fixture but the jobs stream, empty, which expires.
void checkQueueCleared(const QString& queue);

}  // namespace ratelab::test
