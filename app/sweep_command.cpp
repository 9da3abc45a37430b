#include "sweep_command.h"

#include <unistd.h>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLocale>
#include <QThread>
#include <chrono>
#include <cstdio>

#include "command_line.h"
#include "distributed/distributed_sweep.h"
#include "input_error.h"
#include "interrupt.h"
#include "output/output_paths.h"
#include "output/sweep_files.h"
#include "output/sweep_report.h"
#include "output/sweep_verdict.h"
#include "run/sweep_runner.h"
#include "run_outputs.h"
#include "scenario/scenario_budget.h"
#include "tune/sweep_folder.h"
#include "worker_command.h"

namespace ratelab::cli {
namespace {

// "sweep: 40/100 combinations  152,300 decisions/s  3 s left".
QString progressText(const SweepProgress& p) {
    const QLocale english(QLocale::English);
    QString text = QStringLiteral("sweep: %1/%2 combinations  %3 decisions/s")
                       .arg(p.done)
                       .arg(p.total)
                       .arg(english.toString(qint64(p.decisionsPerS)));
    if (!p.finished && p.secondsLeft >= 0) {
        text += QStringLiteral("  %1 s left").arg(qint64(p.secondsLeft + 0.5));
    }
    return text;
}

// Writes the JUnit file of a sweep that wrote nothing else (Redis failed before any combination
// finished): every check an error, so that no earlier sweep's passing file stands in for it. A
// failure to write it goes to stderr.
void writeStoppedJUnit(const QString& junit, const SweepTable& table, double seconds,
                       const QString& stoppedBy) {
    if (junit.isEmpty()) {
        return;
    }
    try {
        writeFileAtomically(junit, sweepJUnit(table, seconds, stoppedBy));
    } catch (const InputError& e) {
        printError(e.message());
    }
}

// Follows a sweep (SweepRunner, or DistributedSweep: the same interface) to its end, with
// progress on stderr, then writes and prints its results: the command's exit code.
template <typename Runner>
int follow(Runner& runner, const QString& outDir, const QString& junit) {
    const auto began = std::chrono::steady_clock::now();
    runner.start();

    // Progress on stderr: rewritten in place on a terminal, a line a second otherwise.
    const bool tty = ::isatty(STDERR_FILENO);
    int ticks = 0;
    while (!runner.finished()) {
        QThread::msleep(100);
        if (interrupted()) {
            runner.requestStop();
        }
        if (tty && ++ticks % 2 == 0) {
            std::fprintf(stderr, "\r%s\x1b[K", qPrintable(progressText(runner.progress())));
        } else if (!tty && ++ticks % 10 == 0) {
            std::fprintf(stderr, "%s\n", qPrintable(progressText(runner.progress())));
        }
    }
    runner.wait();
    if (tty) {
        std::fprintf(stderr, "\r%s\x1b[K\n", qPrintable(progressText(runner.progress())));
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    const SweepTable table = runner.table();
    const QString error = runner.error();
    const QString stoppedBy = interrupted()
                                  ? QStringLiteral("interrupted by %1").arg(interruptName())
                              : error.isEmpty() ? QString()
                                                : QStringLiteral("redis: %1").arg(error);
    if (!error.isEmpty() && table.combinations.isEmpty()) {
        printError(error);
        writeStoppedJUnit(junit, table, seconds, stoppedBy);
        return int(kRedisFailed);
    }

    // Each file whole or not at all; one that could not be written is named, and the exit
    // code is 4 where it would have been 0 (outputExitCode).
    const FolderWrite folder = writeSweepFolder(table, outDir);
    QStringList failedWrites = folder.failures;
    bool junitWritten = false;
    if (!junit.isEmpty()) {
        try {
            writeFileAtomically(junit, sweepJUnit(table, seconds, stoppedBy));
            junitWritten = true;
        } catch (const InputError& e) {
            failedWrites << e.message();
        }
    }
    std::fputs(qPrintable(sweepTableText(table)), stdout);
    std::fputs(qPrintable(sweepParetoText(table)), stdout);
    std::fputs(qPrintable(sweepVerdictText(table)), stdout);
    printWritten(outDir, folder.written);
    if (junitWritten) {
        std::printf("wrote %s\n", qPrintable(QFileInfo(junit).absoluteFilePath()));
    }
    std::fflush(stdout);
    if (interrupted()) {
        std::printf(
            "interrupted by %s: the results cover the combinations finished until "
            "then\n",
            qPrintable(interruptName()));
        std::fflush(stdout);
        return outputExitCode(interruptExitCode(), failedWrites);
    }
    if (!error.isEmpty()) {
        printError(QStringLiteral("the sweep stopped after %1 of %2 combinations: %3")
                       .arg(table.combinations.size())
                       .arg(table.total)
                       .arg(error));
        return outputExitCode(kRedisFailed, failedWrites);
    }
    const qint64 failed = sweepFailedDecisions(table);
    if (failed > 0) {
        printError(QStringLiteral("%1 decisions failed: combinations compare only on the "
                                  "same decisions (the errors column names where)")
                       .arg(failed));
        return outputExitCode(kRedisFailed, failedWrites);
    }
    // Exit 1 when no combination holds every constraint (the verdict line says so).
    return outputExitCode(table.best() >= 0 ? int(kDone) : int(kFailed), failedWrites);
}

}  // namespace

int sweepCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("scenario"),
                                 QStringLiteral("Scenario (JSON) with a \"sweep\"."));
    parser.addOptions({
        {QStringLiteral("redis"), QStringLiteral("Redis URL."), QStringLiteral("URL")},
        {QStringLiteral("out"), QStringLiteral("Output folder (default ./ratelab-sweep)."),
         QStringLiteral("DIR")},
        {QStringLiteral("max-memory"),
         QStringLiteral("Refuse scenarios whose one combination would need more memory "
                        "(default 1GiB)."),
         QStringLiteral("SIZE")},
        {QStringLiteral("junit"),
         QStringLiteral("Write whether a feasible combination exists, and the best one's "
                        "constraints, as JUnit XML."),
         QStringLiteral("FILE")},
    });
    parser.addOptions(distributedOptions(
        QStringLiteral("merge the results."),
        QStringLiteral("Combinations per batch of a distributed sweep (default: an eighth of "
                       "them, at most 64).")));
    parser.addOptions(tlsOptions());
    if (!parseArguments(parser, args, {}, 1)) {
        return kBadInput;
    }
    return runGuarded([&] {
        const QString file = parser.positionalArguments().first();
        const QString outDir = parser.isSet(QStringLiteral("out"))
                                   ? parser.value(QStringLiteral("out"))
                                   : QStringLiteral("ratelab-sweep");
        const QString junit = parser.value(QStringLiteral("junit"));
        // First, before the scenario is read: an earlier sweep's files are removed, so a sweep
        // that fails (bad input, Redis) leaves none of them; every output path is checked
        // before anything reaches Redis.
        prepareOutputTargets({QStringLiteral("sweep"), outDir, junit, sweepFolderFiles(), file});
        const bool distributed = parser.isSet(QStringLiteral("distributed"));
        for (const char* option : {"queue", "claim-ms", "batch"}) {
            if (!distributed && parser.isSet(QLatin1String(option))) {
                throw InputError(QStringLiteral("--%1").arg(QLatin1String(option)),
                                 QStringLiteral("only with --distributed"));
            }
        }
        if (distributed) {
            // Checked before the scenario is read, as every option is.
            QueueKeys(parser.isSet(QStringLiteral("queue")) ? parser.value(QStringLiteral("queue"))
                                                            : QueueKeys::kDefaultName,
                      QStringLiteral("--queue"));
            requireSharedRedis(parser, QStringLiteral("--distributed"));
        }
        const qint64 memoryLimit = maxMemoryOption(parser);
        const Scenario scenario = loadScenarioFile(file, memoryLimit);
        if (scenario.sweep.isEmpty()) {
            throw InputError(file + QStringLiteral(": $"),
                             QStringLiteral("has no \"sweep\": nothing to vary (docs/scenarios.md, "
                                            "\"Sweeps\")"));
        }
        SweepPlan plan(scenario);
        if (!plan.clockNote().isEmpty()) {
            std::fprintf(stderr, "note: %s\n", qPrintable(plan.clockNote()));
        }
        const qint64 budget = std::min(memoryLimit, SweepRunner::kDefaultBatchBudgetBytes);
        if (!distributed) {
            const RedisTarget target = resolveRedisTarget(parser);
            SweepRunner runner(std::move(plan), target.url(), {}, budget);
            return follow(runner, outDir, junit);
        }
        const QJsonObject json = scenarioToJson(scenario);
        try {
            checkDistributable(json);
        } catch (const InputError& e) {
            throw e.within(file);
        }
        const RedisTarget target = resolveRedisTarget(parser);
        DistributedOptions options{workerIdentity(parser, target, QStringLiteral("coordinator")),
                                   QJsonDocument(json).toJson(QJsonDocument::Compact),
                                   QFileInfo(file).absolutePath(), 0,
                                   std::chrono::milliseconds(30000)};
        options.batchSize =
            integerOption(parser, QStringLiteral("batch"), 0, 1, SweepPlan::kMaxBatch);
        if (options.batchSize == 0) {
            options.batchSize = distributedBatchSize(plan, plan.batchSize(budget));
        }
        DistributedSweep runner(std::move(plan), options, [](const QString& line) {
            std::fprintf(stderr, "sweep: %s\n", qPrintable(line));
            std::fflush(stderr);
        });
        return follow(runner, outDir, junit);
    });
}

}  // namespace ratelab::cli
