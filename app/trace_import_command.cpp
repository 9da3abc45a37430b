#include "trace_import_command.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QFile>
#include <QLocale>
#include <cstdio>

#include "command_line.h"
#include "input_error.h"
#include "json_input.h"
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
    throw InputError(QStringLiteral("--format"), QStringLiteral("expected %1, got %2")
                                                     .arg(json_input::oneOf(names),
                                                          json_input::quoted(name)));
}

QString utc(qint64 ms) {
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

QString grouped(qint64 n) {
    return QLocale(QLocale::English).toString(n);
}

// What the trace holds, for stderr.
QString importSummary(const AccessLogImport& log, const QString& file, AccessLogFormat format) {
    const QVector<TraceRow>& rows = log.rows;
    QVector<qint64> offsets;
    offsets.reserve(rows.size());
    for (const TraceRow& row : rows) {
        offsets.push_back(row.tMs - rows.first().tMs);
    }
    qint64 busiestFrom = 0;
    const qint64 busiest = busiestSecond(offsets, &busiestFrom);
    const qint64 firstMs = rows.first().tMs, lastMs = rows.last().tMs;
    QString text =
        QStringLiteral("trace import: %1 (%2, client %3, time %4)\n")
            .arg(file, accessLogFormatName(format), log.clientField, log.timeField) +
        QStringLiteral("  rows: %1 (of %2 lines)\n").arg(grouped(rows.size()), grouped(log.lines)) +
        QStringLiteral("  clients: %1\n").arg(grouped(log.clients)) +
        QStringLiteral("  span: %1 s, %2 to %3\n")
            .arg(double(lastMs - firstMs) / 1000, 0, 'f', 3)
            .arg(utc(firstMs), utc(lastMs)) +
        QStringLiteral("  busiest second: %1 requests from %2 (t_ms %3)\n")
            .arg(grouped(busiest), utc(firstMs + busiestFrom))
            .arg(firstMs + busiestFrom);
    if (log.reordered > 0) {
        text += QStringLiteral("  out of order: %1 rows earlier than a line before them, moved "
                               "into time order\n")
                    .arg(grouped(log.reordered));
    }
    if (log.skipped > 0) {
        text += QStringLiteral("  skipped: %1 malformed lines; the first: %2\n")
                    .arg(grouped(log.skipped), log.firstSkipped);
    }
    return text;
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
          QStringLiteral("Leave malformed lines out (counted) instead of stopping.")}});
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
        const QString path = parser.positionalArguments().first();
        QFile file;
        const bool stdIn = path == QLatin1String("-");
        const bool opened = stdIn ? file.open(stdin, QIODevice::ReadOnly)
                                  : (file.setFileName(path), file.open(QIODevice::ReadOnly));
        if (!opened) {
            throw InputError(path, QStringLiteral("cannot read the file: ") + file.errorString());
        }
        const QString name = stdIn ? QStringLiteral("stdin") : path;
        const AccessLogImport log = importAccessLog(file, name, options);
        const QByteArray csv = traceCsv(log.rows);
        std::fwrite(csv.constData(), 1, size_t(csv.size()), stdout);
        std::fflush(stdout);
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
