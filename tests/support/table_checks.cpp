#include "support/table_checks.h"

#include <QHeaderView>
#include <QStyle>
#include <QTableWidget>
#include <algorithm>

namespace ratelab::test {

int headerTextWidth(const QFontMetrics& metrics, const QString& text) {
    int width = 0;
    for (const QString& line : text.split(QLatin1Char('\n')))
        width = std::max(width, metrics.horizontalAdvance(line));
    return width;
}

QString cellCut(const QTableWidget* table, int row, int column) {
    const QTableWidgetItem* item = table->item(row, column);
    if (item == nullptr)
        return QString();
    const QVariant own = item->data(Qt::FontRole);
    const QFont font = own.isValid() ? own.value<QFont>().resolve(table->font()) : table->font();
    const double text = QFontMetricsF(font, table).horizontalAdvance(item->text());
    const int margins = 2 * (table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin) + 1);
    const int room =
        table->horizontalHeader()->sectionSize(column) - margins - (table->showGrid() ? 1 : 0);
    if (text <= room)
        return QString();
    return QStringLiteral("\"%1\" (column %2): %3 px of text in %4")
        .arg(item->text())
        .arg(column)
        .arg(text)
        .arg(room);
}

bool columnsWhole(const QTableWidget* table, QString* cut) {
    const QFontMetrics cells = table->fontMetrics();
    const QFontMetrics heads = table->horizontalHeader()->fontMetrics();
    for (int c = 0; c < table->columnCount(); ++c) {
        if (table->isColumnHidden(c))
            continue;
        const int width = table->horizontalHeader()->sectionSize(c);
        QStringList texts{table->horizontalHeaderItem(c)->text()};
        int need = headerTextWidth(heads, texts.first());
        for (int r = 0; r < table->rowCount(); ++r) {
            texts << table->item(r, c)->text();
            need = std::max(need, cells.horizontalAdvance(texts.last()));
            if (const QString cell = cellCut(table, r, c); !cell.isEmpty()) {
                *cut = cell;
                return false;
            }
        }
        if (width < need + 6) {
            *cut = QStringLiteral("column %1 (%2): %3 px for %4 px")
                       .arg(c)
                       .arg(texts.join(QLatin1Char('|')))
                       .arg(width)
                       .arg(need + 6);
            return false;
        }
    }
    return true;
}

}  // namespace ratelab::test
