#pragma once

#include <QStringList>
#include <QWidget>

#include "live/run_cost.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QTableWidget;
QT_END_NAMESPACE

namespace ratelab {

// What the run's decisions cost Redis itself, beside the comparison table: one line with the
// server time per decision and what one Redis core could therefore decide per second (INFO
// commandstats, all the run's limiters together), and one row per limiter with the memory its
// keys hold (MEMORY USAGE) — so a class sees a sliding log's memory grow with the rate while a
// counter's stays flat. Once a run is over, each script limiter with a reference gets a row of
// its own: the script's server time and Redis commands per decision beside its reference's,
// each measured apart (during the run both decide in the same round, and INFO counts them
// together).
class RedisCostView : public QWidget {
    Q_OBJECT

public:
    explicit RedisCostView(QWidget* parent = nullptr);
    // `names` are the run's limiters, in the order of the cost's vectors.
    void updateCost(const RunCost& cost, const QStringList& names);
    void clear();
    QString summaryText() const;         // for tests
    QStringList row(int limiter) const;  // the cells' texts, for tests
    // The script limiters against their references (each measured apart once the run is over):
    // one row per such limiter, for tests; empty before.
    QStringList scriptRow(int row) const;
    int scriptRows() const;

    // "1.2 MiB", "840 B": bytes for a reader.
    static QString formatBytes(qint64 bytes);

private:
    void fitTable();
    void showScripts(const RunCost& cost, const QStringList& names);

    QLabel* summary_ = nullptr;
    QTableWidget* table_ = nullptr;
    QLabel* scriptNote_ = nullptr;
    QTableWidget* scripts_ = nullptr;
};

}  // namespace ratelab
