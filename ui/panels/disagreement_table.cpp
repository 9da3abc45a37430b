#include "panels/disagreement_table.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ratelab {

DisagreementTable::DisagreementTable(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    note_ = new QLabel(this);
    note_->setWordWrap(true);
    layout->addWidget(note_);
    table_ = new QTableWidget(0, 4, this);
    table_->setObjectName(QStringLiteral("disagreements"));
    table_->setHorizontalHeaderLabels(
        {tr("Limiters"), tr("Compared"), tr("Decided differently"), tr("Share")});
    table_->horizontalHeaderItem(1)->setToolTip(
        tr("Requests both limiters decided (an error at either is not compared)"));
    table_->horizontalHeaderItem(2)->setToolTip(
        tr("Requests one accepted and the other refused; choose a row to mark them on both "
           "timelines"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    layout->addWidget(table_);
    connect(table_, &QTableWidget::itemSelectionChanged, this, [this] {
        const int row = table_->currentRow();
        if (row >= 0 && row < pairs_.size())
            emit pairChosen(pairs_[row].a, pairs_[row].b);
        else
            emit pairChosen(-1, -1);
    });
    updateFrom(RunSnapshot{});
}

void DisagreementTable::updateFrom(const RunSnapshot& run) {
    const bool compared = run.sameRequests && run.limiters.size() >= 2;
    note_->setText(compared ? tr("Disagreements: the same requests, accepted by one limiter and "
                                 "refused by the other. Choose a pair to mark them on its "
                                 "timelines.")
                            : tr("Disagreements need two or more limiters in try mode (each "
                                 "request then goes to every limiter)."));
    const int chosen = table_->currentRow();
    pairs_ = compared ? run.disagreements : QVector<LimiterDisagreement>{};
    const QLocale locale;
    table_->setRowCount(pairs_.size());
    for (int i = 0; i < pairs_.size(); ++i) {
        const LimiterDisagreement& p = pairs_[i];
        const QString names = run.limiters.value(p.a).spec.name + QStringLiteral(" / ") +
                              run.limiters.value(p.b).spec.name;
        const QString share =
            p.compared > 0
                ? locale.toString(100.0 * double(p.disagreed) / double(p.compared), 'f', 1) +
                      QStringLiteral(" %")
                : QStringLiteral("–");
        const QStringList cells{names, locale.toString(p.compared), locale.toString(p.disagreed),
                                share};
        for (int c = 0; c < cells.size(); ++c) {
            QTableWidgetItem* item = table_->item(i, c);
            if (item == nullptr) {
                item = new QTableWidgetItem;
                table_->setItem(i, c, item);
            }
            if (item->text() != cells[c])
                item->setText(cells[c]);
            item->setTextAlignment(c == 0 ? Qt::AlignLeft | Qt::AlignVCenter
                                          : Qt::AlignRight | Qt::AlignVCenter);
        }
    }
    if (chosen >= pairs_.size())
        table_->clearSelection();
}

}  // namespace ratelab
