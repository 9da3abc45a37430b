#include "traffic/access_log.h"

#include <algorithm>

#include "input_error.h"
#include "json_input.h"
#include "memory_size.h"
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
// read past, so that skipping it goes on at the next line). The end is where a read gives
// nothing: atEnd() cannot say it of a pipe before a read has found it. Each line is read into
// one buffer kept for all of them (QIODevice::readLine(maxSize) allocates maxSize a line).
class LineReader {
public:
    explicit LineReader(QIODevice& in) : in_(in), buffer_(kMaxLineBytes + 2, Qt::Uninitialized) {}
    bool next(QByteArray* line, bool* tooLong) {
        const qint64 n = in_.readLine(buffer_.data(), buffer_.size());
        if (n <= 0) {
            return false;
        }
        *line = QByteArray(buffer_.constData(), qsizetype(n));
        *tooLong = line->size() > kMaxLineBytes && !line->endsWith('\n');
        if (*tooLong) {
            for (qint64 m = in_.readLine(buffer_.data(), buffer_.size());
                 m > 0 && buffer_[m - 1] != '\n';
                 m = in_.readLine(buffer_.data(), buffer_.size())) {
            }
        }
        while (line->endsWith('\n') || line->endsWith('\r')) {
            line->chop(1);
        }
        return true;
    }

private:
    QIODevice& in_;
    QByteArray buffer_;
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

// Fills an AccessLogRows within the options' memory bound.
class AccessLogReader {
public:
    AccessLogReader(AccessLogRows& rows, const AccessLogOptions& options, const QString& fileName)
        : rows_(rows), options_(options), fileName_(fileName) {}

    void append(qint64 tMs, const QString& client, qint64 line) {
        auto known = rows_.index_.constFind(client);
        if (known == rows_.index_.cend()) {
            known = rows_.index_.insert(client, qint32(rows_.names_.size()));
            rows_.names_.append(client);
            rows_.nameBytes_ += Trace::clientBytes(client.size());
            checkBudget(line, 0);
        }
        rows_.rows_.push_back(AccessLogRows::Row{tMs, *known, qint32(line)});
        if (rows_.rows_.size() % 65536 == 0) {
            checkBudget(line, 0);
        }
    }

    // Stably, by time: std::stable_sort takes a buffer of as many rows again.
    void sortByTime(qint64 lines) {
        checkBudget(lines, qint64(rows_.rows_.size()) * qint64(sizeof(AccessLogRows::Row)));
        std::stable_sort(
            rows_.rows_.begin(), rows_.rows_.end(),
            [](const AccessLogRows::Row& a, const AccessLogRows::Row& b) { return a.tMs < b.tMs; });
    }

private:
    void checkBudget(qint64 line, qint64 extra) const {
        const qint64 held = rows_.allocatedBytes() + extra;
        if (held <= options_.maxBytes) {
            return;
        }
        throw InputError(
            fileName_ + QLatin1Char(':') + QString::number(line),
            QStringLiteral("the trace needs more than the %1 limit by this line (%2 rows, %3 "
                           "clients: %4%5); use a shorter log, or raise the limit (%6)")
                .arg(formatBytes(options_.maxBytes))
                .arg(rows_.size())
                .arg(rows_.clients())
                .arg(formatBytes(held),
                     extra > 0 ? QStringLiteral(", moving the rows into time order") : QString(),
                     options_.limitName));
    }

    AccessLogRows& rows_;
    const AccessLogOptions& options_;
    const QString& fileName_;
};

TraceRow AccessLogRows::operator[](qsizetype i) const {
    const Row& row = rows_[std::size_t(i)];
    return TraceRow{row.tMs, names_[row.client], 1, row.line};
}

qint64 AccessLogRows::allocatedBytes() const {
    return qint64(rows_.size()) * qint64(sizeof(Row)) + nameBytes_;
}

AccessLogImport importAccessLog(QIODevice& log, const QString& fileName,
                                const AccessLogOptions& options) {
    checkClientField(options);
    AccessLogImport out;
    AccessLogReader reader(out.rows, options, fileName);
    const bool json = options.format == AccessLogFormat::JsonLines;
    access_log::JsonFields fields;
    bool fieldsKnown = !json;
    LineReader lines(log);
    QByteArray bytes;
    bool tooLong = false;
    qint64 latest = -1;
    while (lines.next(&bytes, &tooLong)) {
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
            if (request.tMs < latest) {
                ++out.reordered;
            }
            latest = std::max(latest, request.tMs);
            reader.append(request.tMs, request.client, lineNumber);
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
        reader.sortByTime(out.lines);
    }
    out.clientField = json ? fields.client
                           : (options.clientField.isEmpty() ? QStringLiteral("remote_addr")
                                                            : options.clientField);
    out.timeField = json ? fields.time : QStringLiteral("[time]");
    return out;
}

void writeTraceCsv(const AccessLogRows& rows, const std::function<void(const QByteArray&)>& write) {
    constexpr qsizetype kPieceBytes = 1024 * 1024;
    QByteArray piece = "t_ms,client,permits\n";
    piece.reserve(kPieceBytes + 512);
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const TraceRow row = rows[i];
        piece += QByteArray::number(row.tMs) + ',' + row.client.toUtf8() + ",1\n";
        if (piece.size() >= kPieceBytes) {
            write(piece);
            piece.clear();
        }
    }
    if (!piece.isEmpty()) {
        write(piece);
    }
}

QByteArray traceCsv(const AccessLogRows& rows) {
    QByteArray csv;
    writeTraceCsv(rows, [&](const QByteArray& piece) { csv += piece; });
    return csv;
}

}  // namespace ratelab
