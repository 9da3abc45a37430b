#include "panels/table_cells.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "panels/column_fit.h"

namespace ratelab::panel {

QString dash() {
    return QStringLiteral("\u2014");
}

QString count(qint64 value) {
    return QLocale().toString(value);
}

QString formatMs(qint64 us) {
    const double ms = double(us) / 1000.0;
    const int decimals = ms < 10 ? 3 : ms < 100 ? 2 : ms < 1000 ? 1 : 0;
    return QLocale().toString(ms, 'f', decimals);
}

QTableWidget* makeTable(QWidget* parent, const QString& name, const QStringList& headers) {
    auto* table = new QTableWidget(0, int(headers.size()), parent);
    table->setObjectName(name);
    table->setHorizontalHeaderLabels(headers);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->verticalHeader()->hide();
    // Fixed row heights and column widths: measuring contents of 1000 rows on each update
    // would cost more than the update itself.
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    QHeaderView* header = table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    const int numberWidth = table->fontMetrics().horizontalAdvance(QStringLiteral("10,000,000"));
    for (int c = 0; c < headers.size(); ++c) {
        const int headerWidth = table->fontMetrics().horizontalAdvance(headers[c]);
        table->setColumnWidth(c, std::max(headerWidth, numberWidth) + 20);
    }
    header->setStretchLastSection(true);
    return table;
}

void fitColumns(QTableWidget* table, const QStringList& tips) {
    table->setTextElideMode(Qt::ElideRight);
    table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    QHeaderView* header = table->horizontalHeader();
    header->setMinimumSectionSize(
        std::max(24, table->fontMetrics().horizontalAdvance(QStringLiteral("00.0")) + 8));
    header->setTextElideMode(Qt::ElideRight);
    // A header wider than its column is clipped at both ends when centred: left-aligned, its
    // start stays readable (the tooltip has it whole).
    header->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    header->setStretchLastSection(false);  // it would keep its old width on top
    for (int c = 0; c < table->columnCount() && c < tips.size(); ++c) {
        if (QTableWidgetItem* item = table->horizontalHeaderItem(c))
            item->setToolTip(
                QStringLiteral("<b>%1</b><br>%2").arg(item->text().toHtmlEscaped(), tips[c]));
    }
    fitColumnsToContents(table);  // as wide as their texts, the room left shared out
}

bool NumberItem::operator<(const QTableWidgetItem& other) const {
    return data(kValueRole).toDouble() < other.data(kValueRole).toDouble();
}

QTableWidgetItem* cell(QTableWidget* table, int row, int column, bool number) {
    QTableWidgetItem* item = table->item(row, column);
    if (!item) {
        table->setItem(row, column, number ? new NumberItem : new QTableWidgetItem);
        item = table->item(row, column);
        if (number)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    return item;
}

void setText(QTableWidgetItem* item, const QString& text) {
    if (item->text() != text) {
        item->setText(text);
        item->setToolTip(text);
    }
}

void setText(QLabel* label, const QString& text) {
    if (label->text() != text)
        label->setText(text);
}

bool valueChanged(QTableWidgetItem* item, double value) {
    const QVariant old = item->data(kValueRole);
    if (old.isValid() && old.toDouble() == value)
        return false;
    item->setData(kValueRole, value);
    return true;
}

QStringList rowTexts(const QTableWidget* table, int row) {
    QStringList texts;
    if (row < 0 || row >= table->rowCount())
        return texts;
    for (int c = 0; c < table->columnCount(); ++c) {
        const QTableWidgetItem* item = table->item(row, c);
        texts.append(item ? item->text() : QString());
    }
    return texts;
}

void syncLimiterCombo(QComboBox* combo, const RunSnapshot& run) {
    bool same = combo->count() == run.limiters.size();
    for (int i = 0; same && i < combo->count(); ++i)
        same = combo->itemText(i) == run.limiters[i].spec.name;
    if (same)
        return;
    const QString current = combo->currentText();
    const QSignalBlocker blocker(combo);
    combo->clear();
    for (const LimiterSnapshot& limiter : run.limiters)
        combo->addItem(limiter.spec.name);
    combo->setCurrentIndex(std::max(0, combo->findText(current)));
}

QComboBox* addLimiterRow(QWidget* owner, QVBoxLayout* layout, QLabel* note, QWidget* beside) {
    auto* row = new QHBoxLayout;
    layout->addLayout(row);
    auto* label = new QLabel(QCoreApplication::translate("ratelab::panel", "Limiter:"), owner);
    auto* combo = new QComboBox(owner);
    combo->setObjectName(QStringLiteral("limiter"));
    combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    label->setBuddy(combo);
    row->addWidget(label);
    row->addWidget(combo);
    if (beside)
        row->addWidget(beside);
    row->addStretch(1);
    if (note)
        row->addWidget(note);
    return combo;
}

}  // namespace ratelab::panel
