#include "support/table_checks.h"

#include <QHeaderView>
#include <QTableWidget>
#include <algorithm>

namespace ratelab::test {

bool columnsWhole(const QTableWidget* table, QString* cut) {
    const QFontMetrics cells = table->fontMetrics();
    const QFontMetrics heads = table->horizontalHeader()->fontMetrics();
    for (int c = 0; c < table->columnCount(); ++c) {
        if (table->isColumnHidden(c))
            continue;
        const int width = table->horizontalHeader()->sectionSize(c);
        QStringList texts{table->horizontalHeaderItem(c)->text()};
        int need = heads.horizontalAdvance(texts.first());
        for (int r = 0; r < table->rowCount(); ++r) {
            texts << table->item(r, c)->text();
            need = std::max(need, cells.horizontalAdvance(texts.last()));
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
