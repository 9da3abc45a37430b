#include "run_command.h"

#include <unistd.h>
#include <QDir>
#include <QFileInfo>
#include <QThread>
#include <cstdio>

#include "command_line.h"
#include "input_error.h"
#include "interrupt.h"
#include "output/output_folder.h"
#include "output/regression_report.h"
#include "output/run_report.h"
#include "redis/redis_error.h"
#include "redis/redis_target.h"
#include "report/output_folder.h"
#include "run/scenario_runner.h"
#include "scenario/scenario_budget.h"

namespace ratelab::cli {
namespace {

// Empty when Redis answers PING on every master now; else why not.
QString unreachableNow(const RedisUrl& url) {
    try {
        ConnectOptions quick;
        quick.connectTimeout = std::chrono::milliseconds(1000);
        quick.commandTimeout = std::chrono::milliseconds(1000);
        RedisRouter probe(url, quick);
        for (RedisConnection* node : probe.masterConnections()) {
            const std::string pong = replyString(node->command({"PING"}).get(), "PING");
            if (pong != "PONG") {
                return QStringLiteral("PING answered \"%1\"").arg(QString::fromStdString(pong));
            }
        }
        return {};
    } catch (const RedisError& e) {
        return QString::fromStdString(e.what());
    }
}

// The exit code of a run that went to its end: 3 when Redis decided nothing at all, or when
// some decisions failed and Redis cannot be reached now; the reason goes to stderr.
int verdict(const RunSnapshot& run, const RedisUrl& url) {
    qint64 decided = 0;
    qint64 errors = 0;
    for (const LimiterSnapshot& l : run.limiters) {
        decided += l.accepted + l.rejected;
        errors += l.errors;
    }
    if (errors == 0) {
        return kDone;
    }
    const QString causes = errorCausesText(runErrorCauses(run));
    if (decided == 0) {
        printError(
            QStringLiteral("Redis refused every decision (%1 errors: %2)").arg(errors).arg(causes));
        return kRedisFailed;
    }
    const QString unreachable = unreachableNow(url);
    if (!unreachable.isEmpty()) {
        printError(QStringLiteral("%1 decisions failed (%2) and Redis could not be reached at the "
                                  "end: %3")
                       .arg(errors)
                       .arg(causes, unreachable));
        return kRedisFailed;
    }
    printError(QStringLiteral("%1 decisions failed (%2); Redis answers again at the end")
                   .arg(errors)
                   .arg(causes));
    return kDone;
}

}  // namespace

int runCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("scenario"), QStringLiteral("Scenario (JSON)."));
    parser.addOptions({
        {QStringLiteral("redis"), QStringLiteral("Redis URL."), QStringLiteral("URL")},
        {QStringLiteral("out"), QStringLiteral("Output folder (default ./ratelab-out)."),
         QStringLiteral("DIR")},
        {QStringLiteral("max-memory"),
         QStringLiteral("Refuse scenarios whose run would need more memory (default 1GiB)."),
         QStringLiteral("SIZE")},
        {QStringLiteral("junit"),
         QStringLiteral("Write the expectations as JUnit XML (one test case each)."),
         QStringLiteral("FILE")},
    });
    parser.addOptions(tlsOptions());
    if (!parseArguments(parser, args, {}, 1)) {
        return kBadInput;
    }
    return runGuarded([&] {
        const qint64 memoryLimit = maxMemoryOption(parser);
        const Scenario scenario =
            loadScenarioFile(parser.positionalArguments().first(), memoryLimit);
        const QString outDir = parser.isSet(QStringLiteral("out"))
                                   ? parser.value(QStringLiteral("out"))
                                   : QStringLiteral("ratelab-out");
        if (!QDir().mkpath(outDir)) {
            throw InputError(QStringLiteral("--out"),
                             QStringLiteral("cannot create the folder %1").arg(outDir));
        }
        // Before the managed server starts: an interrupt then still stops it cleanly.
        installInterruptHandlers();
        const RedisTarget target = resolveRedisTarget(parser);
        ScenarioRunner runner(scenario, target.url());
        runner.start();

        // Progress on stderr: rewritten in place on a terminal, a line a second otherwise.
        const bool tty = ::isatty(STDERR_FILENO);
        int ticks = 0;
        while (!runner.finished()) {
            QThread::msleep(100);
            if (interrupted()) {
                runner.requestStop();  // the workers' waits end within a grace period
            }
            if (tty && ++ticks % 2 == 0) {
                std::fprintf(stderr, "\r%s\x1b[K", qPrintable(progressLine(runner.snapshot())));
            } else if (!tty && ++ticks % 10 == 0) {
                std::fprintf(stderr, "%s\n", qPrintable(progressLine(runner.snapshot())));
            }
        }
        runner.wait();
        const RunSnapshot run = runner.snapshot();
        if (tty) {
            std::fprintf(stderr, "\r%s\x1b[K\n", qPrintable(progressLine(run)));
        }

        QString error;
        if (!writeOutputFolder(run, outDir, &error)) {
            throw InputError(QStringLiteral("--out"), error);
        }
        const QString junit = parser.value(QStringLiteral("junit"));
        if (!junit.isEmpty()) {
            writeFileAtomically(junit,
                                expectationsJUnit(run.scenarioName, double(runLengthUs(run)) / 1e6,
                                                  run.expectations));
        }
        std::fputs(qPrintable(summaryText(run)), stdout);
        std::fputs(qPrintable(expectationsTable(run.expectations)), stdout);
        std::printf("wrote %s/{summary.json,buckets.csv,report.png,report.html}\n",
                    qPrintable(QFileInfo(outDir).absoluteFilePath()));
        if (!junit.isEmpty()) {
            std::printf("wrote %s\n", qPrintable(QFileInfo(junit).absoluteFilePath()));
        }
        if (run.stoppedEarly || interrupted()) {
            std::printf("interrupted by %s: the results cover the run until then\n",
                        qPrintable(interruptName()));
            std::fflush(stdout);
            return interruptExitCode();
        }
        std::fflush(stdout);
        const int redisVerdict = verdict(run, target.url());
        if (redisVerdict != kDone) {
            return redisVerdict;
        }
        // Exit 1 when an expectation failed (the table above names it).
        return expectationVerdict(run.expectations) == QLatin1String("failed") ? int(kFailed)
                                                                               : int(kDone);
    });
}

}  // namespace ratelab::cli
