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

// Per-client table of one selectable limiter: client, its traffic group (when the traffic has
// groups), fired, accepted, rejected, errors, waited (ms total and mean per accepted), and for a
// script limiter with a reference the requests that reference decided otherwise; sortable. With
// groups, a "Group" combo shows all of them or one group's clients.
class ClientTable : public QWidget {
    Q_OBJECT

public:
    explicit ClientTable(QWidget* parent = nullptr);
    void updateFrom(const RunSnapshot& run);
    int rowCount() const;
    QStringList row(int r) const;  // the shown columns' texts, for tests
    // "All groups" (index 0) or one group's clients; hidden without groups.
    QComboBox* groupFilter() const { return group_; }

    static constexpr int kMaxRows = 1000;

private:
    void render();
    void syncGroups();

    QComboBox* combo_ = nullptr;
    QComboBox* group_ = nullptr;
    QWidget* groupRow_ = nullptr;  // "Group:" and its combo
    QTableWidget* table_ = nullptr;
    QLabel* note_ = nullptr;
    RunSnapshot run_;  // the last one, for switching limiters between updates
};

}  // namespace ratelab
