#include "trace_import_command.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QLocale>
#include <cstdio>

#include "command_line.h"
#include "input_error.h"
#include "interrupt.h"
#include "interrupt_flag.h"
#include "interruptible_input.h"
#include "json_input.h"
#include "standard_output.h"
#include "traffic/access_log.h"
#include "traffic/pacer.h"

namespace ratelab::cli {
namespace {

constexpr AccessLogFormat kFormats[] = {AccessLogFormat::Combined, AccessLogFormat::Common,
                                        AccessLogFormat::JsonLines};

AccessLogFormat formatOption(const QString& name) {
    QStringList names;
    for (const AccessLogFormat format : kFormats) {
        if (accessLogFormatName(format) == name) {
            return format;
        }
        names << accessLogFormatName(format);
    }
    throw InputError(QStringLiteral("--format"),
                     QStringLiteral("expected %1, got %2")
                         .arg(json_input::oneOf(names), json_input::quoted(name)));
}

QString utc(qint64 ms) {
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

QString grouped(qint64 n) {
    return QLocale(QLocale::English).toString(n);
}

// What the trace holds, for stderr (the log's text in it with its control characters escaped).
QString importSummary(const AccessLogImport& log, const QString& file, AccessLogFormat format) {
    const AccessLogRows& rows = log.rows;
    const qint64 firstMs = rows.tMsAt(0), lastMs = rows.tMsAt(rows.size() - 1);
    qint64 busiestFrom = 0;
    const qint64 busiest = busiestSecondOf(
        rows.size(), [&](qsizetype i) { return rows.tMsAt(i) - firstMs; }, &busiestFrom);
    QString text =
        QStringLiteral("trace import: %1 (%2, client %3, time %4)\n")
            .arg(file, accessLogFormatName(format), log.clientField, log.timeField) +
        QStringLiteral("  rows: %1 (of %2 lines)\n").arg(grouped(rows.size()), grouped(log.lines)) +
        QStringLiteral("  clients: %1\n").arg(grouped(rows.clients())) +
        QStringLiteral("  span: %1 s, %2 to %3\n")
            .arg(double(lastMs - firstMs) / 1000, 0, 'f', 3)
            .arg(utc(firstMs), utc(lastMs)) +
        QStringLiteral("  busiest second: %1 requests from %2 (t_ms %3)\n")
            .arg(grouped(busiest), utc(firstMs + busiestFrom))
            .arg(firstMs + busiestFrom);
    if (log.reordered > 0) {
        text += QStringLiteral(
                    "  out of order: %1 rows earlier than a line before them, moved "
                    "into time order\n")
                    .arg(grouped(log.reordered));
    }
    if (log.skipped > 0) {
        text += QStringLiteral("  skipped: %1 malformed lines; the first: %2\n")
                    .arg(grouped(log.skipped), log.firstSkipped);
    }
    return json_input::printable(text);
}

int importTrace(const QStringList& args) {
    QCommandLineParser parser;
    parser.addOptions(
        {{QStringLiteral("format"),
          QStringLiteral("combined (nginx, Apache), common (Apache CLF) or jsonl."),
          QStringLiteral("FORMAT")},
         {QStringLiteral("client"),
          QStringLiteral("Who the client is: remote_addr (default), remote_user, referer, "
                         "user_agent, forwarded_for; jsonl: a field's path."),
          QStringLiteral("FIELD")},
         {QStringLiteral("time-field"), QStringLiteral("jsonl: the time field's path."),
          QStringLiteral("PATH")},
         {QStringLiteral("skip-bad"),
          QStringLiteral("Leave malformed lines out (counted) instead of stopping.")},
         maxMemoryOption(QStringLiteral("Refuse logs whose rows would need more memory"))});
    if (!parseArguments(parser, args, {QStringLiteral("format")}, 1)) {
        return kBadInput;
    }
    return runGuarded([&] {
        AccessLogOptions options;
        options.format = formatOption(parser.value(QStringLiteral("format")));
        options.clientField = parser.value(QStringLiteral("client"));
        options.timeField = parser.value(QStringLiteral("time-field"));
        options.skipBad = parser.isSet(QStringLiteral("skip-bad"));
        if (!options.timeField.isEmpty() && options.format != AccessLogFormat::JsonLines) {
            throw InputError(QStringLiteral("--time-field"),
                             QStringLiteral("only for --format jsonl: a %1 log has its time "
                                            "in [ ]")
                                 .arg(accessLogFormatName(options.format)));
        }
        options.maxBytes = maxMemory(parser);
        options.limitName = QStringLiteral("--max-memory");
        const QString path = parser.positionalArguments().first();
        // Read line by line (never whole), through a device that a signal ends even while it
        // waits on a pipe or a terminal.
        InterruptibleInput input;
        if (!input.openPath(path)) {
            throw InputError(path, QStringLiteral("cannot read the file: ") + input.failure());
        }
        const QString name = path == QLatin1String("-") ? QStringLiteral("stdin") : path;
        const auto readFailure = [&] {
            if (!input.failure().isEmpty() && !interrupted()) {
                throw InputError(name, QStringLiteral("cannot read the file: ") + input.failure());
            }
        };
        AccessLogImport log;
        try {
            log = importAccessLog(input, name, options);
        } catch (const InputError&) {
            readFailure();  // the log's end was a read error, not a log without requests
            throw;
        }
        readFailure();
        throwIfInterrupted("reading the access log");  // nothing of a log cut short is written
        // Written in pieces of a MiB; a stdout that does not take one (a full disk, `| head`)
        // stops the writing (exit 4), and so does a signal.
        writeTraceCsv(log.rows, [](const QByteArray& piece) {
            throwIfInterrupted("writing the trace");
            writeStdout(piece);
        });
        std::fputs(importSummary(log, name, options.format).toLocal8Bit().constData(), stderr);
        return kDone;
    });
}

}  // namespace

int traceCommand(const QStringList& args) {
    if (args.value(1) != QLatin1String("import")) {
        printError(QStringLiteral("trace: expected \"trace import\", got %1")
                       .arg(args.size() > 1 ? json_input::quoted(args[1])
                                            : QStringLiteral("nothing after \"trace\"")));
        return kBadInput;
    }
    QStringList rest = args.mid(1);
    rest[0] = QStringLiteral("trace import");
    return importTrace(rest);
}

}  // namespace ratelab::cli
