#pragma once

#include <QWidget>

#include "stats/run_snapshot.h"

namespace ratelab {

// Side-by-side comparison: one row per limiter with fired, accepted, rejected, errors, the
// errors let through / refused by its on_error policy, accepted %, p50 and p99 latency (ms),
// Jain fairness; and above it the exact-accounting line
// "fired N = accepted A + rejected R + errors E" per limiter (red if it ever does not hold),
// followed by "(errors X let through, Y refused by on_error P)" when the policy acted.
class ComparisonTable : public QWidget {
    Q_OBJECT

public:
    explicit ComparisonTable(QWidget* parent = nullptr);
    void updateFrom(const RunSnapshot& run);
    QString accountingText() const;      // for tests
    QStringList row(int limiter) const;  // the cells' texts, for tests
};

// Per-client table of one selectable limiter: client, fired, accepted, rejected, errors,
// waited (ms total and mean per accepted), sortable.
class ClientTable : public QWidget {
    Q_OBJECT

public:
    explicit ClientTable(QWidget* parent = nullptr);
    void updateFrom(const RunSnapshot& run);
    int rowCount() const;
    QStringList row(int r) const;  // for tests
};

// Latency histogram of one selectable limiter (Qt Charts bar chart over log-spaced buckets of
// the LatencyHistogram snapshot, ms), with p50/p90/p99/p99.9 marked in the title.
class LatencyChart : public QWidget {
    Q_OBJECT

public:
    explicit LatencyChart(QWidget* parent = nullptr);
    void updateFrom(const RunSnapshot& run);
    QString titleText() const;  // for tests
    int barCount() const;       // for tests
};

}  // namespace ratelab
