#include "traffic/access_log.h"

#include <QHash>
#include <algorithm>

#include "input_error.h"
#include "json_input.h"
#include "traffic/access_log_line.h"

namespace ratelab {
namespace {

constexpr qint64 kMaxLineBytes = 1024 * 1024;
constexpr qsizetype kMaxClientLength = 200;  // as a trace's (traffic/trace.cpp)

// A trace's client: no comma (commas become ';'), no control characters, no spaces around it.
QString traceClient(QString client) {
    for (QChar& c : client) {
        if (c == u',') {
            c = u';';
        } else if (c.unicode() < 0x20 || c.unicode() == 0x7f) {
            c = u' ';
        }
    }
    return client.trimmed();
}

// Lines one at a time, each at most kMaxLineBytes; a longer one is an error (the rest of it is
// read past, so that skipping it goes on at the next line).
class LineReader {
public:
    explicit LineReader(QIODevice& in) : in_(in) {}
    bool next(QByteArray* line, bool* tooLong) {
        if (in_.atEnd()) {
            return false;
        }
        *line = in_.readLine(kMaxLineBytes + 1);
        *tooLong = line->size() > kMaxLineBytes && !line->endsWith('\n');
        if (*tooLong) {
            while (!in_.atEnd() && !in_.readLine(kMaxLineBytes + 1).endsWith('\n')) {
            }
        }
        while (line->endsWith('\n') || line->endsWith('\r')) {
            line->chop(1);
        }
        return true;
    }

private:
    QIODevice& in_;
};

void checkClientField(const AccessLogOptions& options) {
    if (options.format == AccessLogFormat::JsonLines || options.clientField.isEmpty()) {
        return;
    }
    const QStringList fields = access_log::clfClientFields(options.format);
    if (!fields.contains(options.clientField)) {
        throw InputError(QStringLiteral("--client"),
                         QStringLiteral("a %1 log names its client by %2; got %3")
                             .arg(accessLogFormatName(options.format), json_input::oneOf(fields),
                                  json_input::quoted(options.clientField)));
    }
}

}  // namespace

QString accessLogFormatName(AccessLogFormat format) {
    switch (format) {
        case AccessLogFormat::Combined:
            return QStringLiteral("combined");
        case AccessLogFormat::Common:
            return QStringLiteral("common");
        case AccessLogFormat::JsonLines:
            return QStringLiteral("jsonl");
    }
    return {};
}

AccessLogImport importAccessLog(QIODevice& log, const QString& fileName,
                                const AccessLogOptions& options) {
    checkClientField(options);
    AccessLogImport out;
    const bool json = options.format == AccessLogFormat::JsonLines;
    access_log::JsonFields fields;
    bool fieldsKnown = !json;
    QHash<QString, QString> clients;  // rows share one copy of each name
    LineReader reader(log);
    QByteArray bytes;
    bool tooLong = false;
    qint64 latest = -1;
    while (reader.next(&bytes, &tooLong)) {
        const qint64 lineNumber = ++out.lines;
        const QString line = QString::fromUtf8(bytes);
        if (!tooLong && line.trimmed().isEmpty()) {
            continue;
        }
        try {
            if (tooLong) {
                throw access_log::LineError{
                    QStringLiteral("the line is longer than %1 bytes").arg(kMaxLineBytes)};
            }
            if (!fieldsKnown) {
                fields = access_log::jsonFieldsOf(line, options);
                fieldsKnown = true;
            }
            access_log::Request request = json ? access_log::parseJsonLine(line, fields)
                                               : access_log::parseClfLine(line, options);
            request.client = traceClient(request.client);
            if (request.client.size() > kMaxClientLength) {
                throw access_log::LineError{QStringLiteral("the client is %1 characters long; a "
                                                           "trace's holds at most %2")
                                                .arg(request.client.size())
                                                .arg(kMaxClientLength)};
            }
            auto known = clients.constFind(request.client);
            if (known == clients.cend()) {
                known = clients.insert(request.client, request.client);
            }
            if (request.tMs < latest) {
                ++out.reordered;
            }
            latest = std::max(latest, request.tMs);
            out.rows.append(TraceRow{request.tMs, *known, 1, int(lineNumber)});
        } catch (const access_log::LineError& error) {
            const QString where = fileName + QLatin1Char(':') + QString::number(lineNumber);
            if (!options.skipBad) {
                throw InputError(where, error.what);
            }
            if (out.skipped++ == 0) {
                out.firstSkipped = where + QStringLiteral(": ") + error.what;
            }
        }
    }
    if (out.rows.isEmpty()) {
        throw InputError(fileName,
                         QStringLiteral("no request in %1 lines of a %2 log%3")
                             .arg(out.lines)
                             .arg(accessLogFormatName(options.format))
                             .arg(out.skipped > 0 ? QStringLiteral(" (%1 skipped; the first: %2)")
                                                        .arg(out.skipped)
                                                        .arg(out.firstSkipped)
                                                  : QString()));
    }
    if (out.reordered > 0) {
        std::stable_sort(out.rows.begin(), out.rows.end(),
                         [](const TraceRow& a, const TraceRow& b) { return a.tMs < b.tMs; });
    }
    out.clients = int(clients.size());
    out.clientField = json ? fields.client
                           : (options.clientField.isEmpty() ? QStringLiteral("remote_addr")
                                                            : options.clientField);
    out.timeField = json ? fields.time : QStringLiteral("[time]");
    return out;
}

QByteArray traceCsv(const QVector<TraceRow>& rows) {
    QByteArray csv = "t_ms,client,permits\n";
    csv.reserve(csv.size() + rows.size() * 32);
    for (const TraceRow& row : rows) {
        csv += QByteArray::number(row.tMs) + ',' + row.client.toUtf8() + ',' +
               QByteArray::number(row.permits) + '\n';
    }
    return csv;
}

}  // namespace ratelab
