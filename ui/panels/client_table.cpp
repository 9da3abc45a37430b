#include "panels/client_table.h"

#include <QComboBox>
#include <QHash>
#include <QLabel>
#include <QLocale>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <numeric>
#include <vector>

#include "panels/column_fit.h"
#include "panels/table_cells.h"

namespace ratelab {
namespace {

enum Column {
    kClient,
    kFired,
    kAccepted,
    kRejected,
    kErrors,
    kWaited,
    kMeanWait,
};

}  // namespace

ClientTable::ClientTable(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("note"));
    note_->hide();
    combo_ = panel::addLimiterRow(this, layout, note_);
    table_ = panel::makeTable(this, QStringLiteral("clients"),
                              {tr("Client"), tr("Fired"), tr("Accepted"), tr("Rejected"),
                               tr("Errors"), tr("Waited ms"), tr("Mean wait ms")});
    panel::fitColumns(
        table_,
        {tr("The client's name (its own limit when the limiter is per_client)."),
         tr("This client's requests with a final outcome: Accepted + Rejected + Errors."),
         tr("This client's requests the limiter allowed."),
         tr("This client's requests the limiter refused."),
         tr("This client's decisions that failed (Redis unreachable or an error)."),
         tr("Wait mode: the total time this client's granted requests waited, from their first "
            "try to the grant, in ms. 0 in try mode."),
         tr("Wait mode: Waited ms / Accepted, the mean wait of a granted request, in ms.")});
    table_->setSortingEnabled(true);
    table_->sortByColumn(kClient, Qt::AscendingOrder);
    layout->addWidget(table_, 1);
    connect(combo_, &QComboBox::currentIndexChanged, this, [this] {
        table_->setRowCount(0);  // another limiter: nothing to reuse
        render();
    });
}

void ClientTable::updateFrom(const RunSnapshot& run) {
    run_ = run;
    panel::syncLimiterCombo(combo_, run);
    render();
}

int ClientTable::rowCount() const {
    return table_->rowCount();
}

QStringList ClientTable::row(int r) const {
    return panel::rowTexts(table_, r);
}

void ClientTable::render() {
    const int index = combo_->currentIndex();
    if (index < 0 || index >= run_.limiters.size()) {
        table_->setRowCount(0);
        note_->hide();
        return;
    }
    const QVector<ClientTotals>& clients = run_.limiters[index].clients;

    // Beyond the cap, the clients that fired most are shown.
    std::vector<int> shown(clients.size());
    std::iota(shown.begin(), shown.end(), 0);
    if (shown.size() > size_t(kMaxRows)) {
        std::nth_element(shown.begin(), shown.begin() + kMaxRows, shown.end(), [&](int a, int b) {
            return clients[a].fired != clients[b].fired ? clients[a].fired > clients[b].fired
                                                        : a < b;
        });
        shown.resize(kMaxRows);
        note_->setText(tr("%1 of %2 clients shown (those that fired most)")
                           .arg(panel::count(kMaxRows), panel::count(clients.size())));
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
    }
    table_->setSortingEnabled(true);
    panel::refitColumns(table_);
}

}  // namespace ratelab
