#include "panels/state_panel.h"

#include <QCoreApplication>
#include <QEvent>
#include <QHash>
#include <QHeaderView>
#include <QLocale>
#include <QSet>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "style/palette_colors.h"

namespace ratelab {

namespace {

enum Column { kKeyColumn, kTypeColumn, kTtlColumn, kSizeColumn, kValueColumn, kColumnCount };

// Top items hold the limiter's name, key items the key's name: items are matched by it.
constexpr int kNameRole = Qt::UserRole;

// Long string values are shown elided in the Value column; the whole text goes to the tooltip.
constexpr int kTooltipFrom = 60;

// Top items showing a read error have this set (their text colour follows the palette).
constexpr int kErrorRole = Qt::UserRole + 1;

QString tr(const char* text) {
    return QCoreApplication::translate("ratelab::StatePanel", text);
}

// Setting an unchanged text still emits dataChanged and repaints; updates run at 10-20 Hz.
void setText(QTreeWidgetItem* item, int column, const QString& text) {
    if (item->text(column) != text)
        item->setText(column, text);
}

QString ttlText(qint64 ttlMs) {
    if (ttlMs == -1)
        return tr("no expiry");
    if (ttlMs < 0)
        return tr("gone");
    return tr("%1 s").arg(QLocale().toString(double(ttlMs) / 1000.0, 'f', 3));
}

// Zset scores are doubles but usually integral (timestamps, counts): print those exactly.
QString scoreText(double score) {
    if (std::isfinite(score) && score == std::floor(score) && std::fabs(score) < 9.0e15)
        return QString::number(qint64(score));
    return QString::number(score, 'g', QLocale::FloatingPointShortest);
}

QString displayName(const QTreeWidgetItem* top, int index) {
    const QString name = top->data(kKeyColumn, kNameRole).toString();
    return name.isEmpty() ? QStringLiteral("#%1").arg(index + 1) : name;
}

QTreeWidgetItem* ensureTopItem(QTreeWidget* tree, int index) {
    while (tree->topLevelItemCount() <= index) {
        auto* top = new QTreeWidgetItem(tree);
        top->setFirstColumnSpanned(true);  // "api — 5 keys" would not fit the Key column
        top->setExpanded(true);
    }
    return tree->topLevelItem(index);
}

// The error colour on a top item, or none (`color` null).
void setErrorLook(QTreeWidgetItem* top, const QColor* color) {
    const QVariant wanted = color ? QVariant(*color) : QVariant();
    if (top->data(kKeyColumn, Qt::ForegroundRole) != wanted)
        top->setData(kKeyColumn, Qt::ForegroundRole, wanted);
    if (top->data(kKeyColumn, kErrorRole).toBool() != bool(color))
        top->setData(kKeyColumn, kErrorRole, bool(color));
}

// Leaves of a key item (hash fields, zset members) are reused by position.
void updateLeaves(QTreeWidgetItem* parent, const QVector<QPair<QString, QString>>& leaves) {
    for (int i = 0; i < leaves.size(); ++i) {
        QTreeWidgetItem* leaf =
            i < parent->childCount() ? parent->child(i) : new QTreeWidgetItem(parent);
        setText(leaf, kKeyColumn, leaves[i].first);
        setText(leaf, kValueColumn, leaves[i].second);
    }
    while (parent->childCount() > leaves.size())
        delete parent->takeChild(parent->childCount() - 1);
}

void updateKeyItem(QTreeWidgetItem* item, const KeyState& key) {
    const QLocale locale;
    setText(item, kKeyColumn, key.key);
    if (item->toolTip(kKeyColumn) != key.key)
        item->setToolTip(kKeyColumn, key.key);  // the whole name where the column elides it
    setText(item, kTypeColumn, key.type);
    setText(item, kTtlColumn, ttlText(key.ttlMs));
    // Step's keys and a paused run's keep a day more (limiter.h, kClockStandstillMs).
    const QString ttlTip =
        key.ttlMs >= kClockStandstillMs
            ? tr("Over a day: a Step session's keys, and a paused run's, are kept a day longer "
                 "than the limiter needs, since its clock stands still while Redis's time goes "
                 "on. The limit never depends on a TTL.")
            : QString();
    if (item->toolTip(kTtlColumn) != ttlTip)
        item->setToolTip(kTtlColumn, ttlTip);
    setText(item, kSizeColumn, locale.toString(key.size));

    QString value;
    QVector<QPair<QString, QString>> leaves;
    if (key.type == QLatin1String("string")) {
        value = key.value;
    } else if (key.type == QLatin1String("hash")) {
        leaves = key.fields;
    } else if (key.type == QLatin1String("zset")) {
        leaves.reserve(key.members.size());
        for (const auto& member : key.members)
            leaves.append({member.first, scoreText(member.second)});
        if (key.members.size() < key.size) {
            value =
                tr("newest %1 of %2")
                    .arg(locale.toString(qint64(key.members.size())), locale.toString(key.size));
        }
    }
    setText(item, kValueColumn, value);
    const QString tooltip = value.size() >= kTooltipFrom ? value : QString();
    if (item->toolTip(kValueColumn) != tooltip)
        item->setToolTip(kValueColumn, tooltip);
    updateLeaves(item, leaves);
}

}  // namespace

StatePanel::StatePanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    tree_ = new QTreeWidget(this);
    QTreeWidget* tree = tree_;
    tree->setObjectName(QStringLiteral("stateTree"));
    tree->setColumnCount(kColumnCount);
    tree->setHeaderLabels({tr("Key"), tr("Type"), tr("TTL"), tr("Size"), tr("Value")});
    const QString tips[kColumnCount] = {
        tr("The Redis key, under the limiter's name (one hash tag per limiter)."),
        tr("Its Redis type: string (a counter or a value), hash (the limiter's settings), zset "
           "(grants scored by their time)."),
        tr("Time to live: when Redis deletes the key; it only collects old state, the limit "
           "never depends on it. A Step session's keys, and a paused run's, are kept a day "
           "longer: their clock stands still while Redis's time goes on."),
        tr("String: its length; hash: its fields; zset: its members (the grants it holds)."),
        tr("The value, or the newest fields and members (hover a cell for more)."),
    };
    for (int c = 0; c < kColumnCount; ++c)
        tree->headerItem()->setToolTip(c, tips[c]);
    tree->setUniformRowHeights(true);  // lets the view skip measuring thousands of rows
    tree->setAlternatingRowColors(true);
    tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    tree->setTextElideMode(Qt::ElideMiddle);  // key names differ at their ends
    const QFontMetrics metrics = tree->fontMetrics();
    tree->setColumnWidth(kKeyColumn, metrics.horizontalAdvance(QLatin1Char('x')) * 36);
    tree->setColumnWidth(kTypeColumn, metrics.horizontalAdvance(QStringLiteral("stringxx")) + 8);
    // Wide enough for "no expiry" and for the two days a stepped token bucket's keys may keep.
    tree->setColumnWidth(
        kTtlColumn,
        std::max(metrics.horizontalAdvance(tr("no expiry")),
                 metrics.horizontalAdvance(ttlText(2 * (kClockStandstillMs + kStateGraceMs)))) +
            metrics.horizontalAdvance(QStringLiteral("xx")) + 8);
    tree->setColumnWidth(kSizeColumn, metrics.horizontalAdvance(QStringLiteral("1,000,000x")) + 8);
    tree->header()->setStretchLastSection(true);
    layout->addWidget(tree);
}

void StatePanel::setLimiterNames(const QStringList& names) {
    QTreeWidget* tree = tree_;
    for (int i = 0; i < names.size(); ++i) {
        QTreeWidgetItem* top = ensureTopItem(tree, i);
        if (top->data(kKeyColumn, kNameRole).toString() == names[i])
            continue;
        // Another limiter now: its keys have nothing to do with the old ones.
        qDeleteAll(top->takeChildren());
        top->setData(kKeyColumn, kNameRole, names[i]);
        setText(top, kKeyColumn, displayName(top, i));
        setErrorLook(top, nullptr);
    }
    while (tree->topLevelItemCount() > names.size())
        delete tree->takeTopLevelItem(tree->topLevelItemCount() - 1);
}

void StatePanel::updateState(int index, const LimiterState& state) {
    if (index < 0)
        return;
    QTreeWidgetItem* top = ensureTopItem(tree_, index);
    const int total = std::max<int>(state.totalKeys, state.keys.size());
    QString title = QStringLiteral("%1 \u2014 %2 %3")
                        .arg(displayName(top, index), QLocale().toString(total),
                             total == 1 ? tr("key") : tr("keys"));
    if (state.keys.size() < total)
        title += tr(" (%1 shown)").arg(QLocale().toString(qint64(state.keys.size())));
    setText(top, kKeyColumn, title);
    setErrorLook(top, nullptr);

    // Items are reused by key name so that expansion, selection and scrolling survive; the
    // keys arrive sorted, so existing items normally stay where they are and only new keys are
    // inserted and vanished ones deleted.
    QSet<QString> wanted;
    wanted.reserve(state.keys.size());
    for (const KeyState& key : state.keys)
        wanted.insert(key.key);
    QHash<QString, QTreeWidgetItem*> existing;
    for (int i = top->childCount() - 1; i >= 0; --i) {
        const QString name = top->child(i)->data(kKeyColumn, kNameRole).toString();
        if (wanted.contains(name) && !existing.contains(name))
            existing.insert(name, top->child(i));
        else
            delete top->takeChild(i);
    }
    for (int i = 0; i < state.keys.size(); ++i) {
        const KeyState& key = state.keys[i];
        QTreeWidgetItem* item = existing.value(key.key);
        if (!item) {
            item = new QTreeWidgetItem(top, i > 0 ? top->child(i - 1) : nullptr);
            item->setData(kKeyColumn, kNameRole, key.key);
        } else if (top->child(i) != item) {
            // Only if the order changed: moving an item collapses it, so restore that.
            const bool expanded = item->isExpanded();
            top->insertChild(i, top->takeChild(top->indexOfChild(item)));
            item->setExpanded(expanded);
        }
        updateKeyItem(item, key);
    }
}

void StatePanel::showError(int index, const QString& message) {
    if (index < 0)
        return;
    // The last keys read stay (and keep their expansion) until Redis answers again.
    QTreeWidgetItem* top = ensureTopItem(tree_, index);
    setText(top, kKeyColumn, QStringLiteral("%1 \u2014 %2").arg(displayName(top, index), message));
    const QColor red = style::errorColor(palette());
    setErrorLook(top, &red);
}

QStringList StatePanel::rows(int index) const {
    QStringList result;
    const QTreeWidgetItem* top = tree_->topLevelItem(index);
    if (!top)
        return result;
    result.reserve(top->childCount());
    for (int i = 0; i < top->childCount(); ++i) {
        const QTreeWidgetItem* item = top->child(i);
        result.append(QStringList{item->text(kKeyColumn), item->text(kTypeColumn),
                                  item->text(kTtlColumn), item->text(kSizeColumn)}
                          .join(QLatin1Char('|')));
    }
    return result;
}

void StatePanel::changeEvent(QEvent* event) {
    // Error lines take the error colour of the new palette.
    if (event->type() == QEvent::PaletteChange && tree_) {
        const QColor red = style::errorColor(palette());
        for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
            QTreeWidgetItem* top = tree_->topLevelItem(i);
            if (top->data(kKeyColumn, kErrorRole).toBool())
                setErrorLook(top, &red);
        }
    }
    QWidget::changeEvent(event);
}

}  // namespace ratelab
