#include "traffic/trace.h"

#include <QByteArrayView>
#include <QFile>
#include <QHash>
#include <QStringDecoder>
#include <QStringList>

#include "input_error.h"
#include "limiters/limiter_spec.h"

namespace ratelab {
namespace {

constexpr qint64 kMaxTraceBytes = 512LL * 1024 * 1024;
constexpr qsizetype kMaxLineBytes = 4096;
constexpr qint64 kMaxTimeMs = 9007199254740991LL;  // 2^53 - 1: exact as a double and in Lua
constexpr qsizetype kMaxClientLength = 200;
constexpr qsizetype kMaxQuotedLength = 40;

QString quoted(const QString& text) {
    if (text.size() > kMaxQuotedLength) {
        return QLatin1Char('"') + text.left(kMaxQuotedLength) + QStringLiteral("...\"");
    }
    return QLatin1Char('"') + text + QLatin1Char('"');
}

// A plain decimal integer (digits only: no sign, spaces or exponent) from min to max, or -1.
qint64 parseInteger(const QString& text, qint64 min, qint64 max) {
    if (text.isEmpty()) {
        return -1;
    }
    qint64 value = 0;
    for (const QChar c : text) {
        if (c < u'0' || c > u'9') {
            return -1;
        }
        value = value * 10 + (c.unicode() - u'0');
        if (value > max) {  // max is far below the qint64 limit, so this cannot overflow first
            return -1;
        }
    }
    return value >= min ? value : -1;
}

QString tooLarge(qint64 size) {
    return QStringLiteral("the file is %1 bytes; at most 512 MiB (%2 bytes) are allowed")
        .arg(size)
        .arg(kMaxTraceBytes);
}

}  // namespace

QVector<TraceRow> parseTrace(const QByteArray& csv, const QString& fileName) {
    if (csv.size() > kMaxTraceBytes) {
        throw InputError(fileName, tooLarge(csv.size()));
    }
    const QStringList header = {QStringLiteral("t_ms"), QStringLiteral("client"),
                                QStringLiteral("permits")};
    // Stateless: a multi-byte sequence cut at the end of a line is an error, not carried over.
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    QVector<TraceRow> rows;
    // One row per line at most: reserving it avoids the vector's doubling, which at millions of
    // rows would hold twice the memory for a moment.
    rows.reserve(csv.count('\n') + 1);
    // Rows share one copy of each client name (QString is implicitly shared): a trace of a
    // million requests from a hundred clients holds a hundred strings, not a million.
    QHash<QString, QString> clients;
    constexpr qsizetype kMaxInternedClients = 100'000;
    bool firstContentLine = true;
    int lineNumber = 0;
    qsizetype start = csv.startsWith("\xEF\xBB\xBF") ? 3 : 0;  // a UTF-8 byte order mark
    while (start < csv.size()) {
        qsizetype end = csv.indexOf('\n', start);
        if (end < 0) {
            end = csv.size();
        }
        QByteArrayView bytes(csv.constData() + start, end - start);
        start = end + 1;
        ++lineNumber;
        if (bytes.endsWith('\r')) {
            bytes.chop(1);
        }

        // Built only for a message: most lines have none.
        const auto where = [&] {
            return fileName + QLatin1Char(':') + QString::number(lineNumber);
        };
        if (bytes.size() > kMaxLineBytes) {
            throw InputError(where(), QStringLiteral("the line is %1 bytes long; at most %2 are "
                                                     "allowed")
                                          .arg(bytes.size())
                                          .arg(kMaxLineBytes));
        }
        if (bytes.contains('\0')) {
            throw InputError(where(), QStringLiteral("contains a NUL byte; a trace is UTF-8 text"));
        }
        const QString text = decoder(bytes);
        if (decoder.hasError()) {
            throw InputError(where(), QStringLiteral("is not valid UTF-8"));
        }
        if (text.trimmed().isEmpty()) {
            continue;
        }

        QStringList fields = text.split(QLatin1Char(','));
        if (fields.size() != 3) {
            QString what =
                QStringLiteral("expected 3 fields t_ms,client,permits, got %1").arg(fields.size());
            if (fields.size() > 3) {
                what += QStringLiteral(" (a client cannot contain a comma)");
            }
            throw InputError(where(), what);
        }
        for (QString& field : fields) {
            field = field.trimmed();
        }
        if (firstContentLine) {
            firstContentLine = false;
            if (fields == header) {
                continue;
            }
        }

        TraceRow row;
        row.line = lineNumber;
        row.tMs = parseInteger(fields[0], 0, kMaxTimeMs);
        if (row.tMs < 0) {
            throw InputError(where(), QStringLiteral("t_ms must be an integer from 0 to %1, got %2")
                                          .arg(kMaxTimeMs)
                                          .arg(quoted(fields[0])));
        }
        if (!rows.isEmpty() && row.tMs < rows.last().tMs) {
            throw InputError(where(), QStringLiteral("t_ms %1 is earlier than %2 on line %3")
                                          .arg(row.tMs)
                                          .arg(rows.last().tMs)
                                          .arg(rows.last().line));
        }
        const auto known = clients.constFind(fields[1]);
        if (known != clients.cend()) {
            row.client = *known;
        } else {
            row.client = fields[1];
            if (clients.size() < kMaxInternedClients) {  // past that, names are mostly unique
                clients.insert(row.client, row.client);
            }
        }
        // Code units bound code points from above, so only long names need counting.
        if (row.client.size() > kMaxClientLength) {
            const qsizetype length = row.client.toUcs4().size();
            if (length > kMaxClientLength) {
                throw InputError(where(), QStringLiteral("client is %1 characters long; at most "
                                                         "%2 are allowed")
                                              .arg(length)
                                              .arg(kMaxClientLength));
            }
        }
        row.permits = parseInteger(fields[2], 1, spec_limits::kMaxRate);
        if (row.permits < 0) {
            throw InputError(where(),
                             QStringLiteral("permits must be an integer from 1 to %1, got %2")
                                 .arg(spec_limits::kMaxRate)
                                 .arg(quoted(fields[2])));
        }
        rows.append(row);
    }
    if (rows.isEmpty()) {
        throw InputError(fileName, QStringLiteral("the trace has no rows; expected lines of "
                                                  "t_ms,client,permits"));
    }
    return rows;
}

QVector<TraceRow> readTraceFile(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        throw InputError(path, QStringLiteral("cannot read the file: ") + file.errorString());
    }
    if (file.size() > kMaxTraceBytes) {
        throw InputError(path, tooLarge(file.size()));
    }
    // Read in pieces so that pipes and special files, whose size is unknown, are bounded too.
    QByteArray data;
    if (!file.isSequential()) {
        data.reserve(file.size());
    }
    while (data.size() <= kMaxTraceBytes) {
        const QByteArray chunk = file.read(1024 * 1024);
        if (chunk.isEmpty()) {
            break;
        }
        data += chunk;
    }
    if (file.error() != QFileDevice::NoError) {
        throw InputError(path, QStringLiteral("cannot read the file: ") + file.errorString());
    }
    if (data.size() > kMaxTraceBytes) {
        throw InputError(path, tooLarge(data.size()));
    }
    return parseTrace(data, path);
}

}  // namespace ratelab
