#include "traffic/trace.h"

#include <QByteArrayView>
#include <QFile>
#include <QStringDecoder>
#include <algorithm>
#include <cstring>

#include "input_error.h"
#include "interrupt_flag.h"
#include "json_input.h"
#include "limiters/limiter_spec.h"
#include "memory_size.h"

namespace ratelab {
namespace {

constexpr qint64 kMaxTraceBytes = 512LL * 1024 * 1024;
constexpr qsizetype kMaxLineBytes = 4096;
constexpr qint64 kMaxTimeMs = 9007199254740991LL;  // 2^53 - 1: exact as a double and in Lua
constexpr qsizetype kMaxClientLength = 200;
constexpr qint64 kChunkBytes = 1024 * 1024;

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

// The rows of `lines` lines against the budget: refused before anything is read.
void costUpFront(const QString& fileName, qint64 lines, const TraceBudget& budget) {
    const qint64 perRow = qint64(sizeof(Trace::Packed)) + budget.bytesPerRowBeside;
    if (lines <= 0 || lines <= budget.maxBytes / perRow) {
        return;
    }
    const QString makeUp = budget.bytesPerRowBeside > 0
                               ? QStringLiteral("%1 bytes a row: %2 for the trace, %3 for %4")
                                     .arg(perRow)
                                     .arg(sizeof(Trace::Packed))
                                     .arg(budget.bytesPerRowBeside)
                                     .arg(budget.besideWhat)
                               : QStringLiteral("%1 bytes a row").arg(perRow);
    throw InputError(fileName, QStringLiteral("the file has %1 lines: as rows they would need "
                                              "about %2 (%3), more than the %4 limit; use a "
                                              "shorter trace, or raise the limit (%5)")
                                   .arg(lines)
                                   .arg(formatBytes(lines * perRow), makeUp,
                                        formatBytes(budget.maxBytes), budget.limitName));
}

// Reads a trace line by line into a Trace, counting what it holds against the budget.
class TraceParser {
public:
    TraceParser(QString fileName, const TraceBudget& budget)
        : fileName_(std::move(fileName)), budget_(budget) {}

    // One line, without its \n.
    void line(QByteArrayView bytes);
    // The next line is `length` bytes long, too long to read (a file read in pieces).
    [[noreturn]] void lineTooLong(qint64 length);
    Trace finish();
    Trace& trace() { return trace_; }

private:
    QString where() const { return fileName_ + QLatin1Char(':') + QString::number(lineNumber_); }
    void checkBudget();

    QString fileName_;
    TraceBudget budget_;
    // Stateless: a multi-byte sequence cut at the end of a line is an error, not carried over.
    QStringDecoder decoder_{QStringDecoder::Utf8, QStringDecoder::Flag::Stateless};
    Trace trace_;
    bool firstContentLine_ = true;
    int lineNumber_ = 0;
    int lastRowLine_ = 0;
    qsizetype clients_ = 0;
};

void TraceParser::checkBudget() {
    const qint64 held = trace_.allocatedBytes() + qint64(trace_.size()) * budget_.bytesPerRowBeside;
    if (held <= budget_.maxBytes) {
        return;
    }
    throw InputError(where(), QStringLiteral("the trace needs more than the %1 limit by this line "
                                             "(%2 rows, %3 clients: %4); use a shorter trace, or "
                                             "raise the limit (%5)")
                                  .arg(formatBytes(budget_.maxBytes))
                                  .arg(trace_.size())
                                  .arg(trace_.clients().size())
                                  .arg(formatBytes(held), budget_.limitName));
}

void TraceParser::lineTooLong(qint64 length) {
    ++lineNumber_;
    throw InputError(where(), QStringLiteral("the line is %1 bytes long; at most %2 are allowed")
                                  .arg(length)
                                  .arg(kMaxLineBytes));
}

void TraceParser::line(QByteArrayView bytes) {
    ++lineNumber_;
    if (lineNumber_ == 1 && bytes.startsWith("\xEF\xBB\xBF")) {
        bytes = bytes.sliced(3);  // a UTF-8 byte order mark
    }
    if (bytes.endsWith('\r')) {
        bytes.chop(1);
    }
    if (bytes.size() > kMaxLineBytes) {
        --lineNumber_;
        lineTooLong(bytes.size());
    }
    if (bytes.contains('\0')) {
        throw InputError(where(), QStringLiteral("contains a NUL byte; a trace is UTF-8 text"));
    }
    const QString text = decoder_(bytes);
    if (decoder_.hasError()) {
        throw InputError(where(), QStringLiteral("is not valid UTF-8"));
    }
    if (text.trimmed().isEmpty()) {
        return;
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
    if (firstContentLine_) {
        firstContentLine_ = false;
        if (fields == QStringList{QStringLiteral("t_ms"), QStringLiteral("client"),
                                  QStringLiteral("permits")}) {
            return;
        }
    }

    TraceRow row;
    row.line = lineNumber_;
    row.tMs = parseInteger(fields[0], 0, kMaxTimeMs);
    if (row.tMs < 0) {
        throw InputError(where(), QStringLiteral("t_ms must be an integer from 0 to %1, got %2")
                                      .arg(kMaxTimeMs)
                                      .arg(json_input::quoted(fields[0])));
    }
    if (!trace_.isEmpty() && row.tMs < trace_.tMsAt(trace_.size() - 1)) {
        throw InputError(where(), QStringLiteral("t_ms %1 is earlier than %2 on line %3")
                                      .arg(row.tMs)
                                      .arg(trace_.tMsAt(trace_.size() - 1))
                                      .arg(lastRowLine_));
    }
    row.client = fields[1];
    // A client is echoed in summaries, reports and explanations: no control characters.
    json_input::refuseBadNameCharacters(row.client, where() + QStringLiteral(": client"));
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
        throw InputError(where(), QStringLiteral("permits must be an integer from 1 to %1, got %2")
                                      .arg(spec_limits::kMaxRate)
                                      .arg(json_input::quoted(fields[2])));
    }
    trace_.append(row);
    lastRowLine_ = lineNumber_;
    // A new client, or a new block of rows (the vector grows once it is full), is checked.
    if (trace_.clients().size() != clients_ || trace_.size() % 65536 == 0) {
        clients_ = trace_.clients().size();
        checkBudget();
    }
}

Trace TraceParser::finish() {
    if (trace_.isEmpty()) {
        throw InputError(fileName_, QStringLiteral("the trace has no rows; expected lines of "
                                                   "t_ms,client,permits"));
    }
    checkBudget();
    return std::move(trace_);
}

// Every line of `data` but an unfinished last one; returns where that one starts.
qsizetype feedLines(TraceParser& parser, QByteArrayView data) {
    qsizetype start = 0;
    for (;;) {
        const void* found = std::memchr(data.data() + start, '\n', size_t(data.size() - start));
        if (found == nullptr) {
            return start;
        }
        const qsizetype end = static_cast<const char*>(found) - data.data();
        parser.line(data.sliced(start, end - start));
        start = end + 1;
    }
}

// Newlines in the file (and one more for a last line without one): at least its rows. Read
// in pieces; false when the file cannot be read again from its start (a pipe).
bool countLines(QFile& file, qint64* lines) {
    if (file.isSequential()) {
        return false;
    }
    QByteArray chunk(kChunkBytes, Qt::Uninitialized);
    qint64 count = 0;
    char last = '\n';
    for (;;) {
        throwIfInterrupted("counting the trace's lines");
        const qint64 n = file.read(chunk.data(), chunk.size());
        if (n <= 0) {
            break;
        }
        count += std::count(chunk.constData(), chunk.constData() + n, '\n');
        last = chunk[n - 1];
    }
    *lines = count + (last != '\n' ? 1 : 0);
    return file.seek(0);
}

}  // namespace

Trace parseTrace(const QByteArray& csv, const QString& fileName, const TraceBudget& budget) {
    if (csv.size() > kMaxTraceBytes) {
        throw InputError(fileName, tooLarge(csv.size()));
    }
    // Newlines, and one more for a last line without one (as countLines for a file).
    const qint64 lines = csv.count('\n') + (csv.endsWith('\n') ? 0 : 1);
    costUpFront(fileName, lines, budget);
    TraceParser parser(fileName, budget);
    // One row per line at most: reserving it avoids the vector's doubling, which at millions of
    // rows would hold twice the memory for a moment.
    parser.trace().reserve(lines);
    const qsizetype rest = feedLines(parser, QByteArrayView(csv));
    if (rest < csv.size()) {
        parser.line(QByteArrayView(csv).sliced(rest));
    }
    return parser.finish();
}

Trace readTraceFile(const QString& path, const TraceBudget& budget) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        throw InputError(path, QStringLiteral("cannot read the file: ") + file.errorString());
    }
    if (file.size() > kMaxTraceBytes) {
        throw InputError(path, tooLarge(file.size()));
    }
    TraceParser parser(path, budget);
    qint64 lines = 0;
    if (countLines(file, &lines)) {
        costUpFront(path, lines, budget);
        parser.trace().reserve(lines);
    }
    // In pieces, a line cut at a piece's end carried over: pipes and special files, whose size
    // is unknown, are bounded too, and the file is never held whole.
    QByteArray pending;
    qint64 read = 0;
    QByteArray chunk(kChunkBytes, Qt::Uninitialized);
    for (;;) {
        throwIfInterrupted("reading the trace");
        const qint64 n = file.read(chunk.data(), chunk.size());
        if (n <= 0) {
            break;
        }
        read += n;
        if (read > kMaxTraceBytes) {
            throw InputError(path, tooLarge(read));
        }
        pending.append(chunk.constData(), n);
        pending.remove(0, feedLines(parser, QByteArrayView(pending)));
        if (pending.size() > kMaxLineBytes + 1) {
            // Too long whatever follows: its length, for the message, is read to its end.
            qint64 length = pending.size();
            for (qint64 m = 0; (m = file.read(chunk.data(), chunk.size())) > 0;) {
                const void* end = std::memchr(chunk.constData(), '\n', size_t(m));
                length += end != nullptr ? static_cast<const char*>(end) - chunk.constData() : m;
                if (end != nullptr) {
                    break;
                }
            }
            parser.lineTooLong(length);
        }
    }
    if (file.error() != QFileDevice::NoError) {
        throw InputError(path, QStringLiteral("cannot read the file: ") + file.errorString());
    }
    if (!pending.isEmpty()) {
        parser.line(QByteArrayView(pending));
    }
    return parser.finish();
}

// Trace

Trace::Trace(std::initializer_list<TraceRow> rows) {
    for (const TraceRow& row : rows) {
        append(row);
    }
}

Trace::Trace(const QVector<TraceRow>& rows) {
    reserve(rows.size());
    for (const TraceRow& row : rows) {
        append(row);
    }
}

void Trace::append(const TraceRow& row) {
    auto known = index_.constFind(row.client);
    if (known == index_.cend()) {
        known = index_.insert(row.client, qint32(clients_.size()));
        clients_.append(row.client);
        nameBytes_ += clientBytes(row.client.size());
    }
    const qsizetype i = rows_.size();
    rows_.append(Packed{row.tMs, *known, qint32(row.permits)});
    const int expected = i == 0 ? 1 : lineAt(i - 1) + 1;
    if (row.line != 0 && row.line != expected) {
        jumps_.append(LineJump{i, row.line});
    }
}

int Trace::lineAt(qsizetype i) const {
    // The last jump at or before row i, then one line per row after it.
    const auto after =
        std::upper_bound(jumps_.cbegin(), jumps_.cend(), i,
                         [](qsizetype row, const LineJump& j) { return row < j.row; });
    if (after == jumps_.cbegin()) {
        return int(i) + 1;
    }
    const LineJump& jump = *(after - 1);
    return jump.line + int(i - jump.row);
}

TraceRow Trace::operator[](qsizetype i) const {
    const Packed& p = rows_[i];
    return TraceRow{p.tMs, clients_[p.client], p.permits, lineAt(i)};
}

qint64 Trace::clientBytes(qsizetype length) {
    // The name's heap block (Qt 6's header, UTF-16 with a terminator, malloc's 16-byte steps),
    // its entry in the list and in the index (a QHash node of the name and an int, with the
    // table's share: about twice the node).
    const qint64 heap = (16 + 2 * (qint64(length) + 1) + 15) / 16 * 16;
    return heap + qint64(sizeof(QString)) + 2 * qint64(sizeof(QString) + 8);
}

qint64 Trace::allocatedBytes() const {
    return qint64(rows_.capacity()) * qint64(sizeof(Packed)) + nameBytes_ +
           qint64(jumps_.capacity()) * qint64(sizeof(LineJump));
}

}  // namespace ratelab
