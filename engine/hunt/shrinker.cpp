#include "hunt/shrinker.h"

#include <algorithm>
#include <numeric>

#include "hunt/hunt_corners.h"

namespace ratelab {
namespace {

// Rounds of (remove rows, simplify rows, shift times) at most; each round that changes nothing
// ends the shrinking, so this bounds only a trace that keeps changing.
constexpr int kMaxRounds = 16;
// A shift that keeps every window's alignment is a multiple of their least common multiple;
// none past this (windows of coprime lengths).
constexpr qint64 kMaxAlignedShiftMs = 10'000'000'000'000;

QVector<TraceRow> rowsOf(const Trace& trace) {
    QVector<TraceRow> rows;
    rows.reserve(trace.size());
    for (const TraceRow& row : trace) {
        rows.append(TraceRow{row.tMs, row.client, row.permits, 0});
    }
    return rows;
}

QVector<TraceRow> without(const QVector<TraceRow>& rows, qsizetype from, qsizetype to) {
    QVector<TraceRow> out = rows.mid(0, from);
    out += rows.mid(to);
    return out;
}

}  // namespace

Shrinker::Shrinker(Fails fails, std::function<bool()> stopped, std::vector<qint64> windowsMs)
    : fails_(std::move(fails)), stopped_(std::move(stopped)), windowsMs_(std::move(windowsMs)) {}

bool Shrinker::stopped() {
    halted_ = halted_ || (stopped_ && stopped_());
    return halted_;
}

bool Shrinker::tryCandidate(const Rows& rows) {
    if (rows.isEmpty() || stopped()) {
        return false;
    }
    QByteArray key;
    for (const TraceRow& row : rows) {
        key += QByteArray::number(row.tMs) + ',' + row.client.toUtf8() + ',' +
               QByteArray::number(row.permits) + '\n';
    }
    if (held_.contains(key)) {
        return false;  // decided before: the property held
    }
    ++candidates_;
    CheckedTrace checked = fails_(Trace(rows));
    if (!checked.violation) {
        held_.insert(key);
        return false;
    }
    rows_ = rows;
    checked_ = std::move(checked);
    return true;
}

// Zeller's ddmin: the rows in n chunks; a failing chunk or complement becomes the trace; else
// twice as many chunks, until single rows, whose complements (the trace less one row) all hold
// at the end: 1-minimal.
bool Shrinker::ddmin() {
    bool reduced = false;
    qsizetype n = 2;
    while (rows_.size() >= 2 && !halted_) {
        const qsizetype size = rows_.size();
        n = std::min(n, size);
        bool found = false;
        for (qsizetype c = 0; c < n && !found; ++c) {
            const qsizetype from = size * c / n;
            const qsizetype to = size * (c + 1) / n;
            if (tryCandidate(rows_.mid(from, to - from))) {
                n = 2;
                found = true;
            }
        }
        for (qsizetype c = 0; c < n && !found && n > 2; ++c) {
            const qsizetype from = size * c / n;
            const qsizetype to = size * (c + 1) / n;
            if (tryCandidate(without(rows_, from, to))) {
                n = std::max<qsizetype>(n - 1, 2);
                found = true;
            }
        }
        if (found) {
            reduced = true;
            continue;
        }
        if (n >= size) {
            break;
        }
        n = std::min(n * 2, size);
    }
    return reduced;
}

bool Shrinker::simplifyRows() {
    bool changed = false;
    for (qsizetype i = 0; i < rows_.size() && !halted_; ++i) {
        // Permits down: one, half, one fewer.
        const qint64 permits = rows_[i].permits;
        for (const qint64 fewer : {qint64(1), permits / 2, permits - 1}) {
            if (fewer >= 1 && fewer < permits && rows_[i].permits == permits) {
                Rows rows = rows_;
                rows[i].permits = fewer;
                changed = tryCandidate(rows) || changed;
            }
        }
        // The time onto the row before's, else the row after's.
        if (i > 0 && rows_[i].tMs != rows_[i - 1].tMs) {
            Rows rows = rows_;
            rows[i].tMs = rows_[i - 1].tMs;
            if (tryCandidate(rows)) {
                changed = true;
                continue;
            }
        }
        if (i + 1 < rows_.size() && rows_[i].tMs != rows_[i + 1].tMs) {
            Rows rows = rows_;
            rows[i].tMs = rows_[i + 1].tMs;
            changed = tryCandidate(rows) || changed;
        }
    }
    // A gap between two rows shortened (every later row as much earlier): to a window's length
    // or 1 ms either side of it, else to half.
    for (qsizetype i = 1; i < rows_.size() && !halted_; ++i) {
        const qint64 gap = rows_[i].tMs - rows_[i - 1].tMs;
        std::vector<qint64> shorter;
        for (const qint64 w : windowsMs_) {
            for (const qint64 g : {w - 1, w, w + 1}) {
                if (g >= 1 && g < gap) {
                    shorter.push_back(g);
                }
            }
        }
        if (gap > 1) {
            shorter.push_back(gap / 2);
        }
        std::sort(shorter.begin(), shorter.end());
        for (const qint64 g : shorter) {
            Rows rows = rows_;
            for (qsizetype j = i; j < rows.size(); ++j) {
                rows[j].tMs -= gap - g;
            }
            if (tryCandidate(rows)) {
                changed = true;
                break;
            }
        }
    }
    // A client merged into one named before it.
    QStringList clients;
    for (const TraceRow& row : rows_) {
        if (!clients.contains(row.client)) {
            clients << row.client;
        }
    }
    for (qsizetype c = 1; c < clients.size() && !halted_; ++c) {
        for (qsizetype into = 0; into < c; ++into) {
            Rows rows = rows_;
            for (TraceRow& row : rows) {
                if (row.client == clients[c]) {
                    row.client = clients[into];
                }
            }
            if (tryCandidate(rows)) {
                changed = true;
                break;
            }
        }
    }
    return renameClients() || changed;
}

// The clients named "a", "b", "c", ... in the order they first appear.
bool Shrinker::renameClients() {
    QStringList seen;
    Rows rows = rows_;
    bool renamed = false;
    for (TraceRow& row : rows) {
        qsizetype at = seen.indexOf(row.client);
        if (at < 0) {
            at = seen.size();
            seen << row.client;
        }
        const QString name =
            at < 26 ? QString(QLatin1Char(char('a' + at))) : QStringLiteral("c%1").arg(at);
        renamed = renamed || name != row.client;
        row.client = name;
    }
    return renamed && tryCandidate(rows);
}

// The first row at kHuntStartMs, else as near after it as keeps every window's alignment.
bool Shrinker::shiftTimes() {
    if (rows_.isEmpty() || rows_[0].tMs == kHuntStartMs) {
        return false;
    }
    const auto shifted = [&](qint64 by) {
        Rows rows = rows_;
        for (TraceRow& row : rows) {
            row.tMs += by;
        }
        return rows;
    };
    const qint64 first = rows_[0].tMs;
    if (tryCandidate(shifted(kHuntStartMs - first))) {
        return true;
    }
    qint64 lcm = 1;
    for (const qint64 w : windowsMs_) {
        lcm = std::lcm(lcm, w);
        if (lcm > kMaxAlignedShiftMs) {
            return false;
        }
    }
    // The smallest start at or after kHuntStartMs in the same place of every window.
    const qint64 offset = ((first - kHuntStartMs) % lcm + lcm) % lcm;
    const qint64 start = kHuntStartMs + offset;
    return start != first && start >= 0 && tryCandidate(shifted(start - first));
}

Shrinker::Result Shrinker::shrink(const Trace& trace, const CheckedTrace& checked) {
    rows_ = rowsOf(trace);
    checked_ = checked;
    bool settled = false;
    for (int round = 0; round < kMaxRounds && !settled && !halted_; ++round) {
        bool changed = ddmin();
        changed = simplifyRows() || changed;
        changed = shiftTimes() || changed;
        settled = !changed;
    }
    if (!settled && !halted_) {
        ddmin();  // the rounds ran out: the rows at least 1-minimal
        settled = !halted_;
    }
    Result result;
    result.trace = Trace(rows_);
    result.checked = checked_;
    result.minimal = settled && !halted_;
    result.candidates = candidates_;
    return result;
}

}  // namespace ratelab
