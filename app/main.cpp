// ratelab: with no arguments opens the window; subcommands run the same engine headless.
#include <QCoreApplication>
#include <cstdio>

#include "command_line.h"
#include "replay_command.h"

namespace {

const char kUsage[] =
    "usage:\n"
    "  ratelab replay --limiter SPEC.json --trace TRACE.csv [--redis URL]\n"
    "\n"
    "Without --redis and REDIS_URL, ratelab starts its own redis-server on a private unix\n"
    "socket. A password may come from the URL or REDISCLI_AUTH.\n"
    "Exit codes: 0 done, 2 bad input, 3 Redis unreachable or failed.\n";

}  // namespace

int main(int argc, char* argv[]) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("ratelab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(RATELAB_VERSION));

    const QStringList args = app.arguments().mid(1);
    const QString command = args.value(0);
    if (command == QLatin1String("replay")) {
        return ratelab::cli::replayCommand(args);
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
