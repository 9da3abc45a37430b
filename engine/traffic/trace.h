#pragma once

#include <QString>
#include <QVector>

namespace ratelab {

// One request of a trace: when (ms, virtual time), from whom, how many permits.
struct TraceRow {
    qint64 tMs = 0;
    QString client;
    qint64 permits = 1;
    int line = 0;  // 1-based line in the file, for messages
};

// Reads a trace CSV with columns t_ms,client,permits. A header line "t_ms,client,permits" is
// optional; blank lines are skipped. t_ms must be a non-negative integer that never decreases,
// client any text without a comma (empty is allowed), permits a positive integer. Errors are
// InputErrors naming "FILE:LINE" and the column.
QVector<TraceRow> readTraceFile(const QString& path);
QVector<TraceRow> parseTrace(const QByteArray& csv, const QString& fileName);

}  // namespace ratelab
