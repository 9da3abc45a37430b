#pragma once

#include <QWidget>

#include "stats/run_snapshot.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QTableWidget;
QT_END_NAMESPACE

namespace ratelab {

// Where the limiters decided the same requests differently (try mode: each request goes to
// every limiter): one row per pair, the requests both decided and those one accepted and the
// other refused, as `ratelab run` prints them. Choosing a row marks that pair's disagreements on
// their two timelines (pairChosen).
class DisagreementTable : public QWidget {
    Q_OBJECT

public:
    explicit DisagreementTable(QWidget* parent = nullptr);

    void updateFrom(const RunSnapshot& run);
    QTableWidget* table() const { return table_; }

signals:
    // Limiters a and b (indexes into the run's limiters); -1, -1: none chosen.
    void pairChosen(int a, int b);

private:
    QLabel* note_ = nullptr;
    QTableWidget* table_ = nullptr;
    QVector<LimiterDisagreement> pairs_;
};

}  // namespace ratelab
