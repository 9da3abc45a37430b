#include "window/decision_panel.h"

#include <QDateTime>
#include <QHeaderView>
#include <QTableWidget>
#include <QTimeZone>
#include <QVBoxLayout>

namespace ratelab {

DecisionPanel::DecisionPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    table_ = new QTableWidget(0, 7, this);
    table_->setObjectName(QStringLiteral("decisions"));
    table_->setHorizontalHeaderLabels({tr("Time"), tr("Client"), tr("Permits"), tr("Limiter"),
                                       tr("Allowed"), tr("retry_after_ms"), tr("Remaining")});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setToolTip(
        tr("Step (F10) sends one request to every limiter; its decisions are "
           "listed here, newest first"));
    layout->addWidget(table_);
}

void DecisionPanel::addStep(const StepSession::Step& step, const QStringList& names) {
    if (step.index < 0)
        return;  // the schedule is over: nothing was decided
    const QString time =
        QDateTime::fromMSecsSinceEpoch(step.nowMs, QTimeZone::utc()).toString(Qt::ISODateWithMs);
    const int rows = int(step.decisions.size());
    for (int i = 0; i < rows; ++i)
        table_->insertRow(0);
    for (int i = 0; i < rows; ++i) {
        const Decision& d = step.decisions[size_t(i)];
        const QString error = step.errors.value(i);
        QStringList cells{
            time,
            step.client,
            QString::number(step.permits),
            names.value(i),
            !error.isEmpty() ? tr("error: %1").arg(error)
            : d.allowed      ? tr("allowed")
                             : tr("rejected"),
            d.allowed || !error.isEmpty()
                ? QStringLiteral("–")
                : (d.retryAfterMs < 0 ? tr("never") : QString::number(d.retryAfterMs)),
            !error.isEmpty() ? QStringLiteral("–") : QString::number(d.remaining)};
        for (int c = 0; c < cells.size(); ++c)
            table_->setItem(i, c, new QTableWidgetItem(cells[c]));
    }
    rowsPerRequest_.prepend(rows);
    ++requests_;
    while (requests_ > kMaxRequests) {
        const int drop = rowsPerRequest_.takeLast();
        for (int r = 0; r < drop; ++r)
            table_->removeRow(table_->rowCount() - 1);
        --requests_;
    }
}

void DecisionPanel::clear() {
    table_->setRowCount(0);
    rowsPerRequest_.clear();
    requests_ = 0;
}

QString DecisionPanel::cellText(int row, int column) const {
    const QTableWidgetItem* item = table_->item(row, column);
    return item ? item->text() : QString();
}

}  // namespace ratelab
