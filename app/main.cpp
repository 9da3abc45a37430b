// ratelab: with no arguments opens the window; subcommands run the same engine headless.
#include <QApplication>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QScreen>
#include <cstdio>
#include <memory>

#include "app_icon.h"
#include "argv_secrets.h"
#include "bench_command.h"
#include "command_line.h"
#include "compare_command.h"
#include "explain_command.h"
#include "hunt_command.h"
#include "keys_command.h"
#include "lesson_command.h"
#include "qt_messages.h"
#include "replay_command.h"
#include "run_command.h"
#include "sweep_command.h"
#include "tools/screenshot_demo.h"
#include "tools/ui_bench.h"
#include "trace_import_command.h"
#include "watch_command.h"
#include "worker_command.h"
#include "window/main_window.h"
#include "window/presentation_mode.h"
#include "window/window_arguments.h"

namespace {

const char kUsage[] =
    "usage:\n"
    "  ratelab [--presentation] [SCENARIO.json]\n"
    "                opens the window (--presentation: for a projector), with the scenario\n"
    "  ratelab replay --limiter SPEC.json --trace TRACE.csv [--redis URL]\n"
    "  ratelab run SCENARIO.json [--redis URL] [--out DIR] [--max-memory SIZE] [--junit FILE]\n"
    "  ratelab sweep SCENARIO.json [--out DIR] [--junit FILE] [--redis URL] [--max-memory SIZE]\n"
    "                [--distributed [--queue NAME] [--claim-ms MS] [--batch N]]\n"
    "                runs every combination of the scenario's \"sweep\" and finds the best\n"
    "  ratelab worker [--redis URL] [--queue NAME] [--claim-ms MS]\n"
    "                works distributed sweeps' batches until SIGINT/SIGTERM\n"
    "  ratelab explain SCENARIO.json --limiter NAME (--request N | --at T_MS [--client C])\n"
    "                [--json] [--redis URL]   why one decision went as it did\n"
    "  ratelab hunt SPEC.json [--reference REF.json] [--property agree|retry|remaining]...\n"
    "                [--seed N] [--traces N | --budget-s S] [--max-rows R] [--out DIR]\n"
    "                [--redis URL]   the shortest trace that breaks a limiter\n"
    "  ratelab compare BASE_DIR NEW_DIR [--tolerance PCT] [--force]\n"
    "                compares two runs' output folders (their summary.json)\n"
    "  ratelab bench --limiter SPEC.json [--connections N] [--pipeline P] [--requests N]\n"
    "                [--names N] [--redis URL]\n"
    "  ratelab keys NAME [--delete] [--redis URL]\n"
    "                lists (or deletes) the keys of the limiter NAME\n"
    "  ratelab watch --redis URL --redisson NAME [--interval-ms N] [--count N]\n"
    "                attaches read-only to a live Redisson RRateLimiter (needs a URL)\n"
    "  ratelab trace import --format combined|common|jsonl [--client FIELD]\n"
    "                [--time-field PATH] [--skip-bad] [--max-memory SIZE] ACCESS.log > TRACE.csv\n"
    "                a web server's access log as a trace (no Redis)\n"
    "  ratelab lesson check FILE... [--redis URL]\n"
    "                plays each lesson in virtual time and checks every claim of its beats\n"
    "  ratelab lesson export FILE --out DIR [--redis URL]\n"
    "                DIR/lesson.html: the lesson as one page that plays its beats\n"
    "\n"
    "Without --redis and REDIS_URL, ratelab starts its own redis-server on a private unix\n"
    "socket. URLs: redis://[[user]:password@]host[:port][/db], unix:///path[?db=N],\n"
    "redis-cluster://[[user]:password@]host:port[,host:port...],\n"
    "redis-sentinel://[[user]:password@]host[:port][,host[:port]...]/MASTER_NAME[?db=N].\n"
    "A password may come from the URL or REDISCLI_AUTH. TLS: rediss://... and\n"
    "rediss-cluster://..., with [--tls-ca-cert FILE] [--tls-cert FILE --tls-key FILE]\n"
    "(or REDIS_TLS_CA_CERT, REDIS_TLS_CERT, REDIS_TLS_KEY) wherever --redis is accepted.\n"
    "Exit codes: 0 done, 1 an expectation failed (run), a difference above the tolerance\n"
    "(compare), no feasible combination (sweep) or a lesson's claim failed (lesson), 2 bad\n"
    "input, 3 Redis unreachable or failed,\n"
    "4 an output file or stdout could not be written (the verdict was 0), 130/143/129 stopped\n"
    "by SIGINT/SIGTERM/SIGHUP (what was measured is still reported).\n"
    "ratelab COMMAND --help: that command's options.\n";

}  // namespace

int main(int argc, char* argv[]) {
    QElapsedTimer sinceLaunch;
    sinceLaunch.start();
    const QString command = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString();
    std::unique_ptr<QCoreApplication> app;
    if (ratelab::opensWindow(command) || command == QLatin1String("--screenshots") ||
        command == QLatin1String("--ui-bench")) {
        QApplication gui(argc, argv);
        QCoreApplication::setOrganizationName(QStringLiteral("ratelab"));
        QCoreApplication::setApplicationName(QStringLiteral("ratelab"));
        QCoreApplication::setApplicationVersion(QStringLiteral(RATELAB_VERSION));
        QApplication::setWindowIcon(ratelab::applicationIcon());
        QGuiApplication::setDesktopFileName(QLatin1String(ratelab::kDesktopFileName));
        const bool tool =
            command == QLatin1String("--screenshots") || command == QLatin1String("--ui-bench");
        const ratelab::WindowArguments arguments =
            tool ? ratelab::WindowArguments() : ratelab::parseWindowArguments(gui.arguments());
        if (!arguments.error.isEmpty()) {
            ratelab::cli::printError(arguments.error);
            std::fputs(kUsage, stderr);
            return ratelab::cli::kBadInput;
        }
        ratelab::MainWindow window;
        // 1600 x 1000 where the screen has room; on a smaller screen (a 1024 x 768 projector)
        // the window takes the screen's available area instead of running off its edge.
        const QSize room = gui.primaryScreen() != nullptr
                               ? gui.primaryScreen()->availableGeometry().size()
                               : QSize(1600, 1000);
        window.resize(QSize(1600, 1000).boundedTo(room));
        QString error;
        if (!ratelab::applyWindowArguments(window, arguments, &error)) {
            ratelab::cli::printError(error);  // names the file: exit 2, as on the command line
            window.setWindowModified(false);
            return ratelab::cli::kBadInput;
        }
        window.show();
        ratelab::applyPresentationFlag(window, gui.arguments());
        if (command == QLatin1String("--screenshots")) {
            // ratelab --screenshots DIR SCENARIO.json [SECONDS]: the documentation's pictures.
            const QStringList rest = gui.arguments().mid(2);
            if (rest.size() < 2) {
                std::fputs("usage: ratelab --screenshots DIR SCENARIO.json [SECONDS]\n", stderr);
                return ratelab::cli::kBadInput;
            }
            ratelab::startScreenshotDemo(window, rest[1], rest[0],
                                         rest.size() > 2 ? rest[2].toInt() : 6);
        }
        if (command == QLatin1String("--ui-bench")) {
            // ratelab --ui-bench SCENARIO.json [SECONDS]: redraw rate and event-loop stalls.
            const QStringList rest = gui.arguments().mid(2);
            if (rest.isEmpty()) {
                std::fputs("usage: ratelab --ui-bench SCENARIO.json [SECONDS]\n", stderr);
                return ratelab::cli::kBadInput;
            }
            ratelab::startUiBench(window, rest[0], rest.size() > 1 ? rest[1].toInt() : 20,
                                  sinceLaunch);
        }
        return gui.exec();
    }
    ratelab::cli::keepQtMessagesOffTheCommandLine();
    if (command == QLatin1String("run") || command == QLatin1String("sweep")) {
        // `run` renders report.png with Qt Charts (`sweep` sweep.png), which needs a GUI
        // application; headless
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
    // The arguments are copied: a password in --redis need not stay visible in ps.
    ratelab::cli::hidePasswordsInArgv(argc, argv);
    if (command == QLatin1String("replay")) {
        return ratelab::cli::replayCommand(args);
    }
    if (command == QLatin1String("run")) {
        return ratelab::cli::runCommand(args);
    }
    if (command == QLatin1String("sweep")) {
        return ratelab::cli::sweepCommand(args);
    }
    if (command == QLatin1String("worker")) {
        return ratelab::cli::workerCommand(args);
    }
    if (command == QLatin1String("explain")) {
        return ratelab::cli::explainCommand(args);
    }
    if (command == QLatin1String("hunt")) {
        return ratelab::cli::huntCommand(args);
    }
    if (command == QLatin1String("compare")) {
        return ratelab::cli::compareCommand(args);
    }
    if (command == QLatin1String("keys")) {
        return ratelab::cli::keysCommand(args);
    }
    if (command == QLatin1String("bench")) {
        return ratelab::cli::benchCommand(args);
    }
    if (command == QLatin1String("watch")) {
        return ratelab::cli::watchCommand(args);
    }
    if (command == QLatin1String("trace")) {
        return ratelab::cli::traceCommand(args);
    }
    if (command == QLatin1String("lesson")) {
        return ratelab::cli::lessonCommand(args);
    }
    if (command == QLatin1String("--help") || command == QLatin1String("-h") ||
        command == QLatin1String("help")) {
        std::fputs(kUsage, stdout);
        return ratelab::cli::kDone;
    }
    ratelab::cli::printError(QStringLiteral("unknown command \"%1\"").arg(command));
    std::fputs(kUsage, stderr);
    return ratelab::cli::kBadInput;
}
