#pragma once

#include <QHash>
#include <QIODevice>
#include <QString>
#include <QStringList>
#include <deque>
#include <functional>
#include <limits>

#include "traffic/trace.h"

namespace ratelab {

// A web server's access log turned into a trace (`ratelab trace import`): one request a row,
// at the time the log gives it, from the client it names, for one permit.

enum class AccessLogFormat {
    Combined,   // nginx's and Apache's combined: host ident user [time] "request" status bytes
                // "referer" "user-agent" (more quoted fields after it are allowed: nginx's
                // "main" format adds "$http_x_forwarded_for")
    Common,     // Apache's common (CLF): host ident user [time] "request" status bytes
    JsonLines,  // one JSON object a line with a time and a client field
};

struct AccessLogOptions {
    AccessLogFormat format = AccessLogFormat::Combined;
    // Who the client is. Combined and common: remote_addr (the default), remote_user, and in
    // combined also referer, user_agent or forwarded_for (the first address of the first
    // quoted field after the user agent). JSON lines: a field's path, "request.remote_ip"
    // (object members by name, case-insensitive when no exact match; an array's first element);
    // default the first of remote_addr, client_ip, remote_ip, ip, client, request.remote_ip,
    // request.client_ip the first line has.
    QString clientField;
    // JSON lines: the time's path; default the first of time, timestamp, ts, @timestamp,
    // time_iso8601, time_local, msec the first line has. A number is seconds since the epoch
    // (fractions kept to the ms; milliseconds, microseconds or nanoseconds when it is that
    // large), a string ISO 8601 with an offset, the combined format's time, or a number.
    QString timeField;
    // Skip malformed lines (counted, the first one named) instead of stopping at the first.
    bool skipBad = false;
    // What the rows may hold in memory (AccessLogRows::allocatedBytes, and as much again while
    // rows out of order are moved into order): a log that needs more is an InputError naming
    // the line it got to and `limitName`, the way to raise it.
    qint64 maxBytes = std::numeric_limits<qint64>::max();
    QString limitName;
};

// The rows an import holds, compactly: 16 bytes a row (its time, its client as an index into one
// table of names, its line; permits are 1) and each client's name once. Rows read back as
// TraceRow values.
class AccessLogRows {
public:
    qsizetype size() const { return qsizetype(rows_.size()); }
    bool isEmpty() const { return rows_.empty(); }
    TraceRow operator[](qsizetype i) const;
    TraceRow first() const { return (*this)[0]; }
    TraceRow last() const { return (*this)[size() - 1]; }
    qint64 tMsAt(qsizetype i) const { return rows_[std::size_t(i)].tMs; }
    // Distinct clients.
    int clients() const { return int(names_.size()); }
    // What the rows and the names hold in memory.
    qint64 allocatedBytes() const;

private:
    friend class AccessLogReader;
    struct Row {
        qint64 tMs;
        qint32 client;
        qint32 line;
    };
    static_assert(sizeof(Row) == 16, "an imported row is 16 bytes");

    std::deque<Row> rows_;  // grows by blocks: no copy of every row as it grows
    QStringList names_;
    QHash<QString, qint32> index_;
    qint64 nameBytes_ = 0;
};

struct AccessLogImport {
    AccessLogRows rows;    // in time order (lines out of order moved, stably); permits 1
    qint64 lines = 0;      // lines read, blank ones too
    qint64 reordered = 0;  // rows earlier than a row before them in the file
    qint64 skipped = 0;    // skipBad: malformed lines left out
    QString firstSkipped;  // skipBad: the first of them, "FILE:LINE: what is wrong"
    QString clientField;   // the client and time fields used (JSON lines: found on line 1)
    QString timeField;
};

// Reads the whole log, line by line (the log itself is never held). A malformed line is an
// InputError at "FILE:LINE" saying what was expected and what was found (unless skipBad), with
// the line's control characters escaped; a log without one request is an InputError too, and so
// is one whose rows need more than options.maxBytes. A client holds no comma in a trace: commas
// become ';'. Control characters become spaces. The lines counted are the lines there are (a
// last one without its newline too), from a file or a pipe alike.
AccessLogImport importAccessLog(QIODevice& log, const QString& fileName,
                                const AccessLogOptions& options);

// The trace CSV: the header line and "t_ms,client,1" per row, handed to `write` in pieces of
// about a MiB (never the whole trace at once).
void writeTraceCsv(const AccessLogRows& rows, const std::function<void(const QByteArray&)>& write);
// The same in one piece, for small logs.
QByteArray traceCsv(const AccessLogRows& rows);

// "combined", "common", "jsonl".
QString accessLogFormatName(AccessLogFormat format);

}  // namespace ratelab
