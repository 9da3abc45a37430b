#pragma once

QT_BEGIN_NAMESPACE
class QTableWidget;
QT_END_NAMESPACE

namespace ratelab::panel {

// Sizes a table's columns to what they hold, in the table's width (no sideways scrolling): each
// column gets the width its header and its cells need; the room left over is shared out
// equally. When the table is too narrow for all of them, the widest columns give up room first
// (a long name or header is elided, whole in its tooltip) and the narrow ones (the numbers)
// keep theirs. With a `stretchColumn` that column alone takes the room left over. Follows the
// table's resizes; refitColumns after its texts change.
void fitColumnsToContents(QTableWidget* table, int stretchColumn = -1);
// Too narrow, `column` (a secondary one) gives up its room before any other does; called for
// several columns, they give it up in the order of the calls.
void setYieldingColumn(QTableWidget* table, int column);
void refitColumns(QTableWidget* table);

// The width the shown columns need to read whole (their headers and first cells).
int contentsWidth(const QTableWidget* table);

// A table as tall as its header and rows, without a scroll bar of its own (for a few rows in
// a view that scrolls as a whole); called again when the rows change.
void showAllRows(QTableWidget* table);

}  // namespace ratelab::panel
