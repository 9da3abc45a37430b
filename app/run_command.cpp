#include "run_command.h"

#include <unistd.h>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QThread>
#include <atomic>
#include <csignal>
#include <cstdio>

#include "command_line.h"
#include "input_error.h"
#include "redis/redis_target.h"
#include "report/report_renderer.h"
#include "scenario/run_report.h"
#include "scenario/scenario_budget.h"
#include "scenario/scenario_runner.h"

namespace ratelab::cli {
namespace {

std::atomic<bool> interrupted{false};

void onInterrupt(int) {
    interrupted = true;
}

void writeFile(const QString& path, const QByteArray& content) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(content) != content.size() || !file.flush()) {
        throw InputError(path, QStringLiteral("cannot write: %1").arg(file.errorString()));
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
    });
    if (!parseArguments(parser, args, {}, 1)) {
        return kBadInput;
    }
    return runGuarded([&] {
        const QString maxMemory = QStringLiteral("max-memory");
        const qint64 memoryLimit =
            parser.isSet(maxMemory)
                ? parseMemorySize(parser.value(maxMemory), QStringLiteral("--max-memory"))
                : scenario_limits::kDefaultMaxMemoryBytes;
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
        std::signal(SIGINT, onInterrupt);
        std::signal(SIGTERM, onInterrupt);
        const RedisTarget target = RedisTarget::resolve(parser.value(QStringLiteral("redis")));
        ScenarioRunner runner(scenario, target.url());
        runner.start();

        // Progress on stderr: rewritten in place on a terminal, a line a second otherwise.
        const bool tty = ::isatty(STDERR_FILENO);
        int ticks = 0;
        while (!runner.finished()) {
            QThread::msleep(100);
            if (interrupted) {
                runner.requestStop();
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

        const QDir dir(outDir);
        writeFile(dir.filePath(QStringLiteral("summary.json")),
                  QJsonDocument(summaryJson(run)).toJson(QJsonDocument::Indented));
        writeFile(dir.filePath(QStringLiteral("buckets.csv")), bucketsCsv(run));
        QString error;
        if (!writeReportPng(run, dir.filePath(QStringLiteral("report.png")), &error)) {
            throw InputError(QStringLiteral("--out"), error);
        }
        std::fputs(qPrintable(summaryText(run)), stdout);
        std::printf("wrote %s/{summary.json,buckets.csv,report.png}\n",
                    qPrintable(QFileInfo(outDir).absoluteFilePath()));
        std::fflush(stdout);
        return int(interrupted ? kFailed : kDone);
    });
}

}  // namespace ratelab::cli
