// ratelab: with no arguments opens the window; subcommands run the same engine headless.
#include <QApplication>
#include <QCoreApplication>
#include <cstdio>
#include <memory>

#include "bench_command.h"
#include "command_line.h"
#include "replay_command.h"
#include "run_command.h"

namespace {

const char kUsage[] =
    "usage:\n"
    "  ratelab replay --limiter SPEC.json --trace TRACE.csv [--redis URL]\n"
    "  ratelab run SCENARIO.json [--redis URL] [--out DIR]\n"
    "  ratelab bench --limiter SPEC.json [--connections N] [--pipeline P] [--requests N]\n"
    "                [--redis URL]\n"
    "\n"
    "Without --redis and REDIS_URL, ratelab starts its own redis-server on a private unix\n"
    "socket. A password may come from the URL or REDISCLI_AUTH.\n"
    "Exit codes: 0 done, 2 bad input, 3 Redis unreachable or failed.\n";

}  // namespace

int main(int argc, char* argv[]) {
    const QString command = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString();
    std::unique_ptr<QCoreApplication> app;
    if (command == QLatin1String("run")) {
        // `run` renders report.png with Qt Charts, which needs a GUI application; headless
        // machines get the offscreen platform instead of failing.
        if (qEnvironmentVariableIsEmpty("DISPLAY") &&
            qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
            qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
            qputenv("QT_QPA_PLATFORM", "offscreen");
        }
        app = std::make_unique<QApplication>(argc, argv);
    } else {
        app = std::make_unique<QCoreApplication>(argc, argv);
    }
    QCoreApplication::setApplicationName(QStringLiteral("ratelab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(RATELAB_VERSION));

    const QStringList args = app->arguments().mid(1);
    if (command == QLatin1String("replay")) {
        return ratelab::cli::replayCommand(args);
    }
    if (command == QLatin1String("run")) {
        return ratelab::cli::runCommand(args);
    }
    if (command == QLatin1String("bench")) {
        return ratelab::cli::benchCommand(args);
    }
    if (command == QLatin1String("--help") || command == QLatin1String("-h") ||
        command == QLatin1String("help")) {
        std::fputs(kUsage, stdout);
        return ratelab::cli::kDone;
    }
    if (command.isEmpty()) {
        // The window is not part of this build yet (it lands with the UI work).
        std::fputs(kUsage, stderr);
        return ratelab::cli::kBadInput;
    }
    ratelab::cli::printError(QStringLiteral("unknown command \"%1\"").arg(command));
    std::fputs(kUsage, stderr);
    return ratelab::cli::kBadInput;
}
