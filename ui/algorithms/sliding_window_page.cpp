#include "algorithms/sliding_window_page.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QTableWidget>
#include <algorithm>

#include "style/palette_colors.h"
#include "style/problem_cell_delegate.h"

namespace ratelab {
namespace {

enum RuleColumn { kLimitColumn, kWindowColumn };

}  // namespace

SlidingWindowPage::SlidingWindowPage(QWidget* parent) : LimiterPage(parent) {
    rules_ = new QTableWidget(0, 2, this);
    rules_->setObjectName(QStringLiteral("rules"));
    rules_->setToolTip(
        tr("A request passes only if, for every rule, the permits granted in the "
           "last window_ms stay within limit"));
    rules_->setHorizontalHeaderLabels({tr("Limit (permits)"), tr("Window (ms)")});
    rules_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    rules_->setItemDelegate(new ProblemCellDelegate(rules_));  // frames the cell an error names
    // A cell's edit ends with Enter or focus-out: it is committed at once.
    connect(rules_, &QTableWidget::itemChanged, this, &LimiterPage::edited);
    connect(rules_, &QTableWidget::itemChanged, this, &LimiterPage::committed);
    form_->addRow(tr("Ru&les"), rules_);
    errors_.add(form_, this, QStringLiteral("$.rules"), rules_, QStringLiteral("rules"));

    auto* addRule = new QPushButton(tr("Add rule"), this);
    addRule->setObjectName(QStringLiteral("addRule"));
    addRule->setToolTip(tr("Adds a rule: a copy of the last one"));
    connect(addRule, &QPushButton::clicked, this, &SlidingWindowPage::addRule);
    removeRule_ = new QPushButton(tr("Remove rule"), this);
    removeRule_->setObjectName(QStringLiteral("removeRule"));
    removeRule_->setToolTip(tr("Removes the selected rules (none selected: the last one)"));
    connect(removeRule_, &QPushButton::clicked, this, &SlidingWindowPage::removeRules);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(addRule);
    buttons->addWidget(removeRule_);
    buttons->addStretch(1);
    form_->addRow(QString(), buttons);
}

void SlidingWindowPage::writeJson(QJsonObject& json) const {
    using namespace limiter_keys;
    QJsonArray rules;
    for (int row = 0; row < rules_->rowCount(); ++row) {
        const QTableWidgetItem* limit = rules_->item(row, kLimitColumn);
        const QTableWidgetItem* window = rules_->item(row, kWindowColumn);
        rules.append(QJsonObject{{kLimit, numberOrText(limit ? limit->text() : QString())},
                                 {kWindowMs, numberOrText(window ? window->text() : QString())}});
    }
    json.insert(kRules, rules);
}

void SlidingWindowPage::fill(const QJsonObject& values) {
    using namespace limiter_keys;
    rules_->setRowCount(0);
    for (const QJsonValue& rule : values.value(kRules).toArray())
        appendRule(textOf(rule[kLimit]), textOf(rule[kWindowMs]));
    removeRule_->setEnabled(rules_->rowCount() > 0);
}

// Any rule's path is shown at the table; the cell (or row) it names is tinted and framed.
bool SlidingWindowPage::showProblem(const QString& where, const QString& message) {
    static const QRegularExpression rulePath(
        QStringLiteral(R"(^\$\.rules\[(\d+)\](?:\.(limit|window_ms))?$)"));
    const QRegularExpressionMatch match = rulePath.match(where);
    int row = -1;
    int column = -1;
    if (match.hasMatch() && !message.isEmpty()) {
        row = match.captured(1).toInt();
        const QString member = match.captured(2);
        column = member.isEmpty()                 ? -1
                 : member == limiter_keys::kLimit ? kLimitColumn
                                                  : kWindowColumn;
    }
    removeRule_->setEnabled(rules_->rowCount() > 0);
    tintRow_ = row;
    tintColumn_ = column;
    tint(row, column, palette());
    return errors_.show(row >= 0 ? QStringLiteral("$.rules") : where, message);
}

void SlidingWindowPage::repaintProblem(const QPalette& palette) {
    LimiterPage::repaintProblem(palette);
    tint(tintRow_, tintColumn_, palette);
}

// The marked cells: tinted, framed, and written in the palette's text colour (the table's own
// text is in the error colour, which on the tint falls under 4.5:1).
void SlidingWindowPage::tint(int row, int column, const QPalette& palette) {
    const QColor back = style::withAlpha(style::errorColor(palette), 70);
    const QColor text = palette.color(QPalette::Text);
    const QSignalBlocker blocker(rules_);  // a background is no edit
    for (int r = 0; r < rules_->rowCount(); ++r) {
        for (int c = 0; c < rules_->columnCount(); ++c) {
            QTableWidgetItem* item = rules_->item(r, c);
            if (item == nullptr)
                continue;
            const bool marked = r == row && (column < 0 || column == c);
            const auto set = [item](int role, const QVariant& wanted) {
                if (item->data(role) != wanted)
                    item->setData(role, wanted);
            };
            set(Qt::BackgroundRole, marked ? QVariant(back) : QVariant());
            set(Qt::ForegroundRole, marked ? QVariant(text) : QVariant());
            set(ProblemCellDelegate::kProblemRole, marked ? QVariant(true) : QVariant());
        }
    }
}

void SlidingWindowPage::appendRule(const QString& limit, const QString& windowMs) {
    const QSignalBlocker blocker(rules_);  // the caller validates once
    const int row = rules_->rowCount();
    rules_->insertRow(row);
    int column = kLimitColumn;
    for (const QString& text : {limit, windowMs}) {
        auto* item = new QTableWidgetItem(text);  // owned by the table
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        rules_->setItem(row, column++, item);
    }
}

void SlidingWindowPage::addRule() {
    // A copy of the last rule, ready to be changed; it is valid if the last one is.
    const int last = rules_->rowCount() - 1;
    const auto text = [this, last](int column) {
        const QTableWidgetItem* item = last >= 0 ? rules_->item(last, column) : nullptr;
        return item ? item->text() : QString();
    };
    appendRule(last >= 0 ? text(kLimitColumn) : QStringLiteral("10"),
               last >= 0 ? text(kWindowColumn) : QStringLiteral("1000"));
    rules_->setCurrentCell(last + 1, kLimitColumn);
    emit edited();
    emit committed();
}

void SlidingWindowPage::removeRules() {
    // The selected rules, else the last one.
    QList<int> rows;
    for (const QModelIndex& index : rules_->selectionModel()->selectedIndexes())
        rows << index.row();
    if (rows.isEmpty() && rules_->rowCount() > 0)
        rows << rules_->rowCount() - 1;
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    {
        const QSignalBlocker blocker(rules_);
        for (auto it = rows.crbegin(); it != rows.crend(); ++it)
            rules_->removeRow(*it);
    }
    emit edited();
    emit committed();
}

}  // namespace ratelab
