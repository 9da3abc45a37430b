#pragma once

#include <QStringList>
#include <QWidget>

#include "stats/run_snapshot.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QTableWidget;
QT_END_NAMESPACE

namespace ratelab {

// Per-client table of one selectable limiter: client, fired, accepted, rejected, errors,
// waited (ms total and mean per accepted), sortable.
class ClientTable : public QWidget {
    Q_OBJECT

public:
    explicit ClientTable(QWidget* parent = nullptr);
    void updateFrom(const RunSnapshot& run);
    int rowCount() const;
    QStringList row(int r) const;  // for tests

    static constexpr int kMaxRows = 1000;

private:
    void render();

    QComboBox* combo_ = nullptr;
    QTableWidget* table_ = nullptr;
    QLabel* note_ = nullptr;
    RunSnapshot run_;  // the last one, for switching limiters between updates
};

}  // namespace ratelab
