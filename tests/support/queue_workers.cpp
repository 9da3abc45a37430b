#include "support/queue_workers.h"

#include <QElapsedTimer>
#include <QtTest>
#include <csignal>

#include "distributed/queue_keys.h"
#include "redis/redis_reply.h"
#include "support/test_redis.h"

namespace ratelab::test {

QString fixtureText() {
    return qEnvironmentVariable("REDIS_URL");
}

bool waitForMatch(QProcess& p, const QRegularExpression& pattern, QByteArray& seen, int ms) {
    QElapsedTimer timer;
    timer.start();
    while (!pattern.match(QString::fromUtf8(seen)).hasMatch() && timer.elapsed() < ms &&
           p.state() == QProcess::Running) {
        p.waitForReadyRead(50);
        seen += p.readAllStandardError();
    }
    seen += p.readAllStandardError();
    return pattern.match(QString::fromUtf8(seen)).hasMatch();
}

CliResult endOf(QProcess& p, int guardMs) {
    if (p.state() != QProcess::NotRunning) {
        return finishRatelab(p, guardMs);
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

std::unique_ptr<QProcess> startWorker(const QString& queue, QByteArray& log, const QString& url) {
    auto p = startRatelab({QStringLiteral("worker"), QStringLiteral("--queue"), queue,
                           QStringLiteral("--claim-ms"), QStringLiteral("500"),
                           QStringLiteral("--redis"), url});
    if (!waitForStderr(*p, "joined queue", log)) {
        qWarning("worker did not join: %s", log.constData());
    }
    return p;
}

QByteArray stopWorkers(Processes& workers, QVector<QByteArray>& logs) {
    QByteArray all;
    for (std::size_t i = 0; i < workers.size(); ++i) {
        ::kill(pid_t(workers[i]->processId()), SIGTERM);
        const CliResult r = finishRatelab(*workers[i], 30000);
        logs[int(i)] += r.err;
        all += logs[int(i)];
        if (r.exitCode != 0 || !logs[int(i)].contains("stopped by SIGTERM")) {
            qWarning("worker %d: exit %d\n%s", int(i), r.exitCode, logs[int(i)].constData());
            return QByteArray("WORKER FAILED");
        }
    }
    return all;
}

void checkQueueCleared(const QString& queue) {
    const auto connection = connectFixture();
    const QueueKeys keys(queue, QStringLiteral("test"));
    RedisReply len = connection->command({"XLEN", keys.jobs()});
    QCOMPARE(replyInteger(len.get(), "XLEN"), 0LL);
    RedisReply ttl = connection->command({"PTTL", keys.jobs()});
    QVERIFY(replyInteger(ttl.get(), "PTTL") > 0);
    RedisReply left =
        connection->command({"KEYS", "ratelab:{q:" + queue.toStdString() + "}:job:*"});
    QCOMPARE(left->elements, size_t(0));
    RedisReply results =
        connection->command({"KEYS", "ratelab:{q:" + queue.toStdString() + "}:results*"});
    QCOMPARE(results->elements, size_t(0));
}

}  // namespace ratelab::test
