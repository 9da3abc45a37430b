#pragma once

#include <QHash>
#include <QString>
#include <QStringList>
#include <QVector>
#include <initializer_list>
#include <iterator>
#include <limits>

namespace ratelab {

// One request of a trace as it was read: when (ms, virtual time), from whom, how many permits,
// and its line in the file (1-based, for messages).
struct TraceRow {
    qint64 tMs = 0;
    QString client;
    qint64 permits = 1;
    int line = 0;
};

// A trace held compactly: 16 bytes a request (its time, its client as an index into one table
// of names, its permits) and each client's name once; the file's line of a row is kept only
// where it is not the line after the row before (a header, blank lines). Rows read back as
// TraceRow values. Permits fit 32 bits (at most spec_limits::kMaxRate).
class Trace {
public:
    struct Packed {
        qint64 tMs;
        qint32 client;
        qint32 permits;
    };
    static_assert(sizeof(Packed) == 16, "a trace row is 16 bytes");

    Trace() = default;
    Trace(std::initializer_list<TraceRow> rows);
    Trace(const QVector<TraceRow>& rows);  // NOLINT: rows built by hand convert as they are

    // Adds a row (its line 0: the line after the row before).
    void append(const TraceRow& row);
    void reserve(qsizetype rows) { rows_.reserve(rows); }

    qsizetype size() const { return rows_.size(); }
    bool isEmpty() const { return rows_.isEmpty(); }
    TraceRow operator[](qsizetype i) const;
    TraceRow first() const { return (*this)[0]; }
    TraceRow last() const { return (*this)[size() - 1]; }
    qint64 tMsAt(qsizetype i) const { return rows_[i].tMs; }
    qint64 permitsAt(qsizetype i) const { return rows_[i].permits; }
    // The row's client: an index into clients().
    int clientAt(qsizetype i) const { return rows_[i].client; }
    // Every distinct client name, in the order of first appearance.
    const QStringList& clients() const { return clients_; }
    int lineAt(qsizetype i) const;

    // What the trace holds in memory (its rows' capacity, the names, their index, the lines).
    qint64 allocatedBytes() const;
    // What one more distinct client name of `length` characters adds to allocatedBytes().
    static qint64 clientBytes(qsizetype length);

    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = TraceRow;
        using difference_type = qsizetype;
        using pointer = void;
        using reference = TraceRow;
        const_iterator(const Trace* trace, qsizetype i) : trace_(trace), i_(i) {}
        TraceRow operator*() const { return (*trace_)[i_]; }
        const_iterator& operator++() {
            ++i_;
            return *this;
        }
        bool operator==(const const_iterator& other) const { return i_ == other.i_; }
        bool operator!=(const const_iterator& other) const { return i_ != other.i_; }

    private:
        const Trace* trace_;
        qsizetype i_;
    };
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size()}; }

private:
    struct LineJump {
        qsizetype row;
        int line;
    };
    QVector<Packed> rows_;
    QStringList clients_;
    QHash<QString, qint32> index_;
    QVector<LineJump> jumps_;  // ascending by row
    qint64 nameBytes_ = 0;     // clientBytes() of every name
};

// What reading a trace may cost. A trace is costed before it is loaded: a file whose lines
// would need more than maxBytes as rows (16 bytes each, plus bytesPerRowBeside for what its
// user keeps per request, say a run's schedule and accepted decisions) is refused before a row
// is read, with that estimate; while it is read, the rows and each new client name are counted
// against the same bound.
struct TraceBudget {
    qint64 maxBytes = std::numeric_limits<qint64>::max();
    qint64 bytesPerRowBeside = 0;
    QString besideWhat;  // what bytesPerRowBeside is for ("the run's records of each request")
    QString limitName;   // how the user raises maxBytes ("--max-memory")
};

// Reads a trace CSV with columns t_ms,client,permits. A header line "t_ms,client,permits" is
// optional; blank lines are skipped. t_ms must be a non-negative integer that never decreases,
// client any text without a comma or a control character (empty is allowed), permits a
// positive integer. Errors are InputErrors naming "FILE:LINE" and the column. The file is read
// in pieces, never whole; an interrupt (interrupt_flag.h) stops it between two of them.
Trace readTraceFile(const QString& path, const TraceBudget& budget = {});
Trace parseTrace(const QByteArray& csv, const QString& fileName, const TraceBudget& budget = {});

}  // namespace ratelab
