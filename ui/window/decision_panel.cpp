#include "window/decision_panel.h"

#include <QDateTime>
#include <QHeaderView>
#include <QResizeEvent>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QTimeZone>
#include <QVBoxLayout>
#include <algorithm>

#include "panels/explanation_view.h"

namespace ratelab {

DecisionPanel::DecisionPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    table_ = new QTableWidget(0, 7, this);
    table_->setObjectName(QStringLiteral("decisions"));
    table_->setHorizontalHeaderLabels({tr("Limiter"), tr("Allowed"), tr("retry_after_ms"),
                                       tr("Remaining"), tr("Time (UTC)"), tr("Client"),
                                       tr("Permits")});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setToolTip(
        tr("Step (F10) sends one request to every limiter; its decisions are "
           "listed here, newest first. Select one to see why."));
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    explanation_ = new ExplanationView(this);
    split_ = new QSplitter(Qt::Horizontal, this);
    split_->addWidget(table_);
    split_->addWidget(explanation_);
    split_->setStretchFactor(0, 2);
    split_->setStretchFactor(1, 3);
    layout->addWidget(split_);
    connect(table_, &QTableWidget::itemSelectionChanged, this, &DecisionPanel::showSelected);
}

void DecisionPanel::showSelected() {
    const int row = table_->currentRow();
    if (row < 0 || row >= explanations_.size()) {
        explanation_->show(std::nullopt, tr("Select a decision to see why."));
        return;
    }
    explanation_->show(explanations_[row],
                       tr("This decision failed: Redis gave no answer to explain."));
}

void DecisionPanel::addStep(const StepSession::Step& step, const QStringList& names) {
    if (step.index < 0)
        return;  // the schedule is over: nothing was decided
    // The time of day (UTC) to the ms: the date is the scenario's and says nothing here.
    const QString time = QDateTime::fromMSecsSinceEpoch(step.nowMs, QTimeZone::utc())
                             .toString(QStringLiteral("HH:mm:ss.zzz"));
    const int rows = int(step.decisions.size());
    for (int i = 0; i < rows; ++i) {
        table_->insertRow(0);
        explanations_.insert(0, std::nullopt);
    }
    for (int i = 0; i < rows; ++i) {
        const Decision& d = step.decisions[size_t(i)];
        const QString error = step.errors.value(i);
        QStringList cells{
            names.value(i),
            !error.isEmpty() ? tr("error: %1").arg(error)
            : d.allowed      ? tr("allowed")
                             : tr("rejected"),
            d.allowed || !error.isEmpty()
                ? QStringLiteral("–")
                : (d.retryAfterMs < 0 ? tr("never") : QString::number(d.retryAfterMs)),
            !error.isEmpty() ? QStringLiteral("–") : QString::number(d.remaining),
            time,
            step.client,
            QString::number(step.permits)};
        for (int c = 0; c < cells.size(); ++c)
            table_->setItem(i, c, new QTableWidgetItem(cells[c]));
        if (size_t(i) < step.explanations.size())
            explanations_[i] = step.explanations[size_t(i)];
    }
    rowsPerRequest_.prepend(rows);
    ++requests_;
    while (requests_ > kMaxRequests) {
        const int drop = rowsPerRequest_.takeLast();
        for (int r = 0; r < drop; ++r) {
            table_->removeRow(table_->rowCount() - 1);
            explanations_.removeLast();
        }
        --requests_;
    }
    table_->selectRow(0);  // the new step's first decision explained
    showSelected();
    fitLayout();  // the columns grew to their contents
}

void DecisionPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitLayout();
}

int DecisionPanel::answerColumnsWidth() const {
    int width = 2 * table_->frameWidth() + table_->verticalScrollBar()->sizeHint().width();
    // What the columns fit to (their contents and header), not what they were last laid out
    // to: a step's rows just added are not laid out yet.
    const QHeaderView* header = table_->horizontalHeader();
    const QAbstractItemView* view = table_;  // QTableView's own sizeHintForColumn is protected
    for (int column = kLimiter; column <= kRemaining; ++column)
        width += std::max({header->sectionSize(column), header->sectionSizeHint(column),
                           view->sizeHintForColumn(column)});
    return width;
}

void DecisionPanel::fitLayout() {
    const int table = answerColumnsWidth();
    const bool sideBySide = width() >= table + split_->handleWidth() + kExplanationMinWidth;
    const Qt::Orientation orientation = sideBySide ? Qt::Horizontal : Qt::Vertical;
    if (split_->orientation() != orientation) {
        split_->setOrientation(orientation);
        if (!sideBySide)
            split_->setSizes({height() / 2, height() - height() / 2});
    }
    // Side by side the table keeps its answer columns; the explanation takes the rest.
    if (sideBySide && table_->width() < table)
        split_->setSizes({table, width() - table - split_->handleWidth()});
}

void DecisionPanel::clear() {
    table_->setRowCount(0);
    explanations_.clear();
    showSelected();
    rowsPerRequest_.clear();
    requests_ = 0;
}

QString DecisionPanel::cellText(int row, int column) const {
    const QTableWidgetItem* item = table_->item(row, column);
    return item ? item->text() : QString();
}

}  // namespace ratelab
