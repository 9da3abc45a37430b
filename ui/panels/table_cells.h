#pragma once

#include <QString>
#include <QStringList>
#include <QTableWidgetItem>

#include "stats/run_snapshot.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QTableWidget;
class QVBoxLayout;
class QWidget;
QT_END_NAMESPACE

namespace ratelab::panel {

// What the comparison, client and latency panels share: cell formatting, in-place updates of
// table cells (tables update at 10-20 Hz), and the limiter selector.

QString dash();  // a value that does not exist yet
QString count(qint64 value);
// Milliseconds from microseconds with about four significant digits.
QString formatMs(qint64 us);

// A read-only table with one column per header, fixed row heights and column widths.
QTableWidget* makeTable(QWidget* parent, const QString& name, const QStringList& headers);

// Columns fit the table's width instead of scrolling sideways (a window of 1024 px shows them
// all), each as wide as its texts and the room left shared out (column_fit.h; refitColumns
// after an update): texts that still do not fit are elided and the full text is the cell's
// tooltip. `tips` are the header tooltips, one per column (what the column means, how it is
// computed).
void fitColumns(QTableWidget* table, const QStringList& tips);

// Numeric cells keep their value in this role: for sorting, and to skip unchanged values.
constexpr int kValueRole = Qt::UserRole;

// Sorts by the stored number, not by the formatted text ("1,000" < "999" as text).
class NumberItem : public QTableWidgetItem {
public:
    bool operator<(const QTableWidgetItem& other) const override;
};

// The cell, created on first use (a NumberItem when `number`, right-aligned).
QTableWidgetItem* cell(QTableWidget* table, int row, int column, bool number);
// Later updates only touch what changes. The text is the tooltip too (it may be elided).
void setText(QTableWidgetItem* item, const QString& text);
void setText(QLabel* label, const QString& text);
// Stores `value`; true when it differs from the stored one (the text then needs formatting).
bool valueChanged(QTableWidgetItem* item, double value);
QStringList rowTexts(const QTableWidget* table, int row);

// Keeps the combo's items equal to the run's limiter names, and the selection on the same name.
void syncLimiterCombo(QComboBox* combo, const RunSnapshot& run);
// A "Limiter:" row with its combo (object name "limiter"), optionally `beside` it (another
// selector) and a note at the right.
QComboBox* addLimiterRow(QWidget* owner, QVBoxLayout* layout, QLabel* note = nullptr,
                         QWidget* beside = nullptr);

}  // namespace ratelab::panel
