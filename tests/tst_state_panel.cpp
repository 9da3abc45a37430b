// The state panel fed with synthetic LimiterState values (no Redis): the state tree's rows, its
// in-place updates that keep expansion and scrolling, children, errors and header tooltips.

#include <QLocale>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>

#include "panels/state_panel.h"
#include "support/panel_inputs.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// "key|type|ttlMs|size"; hashes get one field and zsets one member, so that they can expand.
KeyState keyFrom(const QString& spec) {
    const QStringList parts = spec.split(QLatin1Char('|'));
    KeyState key;
    key.key = parts.value(0);
    key.type = parts.value(1);
    key.ttlMs = parts.value(2).toLongLong();
    key.size = parts.value(3).toLongLong();
    if (key.type == QLatin1String("hash"))
        key.fields = {{QStringLiteral("rate"), QStringLiteral("10")}};
    else if (key.type == QLatin1String("zset"))
        key.members = {{QStringLiteral("m"), 1.0}};
    else if (key.type == QLatin1String("string"))
        key.value = QStringLiteral("v");
    return key;
}

LimiterState stateFrom(const QStringList& specs) {
    LimiterState state;
    for (const QString& spec : specs)
        state.keys.append(keyFrom(spec));
    state.totalKeys = int(state.keys.size());
    return state;
}

QTreeWidgetItem* keyItem(QTreeWidget* tree, int top, const QString& key) {
    QTreeWidgetItem* parent = tree->topLevelItem(top);
    for (int i = 0; parent && i < parent->childCount(); ++i) {
        if (parent->child(i)->text(0) == key)
            return parent->child(i);
    }
    return nullptr;
}

}  // namespace

class TestStatePanel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void stateRows_data();
    void stateRows();
    void stateExpansionKept_data();
    void stateExpansionKept();
    void stateScrollKept();
    void stateUnchangedUpdateIsSilent();
    void stateChildrenAndError();
    void stateHeaderToolTips();
};

void TestStatePanel::initTestCase() {
    // Expected texts use English group separators whatever the machine's locale.
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void TestStatePanel::stateRows_data() {
    QTest::addColumn<QStringList>("first");
    QTest::addColumn<QStringList>("second");
    QTest::addColumn<QStringList>("expected");
    QTest::addColumn<QString>("title");

    const QStringList ttls = texts({"api|hash|-1|4", "{api}:big|string|86400000|1234567",
                                    "{api}:permits|zset|1234|3", "{api}:value|string|-2|2"});
    QTest::newRow("ttl texts") << QStringList() << ttls
                               << texts({"api|hash|no expiry|4",
                                         "{api}:big|string|86,400.000 s|1,234,567",
                                         "{api}:permits|zset|1.234 s|3",
                                         "{api}:value|string|gone|2"})
                               << QStringLiteral("api \u2014 4 keys");
    QTest::newRow("zero ttl") << QStringList() << texts({"k|string|0|1"})
                              << texts({"k|string|0.000 s|1"})
                              << QStringLiteral("api \u2014 1 key");
    QTest::newRow("keys added") << texts({"b|string|-1|1", "d|string|-1|1"})
                                << texts({"a|string|-1|1", "b|string|500|2", "c|hash|-1|1",
                                          "d|string|-1|1", "e|zset|-1|1"})
                                << texts({"a|string|no expiry|1", "b|string|0.500 s|2",
                                          "c|hash|no expiry|1", "d|string|no expiry|1",
                                          "e|zset|no expiry|1"})
                                << QStringLiteral("api \u2014 5 keys");
    QTest::newRow("keys removed") << texts({"a|string|-1|1", "b|string|-1|1", "c|string|-1|1",
                                            "d|string|-1|1"})
                                  << texts({"b|string|-1|1", "d|string|2000|1"})
                                  << texts({"b|string|no expiry|1", "d|string|2.000 s|1"})
                                  << QStringLiteral("api \u2014 2 keys");
    QTest::newRow("added and removed")
        << texts({"a|string|-1|1", "c|string|-1|1"})
        << texts({"b|string|-1|1", "c|string|-2|0", "d|string|-1|1"})
        << texts({"b|string|no expiry|1", "c|string|gone|0", "d|string|no expiry|1"})
        << QStringLiteral("api \u2014 3 keys");
    QTest::newRow("emptied") << texts({"a|string|-1|1"}) << QStringList() << QStringList()
                             << QStringLiteral("api \u2014 0 keys");
}

void TestStatePanel::stateRows() {
    QFETCH(QStringList, first);
    QFETCH(QStringList, second);
    QFETCH(QStringList, expected);
    QFETCH(QString, title);

    StatePanel panel;
    panel.setLimiterNames({QStringLiteral("api"), QStringLiteral("other")});
    panel.updateState(0, stateFrom(first));
    panel.updateState(1, stateFrom({QStringLiteral("x|string|-1|1")}));
    panel.updateState(0, stateFrom(second));
    QCOMPARE(panel.rows(0), expected);
    QCOMPARE(panel.rows(1), QStringList{QStringLiteral("x|string|no expiry|1")});
    QCOMPARE(panel.rows(2), QStringList());
    auto* tree = panel.findChild<QTreeWidget*>(QStringLiteral("stateTree"));
    QVERIFY(tree);
    QCOMPARE(tree->topLevelItemCount(), 2);
    QCOMPARE(tree->topLevelItem(0)->text(0), title);
    // The key column elides long names in the middle; the cell's tooltip holds the whole one.
    QTreeWidgetItem* other = tree->topLevelItem(1);
    QCOMPARE(other->child(0)->toolTip(0), QStringLiteral("x"));
}

void TestStatePanel::stateExpansionKept_data() {
    QTest::addColumn<QStringList>("first");
    QTest::addColumn<QStringList>("second");
    QTest::addColumn<QString>("expanded");

    QTest::newRow("unchanged") << texts({"a|hash|-1|1", "b|hash|-1|1"})
                               << texts({"a|hash|-1|1", "b|hash|-1|1"}) << "b";
    QTest::newRow("key added before")
        << texts({"b|hash|-1|1", "c|hash|-1|1"})
        << texts({"a|hash|-1|1", "b|hash|-1|1", "c|hash|-1|1"}) << "b";
    QTest::newRow("key removed before") << texts({"a|hash|-1|1", "b|zset|-1|1", "c|hash|-1|1"})
                                        << texts({"b|zset|500|1", "c|hash|-1|1"}) << "b";
    QTest::newRow("neighbours replaced")
        << texts({"a|hash|-1|1", "m|hash|-1|1", "z|hash|-1|1"})
        << texts({"b|hash|-1|1", "m|hash|100|1", "y|hash|-1|1"}) << "m";
    QTest::newRow("order changed") << texts({"a|hash|-1|1", "b|hash|-1|1", "c|hash|-1|1"})
                                   << texts({"c|hash|-1|1", "a|hash|-1|1", "b|hash|-1|1"}) << "c";
}

void TestStatePanel::stateExpansionKept() {
    QFETCH(QStringList, first);
    QFETCH(QStringList, second);
    QFETCH(QString, expanded);

    StatePanel panel;
    panel.setLimiterNames({QStringLiteral("api"), QStringLiteral("other")});
    panel.updateState(0, stateFrom(first));
    panel.updateState(1, stateFrom({QStringLiteral("x|hash|-1|1")}));
    auto* tree = panel.findChild<QTreeWidget*>(QStringLiteral("stateTree"));
    QTreeWidgetItem* item = keyItem(tree, 0, expanded);
    QVERIFY(item);
    item->setExpanded(true);
    tree->topLevelItem(1)->setExpanded(false);  // the user collapsed the other limiter

    panel.updateState(0, stateFrom(second));
    panel.updateState(1, stateFrom({QStringLiteral("x|hash|-1|1")}));
    QCOMPARE(keyItem(tree, 0, expanded), item);  // the same item, reused
    QVERIFY(item->isExpanded());
    QTreeWidgetItem* top = tree->topLevelItem(0);
    for (int i = 0; i < top->childCount(); ++i) {
        if (top->child(i) != item)
            QVERIFY2(!top->child(i)->isExpanded(), qPrintable(top->child(i)->text(0)));
    }
    QVERIFY(top->isExpanded());
    QVERIFY(!tree->topLevelItem(1)->isExpanded());
}

void TestStatePanel::stateScrollKept() {
    StatePanel panel;
    panel.resize(500, 200);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setLimiterNames({QStringLiteral("api")});
    QStringList keys;
    for (int i = 0; i < 300; ++i)
        keys.append(QStringLiteral("{api}:k%1|string|-1|1").arg(i, 3, 10, QLatin1Char('0')));
    panel.updateState(0, stateFrom(keys));
    QCoreApplication::processEvents();  // the view lays its items out later
    auto* tree = panel.findChild<QTreeWidget*>(QStringLiteral("stateTree"));
    QScrollBar* bar = tree->verticalScrollBar();
    QVERIFY(bar->maximum() > 100);
    bar->setValue(100);

    // New TTLs everywhere and the last keys gone: the view stays where it was.
    for (QString& key : keys)
        key.replace(QStringLiteral("|-1|"), QStringLiteral("|1500|"));
    keys = keys.mid(0, 280);
    panel.updateState(0, stateFrom(keys));
    QCoreApplication::processEvents();
    QCOMPARE(bar->value(), 100);
    QCOMPARE(panel.rows(0).size(), 280);
    QCOMPARE(panel.rows(0).value(5), QStringLiteral("{api}:k005|string|1.500 s|1"));
}

// A repeated listing (the panel refreshes at 2 Hz) updates items in place: an unchanged key keeps
// its item and changes nothing in the model, a changed one only its own cells.
void TestStatePanel::stateUnchangedUpdateIsSilent() {
    StatePanel panel;
    panel.setLimiterNames({QStringLiteral("api")});
    QStringList keys;
    for (int i = 0; i < 200; ++i)
        keys.append(QStringLiteral("{api}:k%1|zset|-1|3").arg(i, 3, 10, QLatin1Char('0')));
    LimiterState state = stateFrom(keys);
    for (KeyState& key : state.keys)
        key.members = {{QStringLiteral("a"), 1.0}, {QStringLiteral("b"), 2.0}};
    panel.updateState(0, state);
    auto* tree = panel.findChild<QTreeWidget*>(QStringLiteral("stateTree"));
    QTreeWidgetItem* first = keyItem(tree, 0, QStringLiteral("{api}:k000"));
    QVERIFY(first);
    QAbstractItemModel* model = tree->model();
    QSignalSpy changed(model, &QAbstractItemModel::dataChanged);
    QSignalSpy inserted(model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy reset(model, &QAbstractItemModel::modelReset);

    panel.updateState(0, state);
    QCOMPARE(changed.count(), 0);
    QCOMPARE(inserted.count(), 0);
    QCOMPARE(removed.count(), 0);
    QCOMPARE(reset.count(), 0);
    QCOMPARE(keyItem(tree, 0, QStringLiteral("{api}:k000")), first);

    // One key's TTL changes: one row's cell, the same item.
    state.keys[7].ttlMs = 1500;
    panel.updateState(0, state);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(inserted.count(), 0);
    QCOMPARE(removed.count(), 0);
    QCOMPARE(keyItem(tree, 0, QStringLiteral("{api}:k000")), first);
    QCOMPARE(panel.rows(0).value(7), QStringLiteral("{api}:k007|zset|1.500 s|3"));
}

void TestStatePanel::stateChildrenAndError() {
    StatePanel panel;
    panel.setLimiterNames({QStringLiteral("api")});
    LimiterState state;
    KeyState hash;
    hash.key = QStringLiteral("api");
    hash.type = QStringLiteral("hash");
    hash.size = 2;
    hash.fields = {{QStringLiteral("rate"), QStringLiteral("10")},
                   {QStringLiteral("interval"), QStringLiteral("1000")}};
    KeyState zset;
    zset.key = QStringLiteral("{api}:permits");
    zset.type = QStringLiteral("zset");
    zset.size = 5;
    zset.members = {{QStringLiteral("\\x10\\xab 1"), 1700000000123.0},
                    {QStringLiteral("second"), 0.5}};
    KeyState text;
    text.key = QStringLiteral("{api}:value");
    text.type = QStringLiteral("string");
    text.size = 1;
    text.value = QStringLiteral("7");
    state.keys = {hash, zset, text};
    state.totalKeys = 250;  // more than were read
    panel.updateState(0, state);

    auto* tree = panel.findChild<QTreeWidget*>(QStringLiteral("stateTree"));
    QTreeWidgetItem* top = tree->topLevelItem(0);
    QCOMPARE(top->text(0), QStringLiteral("api \u2014 250 keys (3 shown)"));
    QTreeWidgetItem* h = keyItem(tree, 0, QStringLiteral("api"));
    QCOMPARE(h->childCount(), 2);
    QCOMPARE(h->child(1)->text(0), QStringLiteral("interval"));
    QCOMPARE(h->child(1)->text(4), QStringLiteral("1000"));
    QTreeWidgetItem* z = keyItem(tree, 0, QStringLiteral("{api}:permits"));
    QCOMPARE(z->childCount(), 2);
    QCOMPARE(z->child(0)->text(0), QStringLiteral("\\x10\\xab 1"));
    QCOMPARE(z->child(0)->text(4), QStringLiteral("1700000000123"));
    QCOMPARE(z->child(1)->text(4), QStringLiteral("0.5"));
    QCOMPARE(z->text(4), QStringLiteral("newest 2 of 5"));
    QCOMPARE(keyItem(tree, 0, QStringLiteral("{api}:value"))->text(4), QStringLiteral("7"));

    // Fewer fields later: the extra child goes.
    state.keys[0].fields.removeLast();
    panel.updateState(0, state);
    QCOMPARE(h->childCount(), 1);

    panel.showError(0, QStringLiteral("Redis unreachable"));
    QCOMPARE(top->text(0), QStringLiteral("api \u2014 Redis unreachable"));
    const QColor red = top->foreground(0).color();
    QVERIFY(red.red() > 150 && red.green() < 120 && red.blue() < 120);
    QCOMPARE(panel.rows(0).size(), 3);  // the last keys read stay
    panel.updateState(0, state);
    QVERIFY(!top->data(0, Qt::ForegroundRole).isValid());
}

void TestStatePanel::stateHeaderToolTips() {
    StatePanel panel;
    auto* tree = panel.findChild<QTreeWidget*>(QStringLiteral("stateTree"));
    QVERIFY(tree);
    for (int c = 0; c < tree->columnCount(); ++c)
        QVERIFY2(tree->headerItem()->toolTip(c).size() > 20,
                 qPrintable(tree->headerItem()->text(c)));
    QVERIFY(tree->headerItem()->toolTip(2).contains(QStringLiteral("never depends")));
}

QTEST_MAIN(TestStatePanel)
#include "tst_state_panel.moc"
