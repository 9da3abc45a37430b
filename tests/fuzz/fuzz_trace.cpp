// libFuzzer target: parseTrace (engine/traffic/trace.cpp), the t_ms,client,permits CSV reader.
//
// Expected outcomes: rows, or an InputError with a non-empty message. Anything else is a
// finding: another exception, a crash or sanitizer report, a hang, a huge allocation, rows that
// break the documented rules (t_ms never decreases, permits from 1 to 1e9, clients without a
// comma and trimmed), or rows that do not read back the same once written out as a CSV.
#include <QByteArray>
#include <QString>
#include <QVector>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "input_error.h"
#include "limiters/limiter_spec.h"
#include "traffic/trace.h"

using namespace ratelab;

namespace {

constexpr size_t kMaxInputBytes = 64 * 1024;
constexpr qint64 kMaxTimeMs = 9007199254740991LL;  // trace.cpp: 2^53 - 1

[[noreturn]] void finding(const char* what, const QByteArray& detail) {
    std::fprintf(stderr, "\n=== FUZZ FINDING (trace): %s\n%s\n", what, detail.constData());
    std::fflush(stderr);
    std::abort();
}

void checkInputError(const InputError& error, const char* stage) {
    if (error.problem().isEmpty() || error.message().isEmpty() ||
        std::string(error.what()).empty()) {
        finding(stage,
                QByteArrayLiteral("InputError with an empty message: ") + error.message().toUtf8());
    }
}

QByteArray rowText(const TraceRow& row) {
    return QByteArray::number(row.tMs) + ',' + row.client.toUtf8() + ',' +
           QByteArray::number(row.permits) + " (line " + QByteArray::number(row.line) + ")";
}

void checkRows(const Trace& rows) {
    if (rows.isEmpty()) {
        finding("parseTrace returned no rows without an error", QByteArray());
    }
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const TraceRow& row = rows[i];
        if (row.tMs < 0 || row.tMs > kMaxTimeMs || row.permits < 1 ||
            row.permits > spec_limits::kMaxRate || row.client.contains(u',') ||
            row.client != row.client.trimmed() || row.client.size() > 400 || row.line < 1) {
            finding("accepted a row that breaks the trace rules", rowText(row));
        }
        if (i > 0 && (row.tMs < rows[i - 1].tMs || row.line <= rows[i - 1].line)) {
            finding("rows out of order", rowText(rows[i - 1]) + "\n" + rowText(row));
        }
    }
}

// Writes the rows back as a CSV (with or without header, LF or CRLF) and reads them again.
void checkRoundTrip(const Trace& rows, bool header, bool crlf) {
    const char* eol = crlf ? "\r\n" : "\n";
    QByteArray csv;
    if (header) {
        csv += QByteArrayLiteral("t_ms,client,permits") + eol;
    }
    for (const TraceRow& row : rows) {
        csv += QByteArray::number(row.tMs) + ',' + row.client.toUtf8() + ',' +
               QByteArray::number(row.permits) + eol;
    }
    Trace again;
    try {
        again = parseTrace(csv, QStringLiteral("roundtrip.csv"));
    } catch (const InputError& error) {
        finding("the rows written back as CSV are refused",
                csv.left(2000) + "\n  error: " + error.message().toUtf8());
    }
    if (again.size() != rows.size()) {
        finding("round trip changed the number of rows", csv.left(2000));
    }
    for (qsizetype i = 0; i < rows.size(); ++i) {
        if (again[i].tMs != rows[i].tMs || again[i].client != rows[i].client ||
            again[i].permits != rows[i].permits) {
            finding("round trip changed a row",
                    rowText(rows[i]) + "\n  became\n" + rowText(again[i]));
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > kMaxInputBytes) {
        return 0;
    }
    const QByteArray csv(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    try {
        Trace rows;
        try {
            rows = parseTrace(csv, QStringLiteral("fuzz.csv"));
        } catch (const InputError& error) {
            checkInputError(error, "parseTrace");
            return 0;
        }
        checkRows(rows);
        checkRoundTrip(rows, (size & 1) != 0, (size & 2) != 0);
    } catch (const std::exception& e) {
        finding("unexpected exception (not an InputError)", QByteArray(e.what()));
    } catch (...) {
        finding("unexpected non-std exception", QByteArray());
    }
    return 0;
}
