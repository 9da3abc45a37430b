#pragma once

// What a reader sees of a table (tst_comparison_view, tst_window_edits): built into each test
// that needs it (it needs the widgets).

#include <QString>

QT_BEGIN_NAMESPACE
class QFontMetrics;
class QTableWidget;
QT_END_NAMESPACE

namespace ratelab::test {

// True when every shown column is as wide as its header and each of its cells need (the view's
// text margins included); false sets `cut` to the first that is not.
bool columnsWhole(const QTableWidget* table, QString* cut);
// Empty when the cell's text reads whole as the view draws it (its fractional width within the
// section less the item's text margins and the grid line), else what does not fit.
QString cellCut(const QTableWidget* table, int row, int column);
// The width a header's text needs: its longest line ("Max in\n1000 ms" is two).
int headerTextWidth(const QFontMetrics& metrics, const QString& text);

}  // namespace ratelab::test
