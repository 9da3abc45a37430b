// The memory a scenario is estimated to need (estimateMemory, what --max-memory is checked
// against) holds for the whole run: `ratelab run`'s peak resident memory, outputs written,
// stays under the estimate + 20 % over a range of limiters, clients and requests. Failed
// before: 16 per-client limiters x 10,000 clients were estimated at 45 MiB and peaked at
// 213 MiB (every client listed in summary.json, the outputs and the program not counted).
// Measured as the kernel counts it (wait4's ru_maxrss), never timed.
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <vector>

#include "scenario/scenario.h"
#include "scenario/scenario_budget.h"
#include "support/test_redis.h"

extern char** environ;

using namespace ratelab;

namespace {

struct Measured {
    int exitCode = -1;
    qint64 peakBytes = 0;
};

// Runs `program args` with stdout and stderr to /dev/null; its exit code and peak resident
// memory.
Measured measure(const QString& program, const QStringList& args) {
    std::vector<QByteArray> storage{QFile::encodeName(program)};
    for (const QString& a : args) {
        storage.push_back(a.toUtf8());
    }
    std::vector<char*> argv;
    for (QByteArray& s : storage) {
        argv.push_back(s.data());
    }
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    Measured m;
    if (spawned != 0) {
        return m;
    }
    int status = 0;
    struct rusage usage {};
    if (::wait4(pid, &status, 0, &usage) != pid) {
        return m;
    }
    m.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    m.peakBytes = qint64(usage.ru_maxrss) * 1024;  // KiB on Linux
    return m;
}

// `limiters` per-client token buckets (unique names), `clients` clients, Poisson at `rate`
// for `seconds` on a virtual clock as fast as Redis answers, counted in buckets of `bucketMs`.
QByteArray scenarioJson(int limiters, int clients, int rate, int seconds, int bucketMs) {
    QStringList specs;
    const QString prefix = test::uniqueName(QStringLiteral("mem"));
    for (int i = 0; i < limiters; ++i) {
        specs << QStringLiteral(
                     "{\"type\": \"token_bucket\", \"name\": \"%1-%2\", \"scope\": "
                     "\"per_client\", \"rate\": 5, \"interval_ms\": 1000}")
                     .arg(prefix)
                     .arg(i);
    }
    return QStringLiteral(
               "{\"name\": \"memory\", \"limiters\": [%1], \"traffic\": {\"shape\": {\"type\": "
               "\"poisson\", \"rate\": %2}, \"duration_s\": %3, \"clients\": {\"count\": %4}, "
               "\"mode\": \"try\", \"clock\": {\"type\": \"virtual\", \"start\": "
               "\"2024-01-01T00:00:00Z\", \"speed\": 0}, \"seed\": 7}, \"bucket_ms\": %5}")
        .arg(specs.join(QStringLiteral(", ")))
        .arg(rate)
        .arg(seconds)
        .arg(clients)
        .arg(bucketMs)
        .toUtf8();
}

}  // namespace

class TestMemoryBudget : public QObject {
    Q_OBJECT

private slots:
    void peakWithinEstimate_data() {
        QTest::addColumn<int>("limiters");
        QTest::addColumn<int>("clients");
        QTest::addColumn<int>("rate");
        QTest::addColumn<int>("seconds");
        QTest::addColumn<int>("bucketMs");
        QTest::newRow("1 limiter, 4 clients") << 1 << 4 << 10 << 1 << 100;
        QTest::newRow("16 limiters, 4 clients") << 16 << 4 << 10 << 1 << 100;
        QTest::newRow("16 limiters, 1,000 clients (all listed)") << 16 << 1000 << 10 << 1 << 100;
        QTest::newRow("4 limiters, 10,000 clients") << 4 << 10000 << 10 << 1 << 100;
        QTest::newRow("16 limiters, 10,000 clients") << 16 << 10000 << 10 << 1 << 100;
        QTest::newRow("4 limiters, 100,000 requests") << 4 << 1000 << 20000 << 5 << 100;
        QTest::newRow("4 limiters, 200,000 buckets") << 4 << 1 << 1 << 200 << 1;
    }
    void peakWithinEstimate() {
        QFETCH(int, limiters);
        QFETCH(int, clients);
        QFETCH(int, rate);
        QFETCH(int, seconds);
        QFETCH(int, bucketMs);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("memory.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(scenarioJson(limiters, clients, rate, seconds, bucketMs));
        file.close();
        const qint64 estimate = estimateMemory(loadScenarioFile(path)).total();

        const Measured m = measure(qEnvironmentVariable("RATELAB_BIN"),
                                   {QStringLiteral("run"), path, QStringLiteral("--redis"),
                                    test::fixtureUrl().toDisplayString(), QStringLiteral("--out"),
                                    dir.filePath(QStringLiteral("out"))});
        QCOMPARE(m.exitCode, 0);
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("out/summary.json"))));
        qInfo("estimate %.1f MiB, peak %.1f MiB", double(estimate) / 1048576,
              double(m.peakBytes) / 1048576);
        QVERIFY2(m.peakBytes > 0, "no peak measured");
        QVERIFY2(
            double(m.peakBytes) <= 1.2 * double(estimate),
            qPrintable(
                QStringLiteral("peak %1 bytes, estimate %2 bytes").arg(m.peakBytes).arg(estimate)));
    }
};

QTEST_GUILESS_MAIN(TestMemoryBudget)
#include "tst_memory_budget.moc"
