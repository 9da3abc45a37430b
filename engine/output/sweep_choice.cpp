// Which combination of a sweep is best (a tie broken by headroom, then by the middle) and which
// comes nearest when none holds every constraint: SweepTable::best, bestTie, nearest (their
// definitions are in sweep_table.h and docs/command-line.md, "sweep").
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "output/sweep_table.h"

namespace ratelab {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The expectation constraint `k` checks (every limiter's check has its operator and bound);
// null when it applies to no limiter.
const Expectation* constraintOf(const SweepCombination& c, int k) {
    if (k >= c.checks.size() || c.checks[k].isEmpty()) {
        return nullptr;
    }
    return &c.checks[k].first().expectation;
}

// How far `figure` is on the wrong side of the bound: positive when it fails, negative (its
// headroom) when it holds; 0 for a held ==.
double beyondBound(double figure, const Expectation& e) {
    switch (e.op) {
        case CompareOp::Less:
        case CompareOp::LessEqual:
            return figure - e.threshold;
        case CompareOp::Greater:
        case CompareOp::GreaterEqual:
            return e.threshold - figure;
        case CompareOp::Equal:
            return std::fabs(figure - e.threshold);
    }
    return 0;
}

// A value's place among an axis's values in ascending order (its steps); the value itself for a
// table without that axis.
double stepOf(const QVector<QVector<qint64>>& axisValues, int key, qint64 value) {
    if (key >= axisValues.size()) {
        return double(value);
    }
    QVector<qint64> sorted = axisValues[key];
    std::sort(sorted.begin(), sorted.end());
    return double(std::lower_bound(sorted.begin(), sorted.end(), value) - sorted.begin());
}

}  // namespace

QVector<double> SweepTable::constraintScales() const {
    QVector<double> scales(constraints.size(), 1.0);
    for (int k = 0; k < scales.size(); ++k) {
        const Expectation* e = nullptr;
        double largest = 0;
        for (const SweepCombination& c : combinations) {
            e = e != nullptr ? e : constraintOf(c, k);
            const double figure = c.constraintFigure(k);
            if (!std::isnan(figure)) {
                largest = std::max(largest, std::fabs(figure));
            }
        }
        if (e != nullptr && e->threshold != 0) {
            scales[k] = std::fabs(e->threshold);
        } else if (largest > 0) {
            scales[k] = largest;
        }
    }
    return scales;
}

double SweepTable::miss(int combination, int constraint, const QVector<double>& scales) const {
    const SweepCombination& c = combinations[combination];
    if (c.holds(constraint)) {
        return 0;
    }
    const Expectation* e = constraintOf(c, constraint);
    const double figure = c.constraintFigure(constraint);
    if (e == nullptr || std::isnan(figure)) {
        return kInfinity;
    }
    return std::max(0.0, beyondBound(figure, *e)) / scales.value(constraint, 1.0);
}

double SweepTable::headroom(int combination, int constraint, const QVector<double>& scales) const {
    const SweepCombination& c = combinations[combination];
    const Expectation* e = constraintOf(c, constraint);
    const double figure = c.constraintFigure(constraint);
    if (!c.holds(constraint) || e == nullptr || std::isnan(figure) || e->op == CompareOp::Equal) {
        return 0;
    }
    return -beyondBound(figure, *e) / scales.value(constraint, 1.0);
}

double SweepTable::constraintMiss(int combination, int constraint) const {
    return miss(combination, constraint, constraintScales());
}

double SweepTable::constraintHeadroom(int combination, int constraint) const {
    return headroom(combination, constraint, constraintScales());
}

double SweepTable::missOf(int combination) const {
    return missOf(combination, constraintScales());
}

double SweepTable::missOf(int combination, const QVector<double>& scales) const {
    double sum = 0;
    for (int k = 0; k < constraints.size(); ++k) {
        sum += miss(combination, k, scales);
    }
    return sum;
}

QVector<QPair<qint64, qint64>> SweepTable::valueRanges(const QVector<int>& of) const {
    QVector<QPair<qint64, qint64>> ranges;
    for (int i : of) {
        const QVector<qint64>& values = combinations[i].values;
        for (int k = 0; k < values.size(); ++k) {
            if (k == ranges.size()) {
                ranges.append({values[k], values[k]});
            }
            ranges[k].first = std::min(ranges[k].first, values[k]);
            ranges[k].second = std::max(ranges[k].second, values[k]);
        }
    }
    return ranges;
}

QVector<int> SweepTable::bestTie() const {
    double bestObjective = 0;
    bool found = false;
    for (int i : ranking()) {
        if (combinations[i].feasible() && !std::isnan(combinations[i].objective)) {
            bestObjective = combinations[i].objective;
            found = true;
            break;
        }
    }
    QVector<int> tie;
    for (int i = 0; found && i < combinations.size(); ++i) {
        if (combinations[i].feasible() && combinations[i].objective == bestObjective) {
            tie.append(i);
        }
    }
    return tie;
}

int SweepTable::best() const {
    const QVector<int> tie = bestTie();
    if (tie.size() <= 1) {
        return tie.isEmpty() ? -1 : tie.first();
    }
    // The most headroom: the smallest of each one's headroom compared first, then the next.
    const QVector<double> scales = constraintScales();
    std::vector<std::vector<double>> rooms;
    for (int i : tie) {
        std::vector<double> room;
        for (int k = 0; k < constraints.size(); ++k) {
            room.push_back(headroom(i, k, scales));
        }
        std::sort(room.begin(), room.end());
        rooms.push_back(std::move(room));
    }
    const std::vector<double> most = *std::max_element(rooms.begin(), rooms.end());
    QVector<int> roomiest;
    for (int t = 0; t < tie.size(); ++t) {
        if (rooms[size_t(t)] == most) {
            roomiest.append(tie[t]);
        }
    }
    // Then the middle of those: per key, the distance from the centre of their steps.
    const int keyCount = int(combinations[roomiest.first()].values.size());
    QVector<double> low(keyCount, kInfinity), high(keyCount, -kInfinity);
    for (int i : roomiest) {
        for (int k = 0; k < keyCount; ++k) {
            const double step = stepOf(axisValues, k, combinations[i].values.value(k));
            low[k] = std::min(low[k], step);
            high[k] = std::max(high[k], step);
        }
    }
    int chosen = -1;
    double nearest = kInfinity;
    for (int i : roomiest) {
        double distance = 0;
        for (int k = 0; k < keyCount; ++k) {
            if (high[k] > low[k]) {
                const double step = stepOf(axisValues, k, combinations[i].values.value(k));
                distance += std::fabs(step - (low[k] + high[k]) / 2) / (high[k] - low[k]);
            }
        }
        if (distance < nearest) {
            nearest = distance;
            chosen = i;
        }
    }
    return chosen;
}

int SweepTable::nearest() const {
    const int found = best();
    if (found >= 0 || combinations.isEmpty()) {
        return found;
    }
    const QVector<double> scales = constraintScales();
    int chosen = -1;
    double least = kInfinity;
    for (int i : ranking()) {
        const double missed = missOf(i, scales);
        if (chosen < 0 || missed < least) {
            chosen = i;
            least = missed;
        }
    }
    return chosen;
}

}  // namespace ratelab
