#include "command_line.h"

#include <cstdio>
#include <cstdlib>

#include "input_error.h"
#include "input_limits.h"
#include "interrupt.h"
#include "interrupt_flag.h"
#include "json_input.h"
#include "memory_size.h"
#include "redis/redis_error.h"
#include "standard_output.h"

namespace ratelab::cli {

void printError(const QString& message) {
    // Messages echo input (a log's line, a client's name, a path): its control characters are
    // written as \u001b, never sent to the terminal.
    std::fprintf(stderr, "ratelab: %s\n", json_input::printable(message).toLocal8Bit().constData());
    std::fflush(stderr);
}

namespace {

// "usage: ratelab run [options] scenario" and the options, each with what it does.
QString subcommandHelp(const QCommandLineParser& parser, const QString& subcommand) {
    QString help = parser.helpText();
    const qsizetype firstLineEnd = help.indexOf(QLatin1Char('\n'));
    const QString synopsis = help.left(firstLineEnd);
    const qsizetype options = synopsis.indexOf(QLatin1String("[options]"));
    help.replace(0, firstLineEnd,
                 QStringLiteral("usage: ratelab %1 %2")
                     .arg(subcommand, options >= 0 ? synopsis.mid(options) : QString()));
    return help;
}

}  // namespace

bool parseArguments(QCommandLineParser& parser, const QStringList& args,
                    const QStringList& required, int positional) {
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help = parser.addHelpOption();
    if (!parser.parse(args)) {
        printError(args.value(0) + QStringLiteral(": ") + parser.errorText());
        return false;
    }
    if (parser.isSet(help)) {
        // As QCommandLineParser::showHelp does: nothing has started yet (no thread, server or
        // connection), so the process ends here with 0.
        std::fputs(subcommandHelp(parser, args.value(0)).toLocal8Bit().constData(), stdout);
        std::fflush(stdout);
        std::exit(kDone);
    }
    for (const QString& name : required) {
        if (!parser.isSet(name) || parser.value(name).isEmpty()) {
            printError(args.value(0) + QStringLiteral(": --%1 is required").arg(name));
            return false;
        }
    }
    if (parser.positionalArguments().size() != positional) {
        printError(args.value(0) + QStringLiteral(": expected %1 argument(s), got %2: %3")
                                       .arg(positional)
                                       .arg(parser.positionalArguments().size())
                                       .arg(parser.positionalArguments().join(QLatin1Char(' '))));
        return false;
    }
    return true;
}

qint64 integerOption(const QCommandLineParser& parser, const QString& name, qint64 fallback,
                     qint64 min, qint64 max) {
    if (!parser.isSet(name)) {
        return fallback;
    }
    bool ok = false;
    const qint64 value = parser.value(name).toLongLong(&ok);
    if (!ok || value < min || value > max) {
        throw InputError(QStringLiteral("--") + name,
                         QStringLiteral("must be an integer from %1 to %2, got \"%3\"")
                             .arg(min)
                             .arg(max)
                             .arg(parser.value(name)));
    }
    return value;
}

QCommandLineOption maxMemoryOption(const QString& what) {
    return {QStringLiteral("max-memory"), what + QStringLiteral(" (default 1GiB)."),
            QStringLiteral("SIZE")};
}

qint64 maxMemory(const QCommandLineParser& parser) {
    const QString name = QStringLiteral("max-memory");
    return parser.isSet(name) ? parseMemorySize(parser.value(name), QStringLiteral("--max-memory"))
                              : scenario_limits::kDefaultMaxMemoryBytes;
}

QList<QCommandLineOption> tlsOptions() {
    return {
        {QStringLiteral("tls-ca-cert"),
         QStringLiteral("CA certificate (PEM) that signed the server's certificate, for rediss:// "
                        "URLs (default: REDIS_TLS_CA_CERT, else the system's trusted CAs)."),
         QStringLiteral("FILE")},
        {QStringLiteral("tls-cert"),
         QStringLiteral("Client certificate (PEM) for mutual TLS (default: REDIS_TLS_CERT)."),
         QStringLiteral("FILE")},
        {QStringLiteral("tls-key"),
         QStringLiteral("The client certificate's unencrypted key (PEM) (default: REDIS_TLS_KEY)."),
         QStringLiteral("FILE")},
    };
}

RedisTarget resolveRedisTarget(const QCommandLineParser& parser) {
    RedisUrl::TlsFiles tls;
    tls.caCert = parser.value(QStringLiteral("tls-ca-cert"));
    tls.cert = parser.value(QStringLiteral("tls-cert"));
    tls.key = parser.value(QStringLiteral("tls-key"));
    return RedisTarget::resolve(parser.value(QStringLiteral("redis")), tls);
}

int runGuarded(const std::function<int()>& body, OnInterrupt onInterrupt) {
    installInterruptHandlers();
    installStdout();
    // An error the interrupt caused (a Redis wait cut short, a trace read stopped, input cut
    // off) is not the error's: the command was stopped.
    const auto stopped = [] {
        printError(QStringLiteral("interrupted by %1").arg(interruptName()));
        return interruptExitCode();
    };
    int code = kDone;
    bool stdoutReported = false;
    try {
        code = body();
    } catch (const Interrupted&) {
        code = stopped();
    } catch (const InputError& e) {
        if (interrupted()) {
            code = stopped();
        } else {
            printError(e.message());
            code = kBadInput;
        }
    } catch (const RedisError& e) {
        if (interrupted()) {
            code = stopped();
        } else {
            printError(QStringLiteral("redis: ") + QString::fromStdString(e.what()));
            code = kRedisFailed;
        }
    } catch (const StdoutFailed& failed) {
        printError(stdoutFailedText(failed));
        stdoutReported = true;
        code = kOutputFailed;
    } catch (const std::bad_alloc&) {
        printError(QStringLiteral("out of memory"));
        code = kFailed;
    }
    // stdout that did not take everything: exit 4 where the command would have exited 0.
    if (!stdoutReported) {
        if (const int error = flushStdout(); error != 0) {
            printError(stdoutFailedText({error, QString()}));
            code = code == kDone ? int(kOutputFailed) : code;
        }
    }
    // A signal that came while the command ended anyway (its last write, a file read): the exit
    // code still says the command was stopped.
    if (interrupted() && onInterrupt == OnInterrupt::ExitCode && code != interruptExitCode()) {
        code = stopped();
    }
    return code;
}

}  // namespace ratelab::cli
