#pragma once

// One line of an access log read (traffic/access_log.h): internal to access_log*.cpp.

#include <QString>
#include <QStringView>

#include "traffic/access_log.h"

namespace ratelab::access_log {

// What one line says: when (epoch ms) and who.
struct Request {
    qint64 tMs = 0;
    QString client;
};

// The line's problem, without its place (the caller names the file and line).
struct LineError {
    QString what;
};

// "10/Oct/2000:13:55:36 -0700" (the combined format's time) as epoch ms; -1 if it is not one.
qint64 clfTimeMs(QStringView text);

// A combined or common line (options.format), the client by options.clientField.
Request parseClfLine(QStringView line, const AccessLogOptions& options);

// JSON lines: the fields a line is read by, found on the first line when not given.
struct JsonFields {
    QString client;
    QString time;
};
// Fills the fields options leave empty from `line`'s members (the defaults of
// AccessLogOptions); a LineError when the line has none of them.
JsonFields jsonFieldsOf(QStringView line, const AccessLogOptions& options);
Request parseJsonLine(QStringView line, const JsonFields& fields);

// The client fields combined and common lines have ("remote_addr", ...).
QStringList clfClientFields(AccessLogFormat format);

}  // namespace ratelab::access_log
