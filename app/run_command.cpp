#include "run_command.h"

#include <unistd.h>
#include <QThread>
#include <cstdio>

#include "command_line.h"
#include "input_error.h"
#include "interrupt.h"
#include "output/regression_report.h"
#include "output/run_report.h"
#include "output/run_verdict.h"
#include "redis/redis_error.h"
#include "redis/redis_router.h"
#include "redis/redis_target.h"
#include "run/scenario_runner.h"
#include "run/script_ttls.h"
#include "run_outputs.h"
#include "scenario/scenario_budget.h"
#include "scenario/summary_size.h"
#include "scenario/traffic_length.h"

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

// Says on stderr how many decisions failed and why, and whether Redis answers at the end.
void reportFailedDecisions(const RunSnapshot& run, const RedisUrl& url) {
    qint64 decided = 0;
    qint64 errors = 0;
    for (const LimiterSnapshot& l : run.limiters) {
        decided += l.accepted + l.rejected;
        errors += l.errors;
    }
    if (errors == 0) {
        return;
    }
    const QString causes = errorCausesText(runErrorCauses(run));
    if (decided == 0) {
        printError(
            QStringLiteral("Redis refused every decision (%1 errors: %2)").arg(errors).arg(causes));
        return;
    }
    const QString unreachable = unreachableNow(url);
    if (!unreachable.isEmpty()) {
        printError(QStringLiteral("%1 decisions failed (%2) and Redis could not be reached at the "
                                  "end: %3")
                       .arg(errors)
                       .arg(causes, unreachable));
        return;
    }
    printError(QStringLiteral("%1 decisions failed (%2); Redis answers again at the end")
                   .arg(errors)
                   .arg(causes));
}

// The run's exit code: 130/143 stopped by a signal; the verdict's otherwise. An incomplete
// verdict is 3 when decisions failed that no expectation allows for (Redis's failure, also
// when a limiter's every decision failed), else 1; a failed expectation 1.
int runExitCode(const RunSnapshot& run, const RunSummary& summary, const RedisUrl& url) {
    if (!run.stopCause.isEmpty() && !interrupted()) {
        std::fflush(stdout);
        printError(run.stopCause);
        return kRedisFailed;
    }
    if (run.stoppedEarly || interrupted()) {
        std::printf("interrupted by %s: the results cover the run until then\n",
                    qPrintable(interruptName()));
        return interruptExitCode();
    }
    std::fflush(stdout);
    reportFailedDecisions(run, url);
    if (summary.verdict == output_format::verdict::kIncomplete) {
        printError(QStringLiteral("verdict incomplete: %1").arg(summary.verdictReason));
        return incompleteByFailedDecisions(summary) ? kRedisFailed : kFailed;
    }
    // Exit 1 when an expectation failed (the table above names it).
    return summary.verdict == output_format::verdict::kFailed ? kFailed : kDone;
}

// A virtual run of a script limiter on its arguments' clock whose keys hold TTLs shorter than
// the run: a warning on stderr (run/script_ttls.h).
void warnShortScriptTtls(const ScenarioRunner& runner, const Scenario& scenario,
                         const RedisUrl& url) {
    if (!scenario.traffic.clock.isVirtual) {
        return;
    }
    std::vector<const Limiter*> limiters;
    for (int l = 0; l < scenario.limiters.size(); ++l) {
        if (scenario.limiters[l].script) {
            limiters.push_back(&runner.limiter(l));
        }
    }
    if (limiters.empty()) {
        return;
    }
    const qint64 spanMs = qint64(scenario.traffic.durationS * 1000);
    try {
        RedisRouter router(url);
        for (const ShortScriptTtl& found : shortScriptTtls(router, limiters, spanMs)) {
            printError(QStringLiteral("warning: ") + shortScriptTtlWarning(found, spanMs));
        }
    } catch (const RedisError&) {
        // Redis gone at the end: the failed decisions say so.
    }
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
        const QString file = parser.positionalArguments().first();
        const OutputTargets outputs{
            QStringLiteral("run"),
            parser.isSet(QStringLiteral("out")) ? parser.value(QStringLiteral("out"))
                                                : QStringLiteral("ratelab-out"),
            parser.value(QStringLiteral("junit")), outputFolderFiles(), file};
        // First, before the scenario is read: an earlier run's files are removed, so a run that
        // fails (bad input, Redis) leaves none of them; every output path is checked before
        // anything reaches Redis.
        prepareOutputTargets(outputs);
        const qint64 memoryLimit = maxMemoryOption(parser);
        const Scenario scenario = loadScenarioFile(file, memoryLimit);
        if (const QString note = summarySizeNote(scenario); !note.isEmpty()) {
            std::fprintf(stderr, "note: %s\n", qPrintable(note));
        }
        const RedisTarget target = resolveRedisTarget(parser);
        ScenarioRunner runner(scenario, target.url());
        try {
            runner.start();
        } catch (const RedisError& e) {
            writeUnmeasuredJUnit(outputs, scenario,
                                 QStringLiteral("Redis failed before the run: %1")
                                     .arg(QString::fromStdString(e.what())));
            throw;
        }

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

        const RunSummary summary = summaryOf(run);
        for (const QString& warning : shortTrafficWarnings(scenario)) {
            std::printf("warning: %s\n", qPrintable(warning));
        }
        warnShortScriptTtls(runner, scenario, target.url());
        std::fputs(qPrintable(summaryText(run)), stdout);
        std::fputs(qPrintable(expectationsTable(summary)), stdout);
        const QStringList failedWrites = writeRunOutputs(run, summary, outputs);
        return outputExitCode(runExitCode(run, summary, target.url()), failedWrites);
    });
}

}  // namespace ratelab::cli
