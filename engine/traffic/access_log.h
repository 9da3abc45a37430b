#pragma once

#include <QIODevice>
#include <QString>
#include <QVector>

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
};

struct AccessLogImport {
    QVector<TraceRow> rows;  // in time order (lines out of order moved, stably); permits 1
    qint64 lines = 0;        // lines read, blank ones too
    qint64 reordered = 0;    // rows earlier than a row before them in the file
    qint64 skipped = 0;      // skipBad: malformed lines left out
    QString firstSkipped;    // skipBad: the first of them, "FILE:LINE: what is wrong"
    int clients = 0;         // distinct clients
    QString clientField;     // the client and time fields used (JSON lines: found on line 1)
    QString timeField;
};

// Reads the whole log. A malformed line is an InputError at "FILE:LINE" saying what was
// expected and what was found (unless skipBad); a log without one request is an InputError too.
// A client holds no comma in a trace: commas become ';'. Control characters become spaces.
AccessLogImport importAccessLog(QIODevice& log, const QString& fileName,
                                const AccessLogOptions& options);

// The trace CSV: the header line and "t_ms,client,1" per row.
QByteArray traceCsv(const QVector<TraceRow>& rows);

// "combined", "common", "jsonl".
QString accessLogFormatName(AccessLogFormat format);

}  // namespace ratelab
