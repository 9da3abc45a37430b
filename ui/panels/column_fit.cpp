#include "panels/column_fit.h"

#include <QEvent>
#include <QHeaderView>
#include <QStyle>
#include <QTableWidget>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace ratelab::panel {
namespace {

// Cells measured per column: the first rows (a long table's widths follow its first screen).
constexpr int kMeasuredRows = 100;
const char kFitterName[] = "columnFitter";

// What each shown column needs to show its header and its first cells whole (0 if hidden).
QVector<int> columnNeeds(const QTableWidget* table) {
    const int columns = table->columnCount();
    QVector<int> need(columns, 0);
    // Fractional advances, rounded up: the view elides a text a fraction of a pixel too wide
    // (a hinted font on a screen: "1,350" of 34.4 px read "1,3…" in 34 + the margins).
    const QFontMetricsF cells(table->font(), table);
    const QHeaderView* header = table->horizontalHeader();
    const QFontMetricsF heads(header->font(), header);
    const auto advance = [](const QFontMetricsF& metrics, const QString& text) {
        return int(std::ceil(metrics.horizontalAdvance(text)));
    };
    // The style's own text margins (an item's: the focus frame's and 1 on each side; a
    // header section's), and a pixel to spare.
    const QStyle* style = table->style();
    const int margin = 2 * (style->pixelMetric(QStyle::PM_FocusFrameHMargin) + 1) + 1;
    const int headerMargin = 2 * style->pixelMetric(QStyle::PM_HeaderMargin) + 2;
    const int sortRoom = table->isSortingEnabled() ? int(std::ceil(heads.height())) + 4 : 0;
    const int rows = std::min(table->rowCount(), kMeasuredRows);
    for (int c = 0; c < columns; ++c) {
        if (table->isColumnHidden(c))
            continue;
        if (const QTableWidgetItem* item = table->horizontalHeaderItem(c)) {
            // A header of two lines ("Max\nin 1 s") needs its longer one.
            for (const QString& line : item->text().split(QLatin1Char('\n')))
                need[c] = std::max(need[c], advance(heads, line) + headerMargin + sortRoom);
        }
        for (int r = 0; r < rows; ++r) {
            // A cell across several columns (a row's note) sizes none of them.
            if (table->columnSpan(r, c) > 1)
                continue;
            if (const QTableWidgetItem* item = table->item(r, c)) {
                // An item's font (italic, say) on the table's, as the view draws it.
                const QVariant own = item->data(Qt::FontRole);
                const int width =
                    own.isValid()
                        ? advance(QFontMetricsF(own.value<QFont>().resolve(table->font()), table),
                                  item->text())
                        : advance(cells, item->text());
                need[c] = std::max(need[c], width + margin);
            }
        }
        need[c] = std::max(need[c], header->minimumSectionSize());
    }
    return need;
}

class ColumnFitter : public QObject {
public:
    ColumnFitter(QTableWidget* table, int stretchColumn)
        : QObject(table), table_(table), stretch_(stretchColumn) {
        setObjectName(QLatin1String(kFitterName));
        table->viewport()->installEventFilter(this);
        table->horizontalHeader()->installEventFilter(this);
    }

    void setAllRows() { allRows_ = true; }
    void addYielding(int column) {
        if (!yielding_.contains(column))
            yielding_.append(column);
        lastWidth_ = -1;
    }

    void setStretch(int column) {
        stretch_ = column;
        lastWidth_ = -1;
    }

    void fit() {
        const QVector<int> need = columnNeeds(table_);
        const int columns = int(need.size());
        QHeaderView* header = table_->horizontalHeader();
        const int available = table_->viewport()->width();
        if (available <= 0 || (need == lastNeed_ && available == lastWidth_))
            return;
        lastNeed_ = need;
        lastWidth_ = available;

        const int least = header->minimumSectionSize();
        QVector<int> widths;
        const int total = std::accumulate(need.begin(), need.end(), 0);
        // The yielding columns give up room in their order, each down to the least width, so
        // that the others (the numbers) keep what they need and read whole.
        int yieldable = 0;
        for (int y : yielding_) {
            if (y >= 0 && y < columns && need[y] > 0)
                yieldable += need[y] - std::min(need[y], least);
        }
        if (total > available && yieldable > 0 && total - yieldable <= available) {
            widths = need;
            int excess = total - available;
            for (int y : yielding_) {
                if (excess <= 0 || y < 0 || y >= columns || need[y] <= 0)
                    continue;
                const int give = std::min(excess, need[y] - std::min(need[y], least));
                widths[y] -= give;
                excess -= give;
            }
        } else {
            widths = share(need, available, least,
                           stretch_ >= 0 && stretch_ < columns && !table_->isColumnHidden(stretch_)
                               ? stretch_
                               : -1);
        }
        header->setSectionResizeMode(QHeaderView::Fixed);
        for (int c = 0; c < columns; ++c) {
            if (!table_->isColumnHidden(c) && header->sectionSize(c) != widths[c])
                header->resizeSection(c, widths[c]);
        }
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::FontChange) {
            // Another font (presentation mode): rows as tall as its lines, widths measured again.
            table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
            lastWidth_ = -1;
            if (allRows_)
                showAllRows(table_);
        }
        if (event->type() == QEvent::Resize || event->type() == QEvent::FontChange)
            fit();
        return QObject::eventFilter(watched, event);
    }

private:
    // Widths for `need` in `available` pixels: all of them plus an equal share of what is left
    // (all of it to `stretch` when >= 0), or, too narrow, every column at most a cap chosen so
    // that they fill the width.
    static QVector<int> share(const QVector<int>& need, int available, int least, int stretch) {
        QVector<int> widths = need;
        const int shown = int(std::count_if(need.begin(), need.end(), [](int n) { return n > 0; }));
        if (shown == 0)
            return widths;
        const int total = std::accumulate(need.begin(), need.end(), 0);
        if (total <= available && stretch >= 0) {
            widths[stretch] += available - total;
            return widths;
        }
        if (total <= available) {
            int extra = available - total;
            const int each = extra / shown;
            for (int& w : widths) {
                if (w > 0) {
                    w += each;
                    extra -= each;
                }
            }
            for (int c = int(widths.size()) - 1; c >= 0 && extra > 0; --c) {
                if (widths[c] > 0) {
                    widths[c] += extra;  // the rounding, to the last column
                    break;
                }
            }
            return widths;
        }
        // The largest cap at which the capped columns still fit.
        QVector<int> sorted;
        for (int n : need) {
            if (n > 0)
                sorted << n;
        }
        std::sort(sorted.begin(), sorted.end());
        int below = 0;  // the sum of the columns narrower than the cap
        int cap = least;
        for (int i = 0; i < sorted.size(); ++i) {
            const int rest = int(sorted.size()) - i;
            const int candidate = (available - below) / rest;
            if (candidate <= sorted[i]) {
                cap = std::max(least, candidate);
                break;
            }
            below += sorted[i];
        }
        for (int& w : widths) {
            if (w > 0)
                w = std::min(w, cap);
        }
        return widths;
    }

    QTableWidget* table_;
    int stretch_;
    QVector<int> yielding_;  // in the order they give up room
    bool allRows_ = false;   // showAllRows keeps the height to the rows
    QVector<int> lastNeed_;
    int lastWidth_ = -1;
};

ColumnFitter* fitterOf(QTableWidget* table) {
    // No Q_OBJECT of its own: found by name, one per table.
    return static_cast<ColumnFitter*>(
        table->findChild<QObject*>(QLatin1String(kFitterName), Qt::FindDirectChildrenOnly));
}

}  // namespace

void fitColumnsToContents(QTableWidget* table, int stretchColumn) {
    if (ColumnFitter* fitter = fitterOf(table))
        fitter->setStretch(stretchColumn);
    else
        new ColumnFitter(table, stretchColumn);  // owned by the table
    refitColumns(table);
}

void refitColumns(QTableWidget* table) {
    if (ColumnFitter* fitter = fitterOf(table))
        fitter->fit();
}

void setYieldingColumn(QTableWidget* table, int column) {
    if (ColumnFitter* fitter = fitterOf(table)) {
        fitter->addYielding(column);
        fitter->fit();
    }
}

int contentsWidth(const QTableWidget* table) {
    const QVector<int> need = columnNeeds(table);
    return std::accumulate(need.begin(), need.end(), 0);
}

void showAllRows(QTableWidget* table) {
    if (ColumnFitter* fitter = fitterOf(table))
        fitter->setAllRows();
    const int height = table->horizontalHeader()->sizeHint().height() +
                       table->rowCount() * table->verticalHeader()->defaultSectionSize() +
                       2 * table->frameWidth() + 2;
    if (table->minimumHeight() != height || table->maximumHeight() != height)
        table->setFixedHeight(height);
}

}  // namespace ratelab::panel
