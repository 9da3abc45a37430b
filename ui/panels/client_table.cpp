#include "panels/client_table.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QLocale>
#include <QSet>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <vector>

#include "panels/column_fit.h"
#include "panels/table_cells.h"

namespace ratelab {
namespace {

enum Column {
    kClient,
    kGroup,
    kFired,
    kAccepted,
    kRejected,
    kErrors,
    kWaited,
    kMeanWait,
    kDisagreed,
};

}  // namespace

ClientTable::ClientTable(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("note"));
    note_->hide();
    // The group filter beside the limiter: "Group:" and its combo, shown when there are groups.
    auto* groupRow = new QWidget(this);
    auto* groupLayout = new QHBoxLayout(groupRow);
    groupLayout->setContentsMargins(0, 0, 0, 0);
    auto* groupLabel = new QLabel(tr("Group:"), groupRow);
    group_ = new QComboBox(groupRow);
    group_->setObjectName(QStringLiteral("group"));
    group_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    group_->setToolTip(tr("Every client, or the clients of one traffic group"));
    groupLabel->setBuddy(group_);
    groupLayout->addWidget(groupLabel);
    groupLayout->addWidget(group_);
    combo_ = panel::addLimiterRow(this, layout, note_, groupRow);
    groupRow_ = groupRow;
    groupRow_->hide();
    // A unit under its figure's name, as in the comparison table: the columns fit beside the
    // latency histogram, the group's too.
    table_ = panel::makeTable(
        this, QStringLiteral("clients"),
        {tr("Client"), tr("Group"), tr("Fired"), tr("Accepted"), tr("Rejected"), tr("Errors"),
         tr("Waited\nms"), tr("Mean wait\nms"), tr("Against\nreference")});
    panel::fitColumns(
        table_,
        {tr("The client's name (its own limit when the limiter is per_client)."),
         tr("The client's traffic group (the scenario's traffic \"groups\"; its clients are "
            "named <group>-<i>)."),
         tr("This client's requests with a final outcome: Accepted + Rejected + Errors."),
         tr("This client's requests the limiter allowed."),
         tr("This client's requests the limiter refused."),
         tr("This client's decisions that failed (Redis unreachable or an error)."),
         tr("Wait mode: the total time this client's granted requests waited, from their first "
            "try to the grant, in ms. 0 in try mode."),
         tr("Wait mode: Waited ms / Accepted, the mean wait of a granted request, in ms."),
         tr("A script limiter with a \"reference\": this client's requests the reference "
            "decided otherwise (shown for such a limiter).")});
    table_->setSortingEnabled(true);
    table_->sortByColumn(kClient, Qt::AscendingOrder);
    // The group is its clients' names' prefix (<group>-<i>): too narrow, it is cut first.
    panel::setYieldingColumn(table_, kGroup);
    table_->setColumnHidden(kGroup, true);
    table_->setColumnHidden(kDisagreed, true);
    layout->addWidget(table_, 1);
    connect(combo_, &QComboBox::currentIndexChanged, this, [this] {
        table_->setRowCount(0);  // another limiter: nothing to reuse
        syncGroups();
        render();
    });
    connect(group_, &QComboBox::currentIndexChanged, this, &ClientTable::render);
}

void ClientTable::updateFrom(const RunSnapshot& run) {
    run_ = run;
    panel::syncLimiterCombo(combo_, run);
    syncGroups();
    render();
}

// The group combo lists the selected limiter's groups after "All groups", the selection kept by
// name; hidden (and the Group column too) when there are none.
void ClientTable::syncGroups() {
    const int index = combo_->currentIndex();
    QStringList names;
    if (index >= 0 && index < run_.limiters.size()) {
        for (const GroupTotals& g : run_.limiters[index].groups)
            names << g.group;
    }
    QStringList items{tr("All groups")};
    items += names;
    bool same = group_->count() == items.size();
    for (int i = 0; same && i < items.size(); ++i)
        same = group_->itemText(i) == items[i];
    if (!same) {
        const QString current = group_->currentIndex() > 0 ? group_->currentText() : QString();
        const QSignalBlocker blocker(group_);
        group_->clear();
        group_->addItems(items);
        group_->setCurrentIndex(std::max<int>(0, int(names.indexOf(current)) + 1));
    }
    if (groupRow_->isHidden() != names.isEmpty())
        groupRow_->setHidden(names.isEmpty());
    table_->setColumnHidden(kGroup, names.isEmpty());
}

int ClientTable::rowCount() const {
    return table_->rowCount();
}

QStringList ClientTable::row(int r) const {
    QStringList shown;
    const QStringList all = panel::rowTexts(table_, r);
    for (int c = 0; c < all.size(); ++c) {
        if (!table_->isColumnHidden(c))
            shown << all[c];
    }
    return shown;
}

void ClientTable::render() {
    const int index = combo_->currentIndex();
    if (index < 0 || index >= run_.limiters.size()) {
        table_->setRowCount(0);
        note_->hide();
        return;
    }
    const QVector<ClientTotals>& clients = run_.limiters[index].clients;
    const bool reference = run_.limiters[index].hasReference;
    if (table_->isColumnHidden(kDisagreed) == reference)
        table_->setColumnHidden(kDisagreed, !reference);

    // One group's clients, or all; beyond the cap, the clients that fired most are shown.
    const QString group = group_->currentIndex() > 0 ? group_->currentText() : QString();
    std::vector<int> shown;
    shown.reserve(clients.size());
    for (int i = 0; i < clients.size(); ++i) {
        if (group.isEmpty() || clients[i].group == group)
            shown.push_back(i);
    }
    const size_t matching = shown.size();
    if (shown.size() > size_t(kMaxRows)) {
        std::nth_element(shown.begin(), shown.begin() + kMaxRows, shown.end(), [&](int a, int b) {
            return clients[a].fired != clients[b].fired ? clients[a].fired > clients[b].fired
                                                        : a < b;
        });
        shown.resize(kMaxRows);
        note_->setText(tr("%1 of %2 clients shown (those that fired most)")
                           .arg(panel::count(kMaxRows), panel::count(qint64(matching))));
        note_->show();
    } else {
        note_->hide();
    }

    // Rows are matched to clients by name and updated in place, with sorting off meanwhile
    // (otherwise every changed cell moves its row at once); turning it back on sorts once by
    // the column and order the user chose.
    table_->setSortingEnabled(false);
    QSet<QString> names;
    names.reserve(int(shown.size()));
    for (int i : shown)
        names.insert(clients[i].client);
    for (int r = table_->rowCount() - 1; r >= 0; --r) {
        const QTableWidgetItem* item = table_->item(r, kClient);
        if (!item || !names.contains(item->text()))
            table_->removeRow(r);
    }
    QHash<QString, int> rowOf;
    rowOf.reserve(table_->rowCount());
    for (int r = 0; r < table_->rowCount(); ++r)
        rowOf.insert(table_->item(r, kClient)->text(), r);
    int nextRow = table_->rowCount();  // new clients go below, the sort puts them in place
    table_->setRowCount(int(shown.size()));

    const QLocale locale;
    for (int i : shown) {
        const ClientTotals& c = clients[i];
        const auto found = rowOf.constFind(c.client);
        const int r = found != rowOf.constEnd() ? *found : nextRow++;
        panel::setText(panel::cell(table_, r, kClient, false), c.client);
        panel::setText(panel::cell(table_, r, kGroup, false), c.group);
        const qint64 counts[] = {c.fired, c.accepted, c.rejected, c.errors, c.waitedMsTotal};
        for (int k = 0; k < 5; ++k) {
            QTableWidgetItem* item = panel::cell(table_, r, kFired + k, true);
            if (panel::valueChanged(item, double(counts[k])))
                item->setText(locale.toString(counts[k]));
        }
        // No accepted request, no mean: sorts below every real mean.
        const double mean = c.accepted > 0 ? double(c.waitedMsTotal) / double(c.accepted) : -1;
        QTableWidgetItem* item = panel::cell(table_, r, kMeanWait, true);
        if (panel::valueChanged(item, mean))
            item->setText(mean < 0 ? panel::dash() : locale.toString(mean, 'f', 1));
        QTableWidgetItem* disagreed = panel::cell(table_, r, kDisagreed, true);
        if (panel::valueChanged(disagreed, double(c.reference.disagreed)))
            disagreed->setText(locale.toString(c.reference.disagreed));
    }
    table_->setSortingEnabled(true);
    panel::refitColumns(table_);
}

}  // namespace ratelab
