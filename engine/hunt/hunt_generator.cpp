#include "hunt/hunt_generator.h"

#include <algorithm>
#include <initializer_list>

#include "traffic/seed_mix.h"

namespace ratelab {
namespace {

// splitmix64 as a stream: every draw is defined here, the same on every platform.
class Draws {
public:
    explicit Draws(quint64 seed) : state_(seed) {}
    quint64 next() {
        state_ += 0x9e3779b97f4a7c15ULL;
        return seedMix(state_);
    }
    // 0 ... n - 1 (n >= 1).
    qint64 below(qint64 n) { return qint64(next() % quint64(n)); }
    // lo ... hi.
    qint64 between(qint64 lo, qint64 hi) { return lo + below(hi - lo + 1); }
    template <typename T>
    const T& pick(const std::vector<T>& values) {
        return values[size_t(below(qint64(values.size())))];
    }
    // The index of the weight drawn, each in proportion to its weight.
    int weighted(std::initializer_list<int> weights) {
        int total = 0;
        for (const int w : weights) {
            total += w;
        }
        qint64 at = below(total);
        int i = 0;
        for (const int w : weights) {
            if (at < w) {
                return i;
            }
            at -= w;
            ++i;
        }
        return i - 1;
    }

private:
    quint64 state_;
};

qint64 nextMultiple(qint64 t, qint64 w) {
    return (t / w + 1) * w;
}

const QString kClients[] = {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")};

// Where a trace's first row is: the start, the later start or a DST day's window, or a
// window's edge near it.
qint64 firstTime(const HuntCorners& c, Draws& d) {
    qint64 t = d.below(3) == 0 ? d.pick(c.anchorsMs) : c.anchorsMs[0];
    if (!c.windowsMs.empty() && d.below(2) == 0) {
        t = nextMultiple(t, d.pick(c.windowsMs)) + d.between(-1, 1);
    }
    return t;
}

// The time of the next row after `rows`, whose last is at `t`: the same millisecond, a
// window's edge (epoch-aligned or counted from an earlier row), a spacing, a calendar
// boundary, or an idle gap; never before `t`.
qint64 nextTime(const HuntCorners& c, const QVector<TraceRow>& rows, qint64 t, Draws& d) {
    const bool windows = !c.windowsMs.empty();
    const bool spacings = !c.spacingsMs.empty();
    const int kind =
        d.weighted({6, 1, windows ? 2 : 0, windows ? 2 : 0, spacings ? 2 : 0, c.calendar ? 3 : 0, 1,
                    windows ? 1 : 0, windows && spacings ? 2 : 0});
    const qint64 edge = d.between(-1, 1);
    qint64 next = t;
    switch (kind) {
        case 0:  // the same millisecond: a burst
            return t;
        case 1:
            return t + 1;
        case 2:  // a multiple of a window length
            next = nextMultiple(t, d.pick(c.windowsMs)) + edge;
            break;
        case 3:  // a window after an earlier row
            next = rows[d.below(rows.size())].tMs + d.pick(c.windowsMs) + edge;
            break;
        case 4:
            next = t + d.pick(c.spacingsMs) + edge;
            break;
        case 5:  // a calendar boundary
            next = c.calendar->windowAt(t).endMs + edge;
            break;
        case 6:  // longer than anything the limiter remembers
            next = t + c.idleGapMs + d.below(c.windowsMs.empty() ? 1000 : c.windowsMs.back());
            break;
        case 7:  // anywhere inside the longest window
            next = t + d.below(c.windowsMs.back() + 1);
            break;
        default: {  // a whole number of spacings into the next window: 900 ms into a second
            const qint64 w = d.pick(c.windowsMs);
            const qint64 s = d.pick(c.spacingsMs);
            next = nextMultiple(t, w) + s * d.between(1, std::max<qint64>(1, w / s - 1)) + edge;
            break;
        }
    }
    return std::max(t, next);
}

qint64 permitsOf(const HuntCorners& c, Draws& d) {
    const qint64 capacity = c.capacities.empty() ? 1 : d.pick(c.capacities);
    qint64 permits = 1;
    switch (d.weighted({6, 1, 1, 1, 1, 1})) {
        case 0:
            permits = 1;
            break;
        case 1:
            permits = 2;
            break;
        case 2:
            permits = capacity;
            break;
        case 3:
            permits = capacity + 1;
            break;
        case 4:
            permits = capacity - 1;
            break;
        default:
            permits = d.between(1, c.maxPermits);
            break;
    }
    return std::clamp<qint64>(permits, 1, c.maxPermits);
}

}  // namespace

HuntGenerator::HuntGenerator(HuntCorners corners, quint64 seed, int maxRows)
    : corners_(std::move(corners)), seed_(seed), maxRows_(std::max(1, maxRows)) {}

Trace HuntGenerator::trace(qint64 index) const {
    Draws d(seedMix(seedMix(seed_) ^ quint64(index)));
    const int rowCount = int(d.between(1, maxRows_));
    const int clients = d.weighted({2, 1, 1}) + 1;
    // One trace in four asks for one permit a row: what other permits would break first
    // (a request above the capacity) does not hide what single permits break.
    const bool singles = d.below(4) == 0;
    QVector<TraceRow> rows;
    rows.reserve(rowCount);
    int client = 0;
    qint64 t = firstTime(corners_, d);
    for (int i = 0; i < rowCount; ++i) {
        if (i > 0) {
            t = nextTime(corners_, rows, t, d);
            if (d.below(4) == 0) {
                client = int(d.below(clients));
            }
        }
        const qint64 permits = permitsOf(corners_, d);
        rows.append(TraceRow{t, kClients[client], singles ? 1 : permits, i + 1});
    }
    return Trace(rows);
}

}  // namespace ratelab
