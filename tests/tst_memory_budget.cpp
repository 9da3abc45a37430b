// The memory a scenario is estimated to need (estimateMemory, what --max-memory is checked
// against) holds for the whole run: `ratelab run`'s peak resident memory, outputs written,
// stays under the estimate + 20 % over a range of limiters, clients and requests. Failed
// before: 16 per-client limiters x 10,000 clients were estimated at 45 MiB and peaked at
// 213 MiB (every client listed in summary.json, the outputs and the program not counted).
// Measured as the kernel counts it (wait4's ru_maxrss), never timed. Wide shapes (64 traffic
// groups, 199 windows named in `expect`): the peak stays under the estimate itself, summary.json
// under the length estimated for it, and
// the JSON the writer builds from a run's summary under the memory estimated for it (measured as
// malloc counts it). Failed before: 64 groups x 156 clients x 199 windows were estimated at 435 MiB
// and peaked at 474 MiB, the summary's JSON (138 MiB as a tree, a 77 MB text grown to 128 MiB)
// counted as 7.5 MiB, and `run` wrote a summary.json `compare` refused without saying so.
#include <fcntl.h>
#include <malloc.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <vector>

#include "input_limits.h"
#include "output/output_folder.h"
#include "output/summary_json.h"
#include "scenario/scenario.h"
#include "scenario/scenario_budget.h"
#include "scenario/summary_size.h"
#include "support/cli_process.h"
#include "support/test_files.h"
#include "support/test_redis.h"

extern char** environ;

using namespace ratelab;

namespace {

struct Measured {
    int exitCode = -1;
    qint64 peakBytes = 0;
};

// Runs `program args` with stdout to /dev/null and stderr to `errFile` (none: /dev/null); its
// exit code and peak resident memory.
Measured measure(const QString& program, const QStringList& args,
                 const QByteArray& errFile = QByteArrayLiteral("/dev/null")) {
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
    posix_spawn_file_actions_addopen(&actions, 2, errFile.constData(), O_WRONLY | O_CREAT, 0600);
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

// `limiters` token buckets of `scope` under `groups` traffic groups of `clientsPerGroup` clients
// (none: one group-less shape of that many clients), `windows` admitted-burst windows named in
// `expect` (1 s to `windows` s), a clock skew of `skewMs`; virtual, as fast as Redis answers.
QByteArray wideScenario(int limiters, const QString& scope, int groups, int clientsPerGroup,
                        int windows, int skewMs = 0) {
    QStringList specs;
    const QString prefix = test::uniqueName(QStringLiteral("wide"));
    for (int i = 0; i < limiters; ++i) {
        specs << QStringLiteral(R"({"type": "token_bucket", "name": "%1-%2", "scope": "%3",
                                    "rate": 5, "interval_ms": 1000})")
                     .arg(prefix)
                     .arg(i)
                     .arg(scope);
    }
    QString clients;
    if (groups == 0) {
        clients = QStringLiteral(R"("shape": {"type": "poisson", "rate": 500}, "clients": %1)")
                      .arg(clientsPerGroup);
    } else {
        QStringList list;
        for (int g = 0; g < groups; ++g) {
            list << QStringLiteral(R"({"name": "g%1", "clients": %2, "shape": {"type":
                                       "poisson", "rate": 10}})")
                        .arg(g)
                        .arg(clientsPerGroup);
        }
        clients = QStringLiteral(R"("groups": [%1])").arg(list.join(QStringLiteral(", ")));
    }
    QStringList expect;
    for (int w = 1; w <= windows; ++w) {
        expect << QStringLiteral(R"("max_accepted_in_any_%1ms >= 0")").arg(w * 1000);
    }
    return QStringLiteral(R"({"name": "wide", "limiters": [%1], "traffic": {%2, "duration_s": 10,
        "clock_skew_ms": %3, "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z",
        "speed": 0}, "seed": 7}, "bucket_ms": 1000, "expect": {"*": [%4]}})")
        .arg(specs.join(QStringLiteral(", ")), clients)
        .arg(skewMs)
        .arg(expect.join(QStringLiteral(", ")))
        .toUtf8();
}

qint64 heapInUse() {
    const struct mallinfo2 m = mallinfo2();
    return qint64(m.uordblks + m.hblkhd);
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

    // 64 groups x 156 clients x 199 windows: the peak under the estimate (no slack), and, its
    // summary.json being larger than `compare` reads, `run` says so before it starts.
    void wideShapePeakWithinEstimate() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path =
            test::writeTestFileIn(dir.path(), QStringLiteral("wide.json"),
                                  wideScenario(1, QStringLiteral("per_client"), 64, 156, 199));
        const MemoryEstimate e = estimateMemory(loadScenarioFile(path));
        const QString err = dir.filePath(QStringLiteral("stderr.txt"));
        const Measured m = measure(qEnvironmentVariable("RATELAB_BIN"),
                                   {QStringLiteral("run"), path, QStringLiteral("--redis"),
                                    test::fixtureUrl().toDisplayString(), QStringLiteral("--out"),
                                    dir.filePath(QStringLiteral("out")),
                                    QStringLiteral("--max-memory"), QStringLiteral("2GiB")},
                                   QFile::encodeName(err));
        QCOMPARE(m.exitCode, 0);
        qInfo("estimate %.1f MiB, peak %.1f MiB", double(e.total()) / 1048576,
              double(m.peakBytes) / 1048576);
        QVERIFY2(m.peakBytes > 0 && m.peakBytes <= e.total(),
                 qPrintable(QStringLiteral("peak %1 bytes, estimate %2 bytes")
                                .arg(m.peakBytes)
                                .arg(e.total())));
        const qint64 written = QFileInfo(dir.filePath(QStringLiteral("out/summary.json"))).size();
        QVERIFY2(written <= e.summaryText, qPrintable(QString::number(written)));
        QVERIFY(written > output_limits::kMaxCompareSummaryBytes);
        QFile said(err);
        QVERIFY(said.open(QIODevice::ReadOnly));
        QVERIFY2(said.readAll().contains("more than `ratelab compare` reads (64 MiB)"),
                 "run did not say beforehand that compare will not read its summary");
        const test::CliResult compared =
            test::runRatelab({QStringLiteral("compare"), dir.filePath(QStringLiteral("out")),
                              dir.filePath(QStringLiteral("out"))});
        QCOMPARE(compared.exitCode, 2);
    }

    // The bound computed against what a run writes and what its writer allocates: summary.json's
    // length within summaryText, and the JSON tree and text built from the summary read back
    // (as writeOutputFiles builds them) within summaryJson. A run below compare's limit is not
    // told it is above.
    void summaryWithinItsEstimate_data() {
        QTest::addColumn<int>("limiters");
        QTest::addColumn<QString>("scope");
        QTest::addColumn<int>("groups");
        QTest::addColumn<int>("clients");
        QTest::addColumn<int>("windows");
        QTest::addColumn<int>("skewMs");
        QTest::newRow("1 global limiter, 4 clients, 1 window") << 1 << "global" << 0 << 4 << 1 << 0;
        QTest::newRow("2 per-client, 1,000 clients, 30 windows")
            << 2 << "per_client" << 0 << 1000 << 30 << 0;
        QTest::newRow("2 per-client, 2,000 clients (1,000 listed), 10 windows, skewed")
            << 2 << "per_client" << 0 << 2000 << 10 << -250;
        QTest::newRow("1 global, 64 groups x 4, 100 windows")
            << 1 << "global" << 64 << 4 << 100 << 0;
        QTest::newRow("1 per-client, 64 groups x 156, 199 windows")
            << 1 << "per_client" << 64 << 156 << 199 << 0;
    }
    void summaryWithinItsEstimate() {
        QFETCH(int, limiters);
        QFETCH(QString, scope);
        QFETCH(int, groups);
        QFETCH(int, clients);
        QFETCH(int, windows);
        QFETCH(int, skewMs);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path =
            test::writeTestFileIn(dir.path(), QStringLiteral("wide.json"),
                                  wideScenario(limiters, scope, groups, clients, windows, skewMs));
        const Scenario scenario = loadScenarioFile(path, 4LL << 30);
        const MemoryEstimate e = estimateMemory(scenario);
        const QString out = dir.filePath(QStringLiteral("out"));
        const test::CliResult r =
            test::runRatelab({QStringLiteral("run"), path, QStringLiteral("--redis"),
                              test::fixtureUrl().toDisplayString(), QStringLiteral("--out"), out,
                              QStringLiteral("--max-memory"), QStringLiteral("4GiB")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const qint64 written = QFileInfo(out + QStringLiteral("/summary.json")).size();
        QVERIFY2(written <= e.summaryText,
                 qPrintable(QStringLiteral("%1 > %2").arg(written).arg(e.summaryText)));
        QCOMPARE(r.err.contains("more than `ratelab compare` reads"),
                 e.summaryText > output_limits::kMaxCompareSummaryBytes);

        const RunSummary summary = readOutputFolder(out, OutputParts::Summary);
        const qint64 before = heapInUse();
        qint64 peak = 0;
        {
            const QJsonObject tree = summaryToJson(summary);
            const QByteArray text = QJsonDocument(tree).toJson(QJsonDocument::Indented);
            peak = heapInUse() - before;
            QCOMPARE(text.size(), written);
        }
        qInfo("summary.json %lld bytes (bound %lld), writer %.1f MiB (bound %.1f MiB)", written,
              e.summaryText, double(peak) / 1048576, double(e.summaryJson) / 1048576);
        QVERIFY2(peak <= e.summaryJson,
                 qPrintable(QStringLiteral("%1 > %2").arg(peak).arg(e.summaryJson)));
    }
};

QTEST_GUILESS_MAIN(TestMemoryBudget)
#include "tst_memory_budget.moc"
