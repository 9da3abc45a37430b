#include "panels/redis_cost_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>

#include "panels/column_fit.h"
#include "panels/table_cells.h"

namespace ratelab {

RedisCostView::RedisCostView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("costSummary"));
    summary_->setWordWrap(true);
    summary_->setToolTip(
        tr("Server time per decision: INFO commandstats (EVALSHA and EVAL: usec / calls) of the "
           "Redis nodes holding these limiters, since the run started. It counts every script "
           "call those nodes ran, every limiter of the run together and other clients' too.\n"
           "Decisions per Redis core: 1,000,000 µs / that time."));
    layout->addWidget(summary_);
    table_ = panel::makeTable(this, QStringLiteral("costTable"),
                              {tr("Limiter"), tr("Key memory"), tr("Keys")});
    panel::fitColumns(
        table_, {tr("The limiter whose keys these are (its name in the scenario)."),
                 tr("MEMORY USAGE summed over the limiter's keys: estimated from 5 samples per "
                    "key while the run goes, every element counted once it is over."),
                 tr("How many keys the limiter holds in Redis.")});
    // The name takes the room left; the two figures keep their width (a stretched "Keys" put
    // its count far from its header's neighbours).
    panel::fitColumnsToContents(table_, 0);
    layout->addWidget(table_);
    clear();
}

void RedisCostView::clear() {
    summary_->setText(tr("Redis's own cost: shown while a test runs."));
    table_->setRowCount(0);
    fitTable();
}

QString RedisCostView::formatBytes(qint64 bytes) {
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

void RedisCostView::updateCost(const RunCost& cost, const QStringList& names) {
    const QLocale locale;
    if (!cost.scriptsKnown) {
        summary_->setText(tr("Server time per decision: not available (the server refused "
                             "INFO: %1)")
                              .arg(cost.scriptsRefusal));
    } else if (cost.calls <= 0) {
        summary_->setText(tr("Server time per decision: no decision yet."));
    } else {
        summary_->setText(tr("Redis spent %1 µs of server time per decision (%2 script calls "
                             "since the start, all limiters together): one Redis core could "
                             "decide %3 per second.")
                              .arg(locale.toString(cost.usPerDecision, 'f', 2),
                                   locale.toString(cost.calls),
                                   locale.toString(qRound64(cost.decisionsPerCoreSecond))));
    }
    const int rows = int(std::min<qsizetype>(names.size(), cost.bytes.size()));
    table_->setRowCount(rows);
    for (int i = 0; i < rows; ++i) {
        panel::setText(panel::cell(table_, i, 0, false), names[i]);
        QTableWidgetItem* bytes = panel::cell(table_, i, 1, true);
        QTableWidgetItem* keys = panel::cell(table_, i, 2, true);
        if (cost.bytes[i] < 0) {
            panel::setText(bytes, tr("refused"));
            bytes->setToolTip(cost.memoryRefusal);
            panel::setText(keys, panel::dash());
            continue;
        }
        bytes->setData(panel::kValueRole, double(cost.bytes[i]));
        panel::setText(
            bytes, (cost.exact ? QString() : QStringLiteral("≈ ")) + formatBytes(cost.bytes[i]));
        bytes->setToolTip(tr("%1 bytes%2")
                              .arg(locale.toString(cost.bytes[i]),
                                   cost.exact ? QString() : tr(" (sampled estimate)")));
        if (panel::valueChanged(keys, double(cost.keys[i]))) {
            panel::setText(keys, panel::count(cost.keys[i]));
        }
    }
    fitTable();
}

// Every row shown (the comparison tab scrolls as a whole), the columns as wide as their texts.
void RedisCostView::fitTable() {
    panel::refitColumns(table_);
    panel::showAllRows(table_);
}

QString RedisCostView::summaryText() const {
    return summary_->text();
}

QStringList RedisCostView::row(int limiter) const {
    return panel::rowTexts(table_, limiter);
}

}  // namespace ratelab
