// The live panels fed with synthetic LimiterState and RunSnapshot values (no Redis): the state
// tree's rows and in-place updates, the accounting line, the comparison and client tables and
// the latency chart's title and bars.

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QTreeWidget>
#include <QValueAxis>
#include <cmath>

#include "panels/client_table.h"
#include "panels/comparison_table.h"
#include "panels/latency_chart.h"
#include "panels/state_panel.h"
#include "panels/table_cells.h"

using namespace ratelab;

namespace {

// QT_NO_CAST_FROM_ASCII: the data tables' string lists, from UTF-8 literals.
QStringList texts(std::initializer_list<const char*> items) {
    QStringList list;
    for (const char* item : items)
        list.append(QString::fromUtf8(item));
    return list;
}

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

LimiterSnapshot limiterSnapshot(const QString& name, qint64 fired, qint64 accepted, qint64 rejected,
                                qint64 errors) {
    LimiterSnapshot s;
    s.spec.name = name;
    s.fired = fired;
    s.accepted = accepted;
    s.rejected = rejected;
    s.errors = errors;
    return s;
}

// "name|fired|accepted|rejected|errors|waitedMs"
ClientTotals clientFrom(const QString& spec) {
    const QStringList parts = spec.split(QLatin1Char('|'));
    ClientTotals c;
    c.client = parts.value(0);
    c.fired = parts.value(1).toLongLong();
    c.accepted = parts.value(2).toLongLong();
    c.rejected = parts.value(3).toLongLong();
    c.errors = parts.value(4).toLongLong();
    c.waitedMsTotal = parts.value(5).toLongLong();
    return c;
}

RunSnapshot runWithClients(const QStringList& specs) {
    RunSnapshot run;
    run.limiters.append(limiterSnapshot(QStringLiteral("api"), 0, 0, 0, 0));
    for (const QString& spec : specs)
        run.limiters[0].clients.append(clientFrom(spec));
    return run;
}

QStringList tableRows(const ClientTable& table) {
    QStringList rows;
    for (int r = 0; r < table.rowCount(); ++r)
        rows.append(table.row(r).join(QLatin1Char('|')));
    return rows;
}

LatencyHistogram::Snapshot histogramOf(const QString& kind) {
    LatencyHistogram histogram;
    if (kind == QLatin1String("single")) {
        for (int i = 0; i < 10; ++i)
            histogram.record(2500);
    } else if (kind == QLatin1String("exact")) {  // below 128 us every value has its bucket
        for (int v = 1; v <= 100; ++v)
            histogram.record(v);
    } else if (kind == QLatin1String("zeros")) {
        for (int i = 0; i < 5; ++i)
            histogram.record(0);
        histogram.record(700);
    } else if (kind == QLatin1String("wide")) {  // log-uniform from 10 us to 10 s
        for (int i = 0; i < 20000; ++i)
            histogram.record(std::int64_t(10 * std::pow(1e6, double(i) / 19999)));
    } else if (kind == QLatin1String("bimodal")) {
        for (int i = 0; i < 9000; ++i)
            histogram.record(300 + i % 50);
        for (int i = 0; i < 1000; ++i)
            histogram.record(2'000'000 + 997 * i);
    } else if (kind == QLatin1String("clamped")) {
        histogram.record(50);
        histogram.record(LatencyHistogram::kMaxValue * 2);
    }
    return histogram.snapshot();
}

QBarSet* barSetOf(const LatencyChart& chart) {
    auto* view = chart.findChild<QChartView*>();
    auto* series = qobject_cast<QBarSeries*>(view->chart()->series().value(0));
    return series ? series->barSets().value(0) : nullptr;
}

}  // namespace

class TestPanels : public QObject {
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

    void accounting_data();
    void accounting();
    void accountingShowsPolicy_data();
    void accountingShowsPolicy();
    void accountingStaysRedForTheRun();
    void comparisonRow_data();
    void comparisonRow();

    void clientRows_data();
    void clientRows();
    void clientSortKept();
    void clientCap();
    void clientLimiterSwitch();

    void latencyChart_data();
    void latencyChart();
    void latencyChartSwitchAndEmpty();

    void headerToolTips_data();
    void headerToolTips();
    void stateHeaderToolTips();
    void tablesFitTheWidth_data();
    void tablesFitTheWidth();
    void latencyLabelsDoNotOverlap_data();
    void latencyLabelsDoNotOverlap();
    void latencyTitleSaysWhatItCounts_data();
    void latencyTitleSaysWhatItCounts();
};

void TestPanels::initTestCase() {
    // Expected texts use English group separators whatever the machine's locale.
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void TestPanels::stateRows_data() {
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

void TestPanels::stateRows() {
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

void TestPanels::stateExpansionKept_data() {
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

void TestPanels::stateExpansionKept() {
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

void TestPanels::stateScrollKept() {
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
void TestPanels::stateUnchangedUpdateIsSilent() {
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

void TestPanels::stateChildrenAndError() {
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

void TestPanels::accounting_data() {
    QTest::addColumn<qint64>("fired");
    QTest::addColumn<qint64>("accepted");
    QTest::addColumn<qint64>("rejected");
    QTest::addColumn<qint64>("errors");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<bool>("broken");

    QTest::newRow("nothing yet") << 0LL << 0LL << 0LL << 0LL
                                 << "api: fired 0 = accepted 0 + rejected 0 + errors 0" << false;
    QTest::newRow("exact") << 1234567LL << 1000000LL << 234000LL << 567LL
                           << "api: fired 1,234,567 = accepted 1,000,000 + rejected 234,000 + "
                              "errors 567"
                           << false;
    QTest::newRow("fired too many")
        << 11LL << 5LL << 5LL << 0LL << "api: fired 11 \u2260 accepted 5 + rejected 5 + errors 0"
        << true;
    QTest::newRow("outcomes too many")
        << 1000LL << 999LL << 0LL << 2LL
        << "api: fired 1,000 \u2260 accepted 999 + rejected 0 + errors 2" << true;
}

void TestPanels::accounting() {
    QFETCH(qint64, fired);
    QFETCH(qint64, accepted);
    QFETCH(qint64, rejected);
    QFETCH(qint64, errors);
    QFETCH(QString, expected);
    QFETCH(bool, broken);

    ComparisonTable table;
    RunSnapshot run;
    run.limiters.append(limiterSnapshot(QStringLiteral("api"), fired, accepted, rejected, errors));
    run.limiters.append(limiterSnapshot(QStringLiteral("login"), 3, 1, 2, 0));
    table.updateFrom(run);
    QCOMPARE(table.accountingText(),
             expected + QStringLiteral("\nlogin: fired 3 = accepted 1 + rejected 2 + errors 0"));
    auto* label = table.findChild<QLabel*>(QStringLiteral("accounting"));
    QVERIFY(label);
    const QStringList lines = label->text().split(QStringLiteral("<br>"));
    QCOMPARE(lines.size(), 2);
    QCOMPARE(lines[0].contains(QStringLiteral("color:")), broken);
    QVERIFY(!lines[1].contains(QStringLiteral("color:")));
}

// The failure policy's part of the errors follows the identity, which it does not change.
void TestPanels::accountingShowsPolicy_data() {
    QTest::addColumn<int>("policy");
    QTest::addColumn<qint64>("errorsOpen");
    QTest::addColumn<qint64>("errorsClosed");
    QTest::addColumn<QString>("expected");

    QTest::newRow("error policy") << int(FailurePolicy::Error) << 0LL << 0LL
                                  << "api: fired 1,000 = accepted 600 + rejected 300 + errors 100";
    QTest::newRow("open, nothing failed yet")
        << int(FailurePolicy::Open) << 0LL << 0LL
        << "api: fired 1,000 = accepted 600 + rejected 300 + errors 100";
    QTest::newRow("open") << int(FailurePolicy::Open) << 100LL << 0LL
                          << "api: fired 1,000 = accepted 600 + rejected 300 + errors 100 "
                             "(errors 100 let through by on_error open)";
    QTest::newRow("closed") << int(FailurePolicy::Closed) << 0LL << 100LL
                            << "api: fired 1,000 = accepted 600 + rejected 300 + errors 100 "
                               "(errors 100 refused by on_error closed)";
    QTest::newRow("changed from open to closed")
        << int(FailurePolicy::Closed) << 60LL << 40LL
        << "api: fired 1,000 = accepted 600 + rejected 300 + errors 100 "
           "(errors 60 let through, 40 refused by on_error closed)";
}

void TestPanels::accountingShowsPolicy() {
    QFETCH(int, policy);
    QFETCH(qint64, errorsOpen);
    QFETCH(qint64, errorsClosed);
    QFETCH(QString, expected);

    ComparisonTable table;
    RunSnapshot run;
    run.limiters.append(limiterSnapshot(QStringLiteral("api"), 1000, 600, 300, 100));
    run.limiters[0].spec.onError = FailurePolicy(policy);
    run.limiters[0].errorsOpen = errorsOpen;
    run.limiters[0].errorsClosed = errorsClosed;
    table.updateFrom(run);
    QCOMPARE(table.accountingText(), expected);
    auto* label = table.findChild<QLabel*>(QStringLiteral("accounting"));
    QVERIFY(!label->text().contains(QStringLiteral("color:")));
}

void TestPanels::accountingStaysRedForTheRun() {
    ComparisonTable table;
    RunSnapshot run;
    run.scenarioName = QStringLiteral("s");
    run.startEpochMs = 1000;
    run.limiters.append(limiterSnapshot(QStringLiteral("api"), 4, 1, 2, 0));
    table.updateFrom(run);
    run.limiters[0] = limiterSnapshot(QStringLiteral("api"), 5, 2, 3, 0);
    table.updateFrom(run);
    auto* label = table.findChild<QLabel*>(QStringLiteral("accounting"));
    QCOMPARE(table.accountingText(),
             QStringLiteral("api: fired 5 = accepted 2 + rejected 3 + errors 0 (did not hold "
                            "earlier in this run)"));
    QVERIFY(label->text().contains(QStringLiteral("color:")));

    run.startEpochMs = 2000;  // a new run starts clean
    table.updateFrom(run);
    QCOMPARE(table.accountingText(),
             QStringLiteral("api: fired 5 = accepted 2 + rejected 3 + errors 0"));
    QVERIFY(!label->text().contains(QStringLiteral("color:")));
}

void TestPanels::comparisonRow_data() {
    QTest::addColumn<int>("type");
    QTest::addColumn<bool>("perClient");
    // fired, accepted, rejected, errors, errors let through (open), refused (closed)
    QTest::addColumn<QVector<qint64>>("counts");
    QTest::addColumn<QVector<qint64>>("latenciesUs");
    QTest::addColumn<double>("fairness");
    QTest::addColumn<QStringList>("expected");

    QVector<qint64> oneToHundred;
    for (qint64 v = 1; v <= 100; ++v)
        oneToHundred.append(v);
    QTest::newRow("token bucket") << int(LimiterType::TokenBucket) << false
                                  << QVector<qint64>{1000, 600, 390, 10, 0, 0} << oneToHundred
                                  << 1.0
                                  << texts({"api", "token_bucket", "1,000", "600", "390", "10", "0",
                                            "0", "60.0", "0.050", "0.099", "1.000"});
    QTest::newRow("failing open") << int(LimiterType::TokenBucket) << false
                                  << QVector<qint64>{1000, 600, 390, 10, 10, 0} << oneToHundred
                                  << 1.0
                                  << texts({"api", "token_bucket", "1,000", "600", "390", "10",
                                            "10", "0", "60.0", "0.050", "0.099", "1.000"});
    QTest::newRow("failing closed, policy changed mid-run")
        << int(LimiterType::SlidingWindow) << false
        << QVector<qint64>{5000, 2000, 1000, 2000, 300, 1200} << oneToHundred << 1.0
        << texts({"api", "sliding_window", "5,000", "2,000", "1,000", "2,000", "300", "1,200",
                  "40.0", "0.050", "0.099", "1.000"});
    QTest::newRow("fixed window per client")
        << int(LimiterType::FixedWindow) << true << QVector<qint64>{3, 1, 2, 0, 0, 0}
        << QVector<qint64>{0, 20, 127} << 0.5
        << texts({"api", "fixed_window (per_client)", "3", "1", "2", "0", "0", "0", "33.3", "0.020",
                  "0.127", "0.500"});
    // Issue 11: a virtual clock showed 0.000 without saying why.
    QTest::newRow("virtual clock")
        << int(LimiterType::TokenBucket) << false << QVector<qint64>{4, 4, 0, 0, 0, 0}
        << QVector<qint64>{0, 0, 0, 0} << 1.0
        << texts({"api", "token_bucket", "4", "4", "0", "0", "0", "0", "100.0", "0 (virtual)",
                  "0 (virtual)", "1.000"});
    QTest::newRow("nothing yet") << int(LimiterType::SlidingWindow) << false
                                 << QVector<qint64>{0, 0, 0, 0, 0, 0} << QVector<qint64>() << 1.0
                                 << texts({"api", "sliding_window", "0", "0", "0", "0", "0", "0",
                                           "\u2014", "\u2014", "\u2014", "1.000"});
    // A percentile is the top of its bucket (at most the max): p50 is 2^20 + 2^14 - 1 us, p99
    // the max, 2^24 us.
    QTest::newRow("slow") << int(LimiterType::TokenBucket) << false
                          << QVector<qint64>{2000000, 2000000, 0, 0, 0, 0}
                          << QVector<qint64>{1048576, 16777216} << 0.87654
                          << texts({"api", "token_bucket", "2,000,000", "2,000,000", "0", "0", "0",
                                    "0", "100.0", "1,065", "16,777", "0.877"});
}

void TestPanels::comparisonRow() {
    QFETCH(int, type);
    QFETCH(bool, perClient);
    QFETCH(QVector<qint64>, counts);
    QFETCH(QVector<qint64>, latenciesUs);
    QFETCH(double, fairness);
    QFETCH(QStringList, expected);

    LimiterSnapshot s =
        limiterSnapshot(QStringLiteral("api"), counts[0], counts[1], counts[2], counts[3]);
    s.errorsOpen = counts[4];
    s.errorsClosed = counts[5];
    s.spec.type = LimiterType(type);
    s.spec.scope = perClient ? Scope::PerClient : Scope::Global;
    LatencyHistogram histogram;
    for (qint64 v : latenciesUs)
        histogram.record(v);
    s.latency = histogram.snapshot();
    s.fairness = fairness;
    RunSnapshot run;
    run.limiters = {limiterSnapshot(QStringLiteral("first"), 0, 0, 0, 0), s};

    ComparisonTable table;
    table.updateFrom(run);
    table.updateFrom(run);  // a second, unchanged update changes nothing
    QCOMPARE(table.row(1), expected);
    QCOMPARE(table.row(2), QStringList());
    auto* widget = table.findChild<QTableWidget*>(QStringLiteral("comparison"));
    QVERIFY(widget);
    QCOMPARE(widget->rowCount(), 2);
    QCOMPARE(widget->columnCount(), 12);
    QCOMPARE(widget->horizontalHeaderItem(6)->text(), QStringLiteral("Let through"));
    QCOMPARE(widget->horizontalHeaderItem(7)->text(), QStringLiteral("Refused"));
    QCOMPARE(widget->horizontalHeaderItem(11)->text(), QStringLiteral("Fairness"));
}

void TestPanels::clientRows_data() {
    QTest::addColumn<QStringList>("clients");
    QTest::addColumn<QStringList>("expected");  // sorted by client, the default

    QTest::newRow("none") << QStringList() << QStringList();
    QTest::newRow("two") << texts({"bob|10|3|7|0|1500", "alice|1500|1000|499|1|0"})
                         << texts({"alice|1,500|1,000|499|1|0|0.0", "bob|10|3|7|0|1,500|500.0"});
    QTest::newRow("never accepted") << texts({"c|4|0|4|0|0"}) << texts({"c|4|0|4|0|0|\u2014"});
    QTest::newRow("mean rounds") << texts({"d|3|3|0|0|10"}) << texts({"d|3|3|0|0|10|3.3"});
}

void TestPanels::clientRows() {
    QFETCH(QStringList, clients);
    QFETCH(QStringList, expected);

    ClientTable table;
    // A first update with other clients: rows are reused, added and removed by name.
    table.updateFrom(
        runWithClients({QStringLiteral("bob|1|1|0|0|0"), QStringLiteral("zed|1|1|0|0|0")}));
    QCOMPARE(table.rowCount(), 2);
    table.updateFrom(runWithClients(clients));
    QCOMPARE(table.rowCount(), expected.size());
    QCOMPARE(tableRows(table), expected);
}

void TestPanels::clientSortKept() {
    ClientTable table;
    auto* widget = table.findChild<QTableWidget*>(QStringLiteral("clients"));
    QVERIFY(widget);
    table.updateFrom(
        runWithClients({QStringLiteral("a|999|1|0|0|0"), QStringLiteral("b|1000|1|0|0|0"),
                        QStringLiteral("c|5|1|0|0|0")}));
    widget->sortByColumn(1, Qt::DescendingOrder);          // as a click on "Fired" would
    QCOMPARE(table.row(0).value(0), QStringLiteral("b"));  // by number, not text
    QCOMPARE(table.row(2).value(0), QStringLiteral("c"));

    table.updateFrom(
        runWithClients({QStringLiteral("a|999|1|0|0|0"), QStringLiteral("b|1000|1|0|0|0"),
                        QStringLiteral("c|20000|1|0|0|0"), QStringLiteral("d|7|1|0|0|0")}));
    QCOMPARE(widget->horizontalHeader()->sortIndicatorSection(), 1);
    QCOMPARE(widget->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
    QCOMPARE(tableRows(table), (texts({"c|20,000|1|0|0|0|0.0", "b|1,000|1|0|0|0|0.0",
                                       "a|999|1|0|0|0|0.0", "d|7|1|0|0|0|0.0"})));
    QVERIFY(widget->isSortingEnabled());
}

void TestPanels::clientCap() {
    ClientTable table;
    QStringList many;
    for (int i = 0; i < 1500; ++i)
        many.append(QStringLiteral("client%1|%2|1|0|0|0").arg(i).arg(i + 1));
    table.updateFrom(runWithClients(many));
    QCOMPARE(table.rowCount(), 1000);
    auto* note = table.findChild<QLabel*>(QStringLiteral("note"));
    QVERIFY(note);
    QVERIFY(!note->isHidden());
    QVERIFY(note->text().startsWith(QStringLiteral("1,000 of 1,500 clients shown")));
    // The clients that fired most are the ones shown.
    qint64 smallest = std::numeric_limits<qint64>::max();
    for (int r = 0; r < table.rowCount(); ++r)
        smallest = std::min(smallest, QLocale().toLongLong(table.row(r).value(1)));
    QCOMPARE(smallest, 501);

    table.updateFrom(runWithClients(many.mid(0, 10)));
    QCOMPARE(table.rowCount(), 10);
    QVERIFY(note->isHidden());
}

void TestPanels::clientLimiterSwitch() {
    ClientTable table;
    RunSnapshot run = runWithClients({QStringLiteral("a|1|1|0|0|0")});
    run.limiters.append(limiterSnapshot(QStringLiteral("login"), 0, 0, 0, 0));
    run.limiters[1].clients = {clientFrom(QStringLiteral("x|2|0|2|0|0")),
                               clientFrom(QStringLiteral("y|3|0|3|0|0"))};
    table.updateFrom(run);
    auto* combo = table.findChild<QComboBox*>(QStringLiteral("limiter"));
    QVERIFY(combo);
    QCOMPARE(combo->count(), 2);
    QCOMPARE(tableRows(table), texts({"a|1|1|0|0|0|0.0"}));
    combo->setCurrentIndex(1);
    QCOMPARE(tableRows(table), (texts({"x|2|0|2|0|0|\u2014", "y|3|0|3|0|0|\u2014"})));
    table.updateFrom(run);  // the selection stays
    QCOMPARE(combo->currentIndex(), 1);
    QCOMPARE(table.rowCount(), 2);
}

void TestPanels::latencyChart_data() {
    QTest::addColumn<QString>("kind");
    QTest::newRow("single value") << "single";
    QTest::newRow("exact small values") << "exact";
    QTest::newRow("zeros") << "zeros";
    QTest::newRow("log-uniform 10 us to 10 s") << "wide";
    QTest::newRow("bimodal") << "bimodal";
    QTest::newRow("clamped") << "clamped";
}

void TestPanels::latencyChart() {
    QFETCH(QString, kind);
    const LatencyHistogram::Snapshot latency = histogramOf(kind);
    RunSnapshot run;
    run.limiters.append(limiterSnapshot(QStringLiteral("api"), 0, 0, 0, 0));
    run.limiters[0].latency = latency;

    LatencyChart chart;
    chart.updateFrom(run);
    chart.updateFrom(run);

    // Each number in the title is the percentile to within half its last printed digit.
    const QRegularExpression pattern(
        QStringLiteral("^p50 ([\\d.,]+) \u00b7 p90 ([\\d.,]+) \u00b7 p99 ([\\d.,]+) ms<br>"
                       "p99.9 ([\\d.,]+) \u00b7 max ([\\d.,]+) ms$"));
    const QRegularExpressionMatch match = pattern.match(chart.titleText());
    QVERIFY2(match.hasMatch(), qPrintable(chart.titleText()));
    const double percents[] = {50, 90, 99, 99.9, 100};
    for (int i = 0; i < 5; ++i) {
        const QString text = match.captured(i + 1);
        bool ok = false;
        const double shownMs = QLocale().toDouble(text, &ok);
        QVERIFY2(ok, qPrintable(text));
        const int dot = int(text.indexOf(QLatin1Char('.')));
        const int decimals = dot < 0 ? 0 : int(text.size()) - dot - 1;
        const double expectedMs = double(latency.percentile(percents[i])) / 1000.0;
        QVERIFY2(std::fabs(shownMs - expectedMs) <= 0.5 * std::pow(10.0, -decimals) + 1e-9,
                 qPrintable(QStringLiteral("%1: %2 vs %3").arg(i).arg(text).arg(expectedMs)));
    }
    QCOMPARE(latency.percentile(100), latency.max);

    QBarSet* set = barSetOf(chart);
    QVERIFY(set);
    QCOMPARE(chart.barCount(), int(set->count()));
    QVERIFY(chart.barCount() >= 1);
    QVERIFY(chart.barCount() <= 40);
    double sum = 0;
    for (int i = 0; i < set->count(); ++i)
        sum += set->at(i);
    QCOMPARE(sum, double(latency.total));
    QVERIFY(set->at(0) > 0);
    QVERIFY(set->at(int(set->count()) - 1) > 0);
}

void TestPanels::latencyChartSwitchAndEmpty() {
    LatencyChart chart;
    QCOMPARE(chart.titleText(), QStringLiteral("No latencies yet"));
    QCOMPARE(chart.barCount(), 0);

    RunSnapshot run;
    run.limiters.append(limiterSnapshot(QStringLiteral("api"), 0, 0, 0, 0));
    run.limiters.append(limiterSnapshot(QStringLiteral("login"), 0, 0, 0, 0));
    run.limiters[1].latency = histogramOf(QStringLiteral("single"));
    chart.updateFrom(run);
    QCOMPARE(chart.titleText(), QStringLiteral("No latencies yet"));
    auto* combo = chart.findChild<QComboBox*>(QStringLiteral("limiter"));
    QVERIFY(combo);
    combo->setCurrentIndex(1);
    // 2500 us sits in the bucket [2496, 2527]; percentiles report its top capped at the max.
    QCOMPARE(chart.titleText(),
             QStringLiteral("p50 2.500 \u00b7 p90 2.500 \u00b7 p99 2.500 ms<br>p99.9 "
                            "2.500 \u00b7 max 2.500 ms"));
    QCOMPARE(chart.barCount(), 1);

    run.limiters[1].latency = histogramOf(QStringLiteral("wide"));
    chart.updateFrom(run);
    QVERIFY(chart.barCount() > 20);
    QVERIFY(chart.barCount() <= 40);
    run.limiters[1].latency = histogramOf(QString());  // emptied
    chart.updateFrom(run);
    QCOMPARE(chart.barCount(), 0);
    QCOMPARE(chart.titleText(), QStringLiteral("No latencies yet"));
}

void TestPanels::headerToolTips_data() {
    QTest::addColumn<bool>("comparison");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("mentions");  // what the tooltip must say
    QTest::newRow("let through") << true << 6 << QStringLiteral("on_error \"open\"");
    QTest::newRow("refused") << true << 7 << QStringLiteral("on_error \"closed\"");
    QTest::newRow("p50") << true << 9 << QStringLiteral("Median");
    QTest::newRow("p99") << true << 10 << QStringLiteral("99th percentile");
    QTest::newRow("fairness") << true << 11 << QStringLiteral("Jain");
    QTest::newRow("fired") << true << 2 << QStringLiteral("Accepted + Rejected + Errors");
    QTest::newRow("waited ms") << false << 5 << QStringLiteral("first try to the grant");
    QTest::newRow("mean wait") << false << 6 << QStringLiteral("Waited ms / Accepted");
}

// Issue 11: Fairness, Let through, Refused, Waited ms were explained nowhere. Every header
// has a tooltip naming the column and saying what it counts.
void TestPanels::headerToolTips() {
    QFETCH(bool, comparison);
    QFETCH(int, column);
    QFETCH(QString, mentions);
    ComparisonTable compare;
    ClientTable clients;
    QWidget& owner = comparison ? static_cast<QWidget&>(compare) : clients;
    auto* table = owner.findChild<QTableWidget*>(comparison ? QStringLiteral("comparison")
                                                            : QStringLiteral("clients"));
    QVERIFY(table);
    for (int c = 0; c < table->columnCount(); ++c) {
        const QTableWidgetItem* header = table->horizontalHeaderItem(c);
        QVERIFY2(header->toolTip().contains(header->text()), qPrintable(header->text()));
        QVERIFY2(header->toolTip().size() > header->text().size() + 20,
                 qPrintable(header->toolTip()));
    }
    const QString tip = table->horizontalHeaderItem(column)->toolTip();
    QVERIFY2(tip.contains(mentions.toHtmlEscaped()) || tip.contains(mentions), qPrintable(tip));
}

void TestPanels::stateHeaderToolTips() {
    StatePanel panel;
    auto* tree = panel.findChild<QTreeWidget*>(QStringLiteral("stateTree"));
    QVERIFY(tree);
    for (int c = 0; c < tree->columnCount(); ++c)
        QVERIFY2(tree->headerItem()->toolTip(c).size() > 20,
                 qPrintable(tree->headerItem()->text(c)));
    QVERIFY(tree->headerItem()->toolTip(2).contains(QStringLiteral("never depends")));
}

void TestPanels::tablesFitTheWidth_data() {
    QTest::addColumn<bool>("comparison");
    QTest::addColumn<int>("width");
    QTest::newRow("comparison at 1024") << true << 1024;
    QTest::newRow("comparison at 800") << true << 800;
    // A 1024 px window less the scenario dock.
    QTest::newRow("comparison at 660") << true << 660;
    QTest::newRow("clients at 660") << false << 660;
    QTest::newRow("clients at 1024") << false << 1024;
}

// Issue 11: at 1024 x 700 the comparison table scrolled sideways. The columns share the width;
// a text too long for its column is elided and whole in the cell's tooltip.
void TestPanels::tablesFitTheWidth() {
    QFETCH(bool, comparison);
    QFETCH(int, width);
    const QString longName =
        QStringLiteral("checkout-api-with-a-rather-long-limiter-name-for-the-eu-region");
    RunSnapshot run;
    run.limiters.append(limiterSnapshot(longName, 123456789, 100000000, 23456000, 789));
    run.limiters[0].spec.type = LimiterType::FixedWindow;
    run.limiters[0].spec.scope = Scope::PerClient;
    run.limiters[0].errorsOpen = 789;
    run.limiters[0].clients.append(clientFrom(longName + QStringLiteral("|123456789|100000000|"
                                                                        "23456000|789|987654321")));
    LatencyHistogram histogram;
    histogram.record(1'234'567);
    run.limiters[0].latency = histogram.snapshot();

    ComparisonTable compare;
    ClientTable clients;
    QWidget& widget = comparison ? static_cast<QWidget&>(compare) : clients;
    widget.resize(width, 300);
    widget.show();
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
    compare.updateFrom(run);
    clients.updateFrom(run);
    QCoreApplication::processEvents();
    auto* table = widget.findChild<QTableWidget*>(comparison ? QStringLiteral("comparison")
                                                             : QStringLiteral("clients"));
    QVERIFY(table);
    int total = 0;
    for (int c = 0; c < table->columnCount(); ++c)
        total += table->horizontalHeader()->sectionSize(c);
    QVERIFY2(total <= table->viewport()->width(),
             qPrintable(QStringLiteral("%1 > %2").arg(total).arg(table->viewport()->width())));
    QVERIFY(!table->horizontalScrollBar()->isVisible());
    QCOMPARE(table->item(0, 0)->toolTip(), longName);
}

void TestPanels::latencyLabelsDoNotOverlap_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("width");
    QTest::newRow("wide at 1024") << "wide" << 1024;
    QTest::newRow("wide at 600") << "wide" << 600;
    QTest::newRow("bimodal at 700") << "bimodal" << 700;
}

// Issue 11: the histogram's labels overlapped at 1024 x 700. They are horizontal and thinned
// out so that each shown label fits in the space up to the next one.
void TestPanels::latencyLabelsDoNotOverlap() {
    QFETCH(QString, kind);
    QFETCH(int, width);
    RunSnapshot run;
    run.limiters.append(limiterSnapshot(QStringLiteral("api"), 0, 0, 0, 0));
    run.limiters[0].latency = histogramOf(kind);
    LatencyChart chart;
    chart.resize(width, 450);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.updateFrom(run);
    QCoreApplication::processEvents();
    chart.updateFrom(run);

    auto* axis =
        qobject_cast<QBarCategoryAxis*>(chart.chartView()->chart()->axes(Qt::Horizontal).value(0));
    QVERIFY(axis);
    QCOMPARE(axis->labelsAngle(), 0);
    const QStringList labels = chart.axisLabels();
    QCOMPARE(labels.size(), chart.barCount());
    const double pitch = chart.chartView()->chart()->plotArea().width() / double(labels.size());
    const QFontMetrics metrics(axis->labelsFont());
    int previous = -1;
    int shown = 0;
    for (int i = 0; i < labels.size(); ++i) {
        if (labels[i].trimmed().remove(QChar(0x200B)).isEmpty())
            continue;
        ++shown;
        if (previous >= 0) {
            // Centred under their bars: half of each label on either side of its centre.
            const double room = pitch * (i - previous);
            const double needed = (metrics.horizontalAdvance(labels[previous]) +
                                   metrics.horizontalAdvance(labels[i])) /
                                  2.0;
            QVERIFY2(room >= needed, qPrintable(QStringLiteral("%1 and %2: %3 px for %4")
                                                    .arg(labels[previous], labels[i])
                                                    .arg(room)
                                                    .arg(needed)));
        }
        previous = i;
    }
    QVERIFY(shown >= 2);
    // Each bar tells its range and count.
    QVERIFY2(chart.barToolTip(0).contains(QStringLiteral("script calls")),
             qPrintable(chart.barToolTip(0)));
}

void TestPanels::latencyTitleSaysWhatItCounts_data() {
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("virtual clock") << "virtual" << QStringLiteral("virtual clock");
    QTest::newRow("wait mode") << "wait" << QStringLiteral("waited for a grant");
    QTest::newRow("try mode") << "try" << QStringLiteral("p50");
}

// Issue 11: in wait mode the histogram counted script calls under a "requests" axis, and its
// p99 sat beside a far longer mean wait without a word; a virtual run showed 0.000 everywhere.
void TestPanels::latencyTitleSaysWhatItCounts() {
    QFETCH(QString, mode);
    QFETCH(QString, mentions);
    RunSnapshot run;
    run.limiters.append(limiterSnapshot(QStringLiteral("api"), 0, 0, 0, 0));
    LatencyHistogram calls;
    LatencyHistogram waited;
    if (mode == QLatin1String("virtual")) {
        for (int i = 0; i < 7; ++i)
            calls.record(0);
    } else {
        for (int i = 0; i < 700; ++i)
            calls.record(1000 + i * 20);
    }
    if (mode == QLatin1String("wait")) {
        for (int i = 0; i < 100; ++i)
            waited.record(150'000 + i * 100);
    }
    run.limiters[0].latency = calls.snapshot();
    run.limiters[0].waited = waited.snapshot();
    LatencyChart chart;
    chart.updateFrom(run);
    QVERIFY2(chart.titleText().contains(mentions), qPrintable(chart.titleText()));
    if (mode == QLatin1String("wait")) {
        const QString mean = panel::formatMs(qint64(waited.snapshot().mean()));
        QVERIFY2(chart.titleText().contains(QStringLiteral("mean %1 ms").arg(mean)),
                 qPrintable(chart.titleText()));
    }
    auto* axisY =
        qobject_cast<QValueAxis*>(chart.chartView()->chart()->axes(Qt::Vertical).value(0));
    QVERIFY(axisY);
    QCOMPARE(axisY->titleText(), QStringLiteral("script calls"));
}

QTEST_MAIN(TestPanels)
#include "tst_panels.moc"
