#include "output/sweep_table.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ratelab {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// How much worse `measured` is for a check of `op` against `threshold`: higher is worse.
double badness(double measured, CompareOp op, double threshold) {
    switch (op) {
        case CompareOp::Less:
        case CompareOp::LessEqual:
            return measured;
        case CompareOp::Greater:
        case CompareOp::GreaterEqual:
            return -measured;
        case CompareOp::Equal:
            return std::fabs(measured - threshold);
    }
    return measured;
}

}  // namespace

bool SweepCombination::feasible() const {
    return checksHeld() == checks.size();
}

int SweepCombination::checksHeld() const {
    int held = 0;
    for (int c = 0; c < checks.size(); ++c) {
        held += holds(c) ? 1 : 0;
    }
    return held;
}

double SweepCombination::constraintFigure(int c) const {
    double worst = kNaN;
    double worstBadness = -std::numeric_limits<double>::infinity();
    for (const ExpectationResult& r : checks.value(c)) {
        if (std::isnan(r.measured)) {
            return kNaN;
        }
        const double b = badness(r.measured, r.expectation.op, r.expectation.threshold);
        if (b > worstBadness) {
            worstBadness = b;
            worst = r.measured;
        }
    }
    return worst;
}

QVector<int> SweepTable::ranking() const {
    QVector<int> order(combinations.size());
    for (int i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const double x = combinations[a].objective, y = combinations[b].objective;
        if (std::isnan(x) || std::isnan(y)) {
            return !std::isnan(x) && std::isnan(y);
        }
        return maximize ? x > y : x < y;
    });
    return order;
}

QVector<int> SweepTable::paretoFront(int constraint) const {
    struct Point {
        int index;
        double objective;  // lower is better
        double figure;     // lower is better
        double shown;      // the figure as measured
    };
    std::vector<Point> points;
    for (int i = 0; i < combinations.size(); ++i) {
        const SweepCombination& c = combinations[i];
        const double figure = c.constraintFigure(constraint);
        if (std::isnan(figure) || std::isnan(c.objective) || c.checks.value(constraint).isEmpty()) {
            continue;
        }
        const Expectation& e = c.checks[constraint].first().expectation;
        points.push_back(
            {i, maximize ? -c.objective : c.objective, badness(figure, e.op, e.threshold), figure});
    }
    QVector<int> front;
    for (const Point& p : points) {
        const bool dominated = std::any_of(points.begin(), points.end(), [&](const Point& q) {
            return q.objective <= p.objective && q.figure <= p.figure &&
                   (q.objective < p.objective || q.figure < p.figure);
        });
        // Of combinations alike on both figures the first in the sweep's order stands for all.
        const bool repeated = std::any_of(points.begin(), points.end(), [&](const Point& q) {
            return q.index < p.index && q.objective == p.objective && q.figure == p.figure;
        });
        if (!dominated && !repeated) {
            front.append(p.index);
        }
    }
    std::stable_sort(front.begin(), front.end(), [&](int a, int b) {
        const double x = combinations[a].constraintFigure(constraint);
        const double y = combinations[b].constraintFigure(constraint);
        if (x != y) {
            return x < y;
        }
        return maximize ? combinations[a].objective > combinations[b].objective
                        : combinations[a].objective < combinations[b].objective;
    });
    return front;
}

std::vector<qint64> SweepTable::burstWindows() const {
    std::vector<qint64> windows;
    for (const SweepCombination& c : combinations) {
        for (const SweepFigures& row : c.rows) {
            for (const BusiestInterval& b : row.admittedBurst) {
                windows.push_back(b.windowMs);
            }
        }
    }
    std::sort(windows.begin(), windows.end());
    windows.erase(std::unique(windows.begin(), windows.end()), windows.end());
    return windows;
}

}  // namespace ratelab
