// The comparison table (a row per limiter and the accounting line) and the client table (a row
// per client), fed with synthetic RunSnapshot values (no Redis): their rows, sorting, the client
// cap, header tooltips and columns that fit the width.

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QScrollBar>
#include <QTableWidget>
#include <QTest>
#include <limits>

#include "panels/client_table.h"
#include "panels/comparison_table.h"
#include "support/panel_inputs.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

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

}  // namespace

class TestRunTables : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void accounting_data();
    void accounting();
    void accountingShowsPolicy_data();
    void accountingShowsPolicy();
    void accountingShowsGatewaysAndLeases_data();
    void accountingShowsGatewaysAndLeases();
    void accountingStaysRedForTheRun();
    void comparisonRow_data();
    void comparisonRow();
    void clientRows_data();
    void clientRows();
    void clientSortKept();
    void clientCap();
    void clientLimiterSwitch();
    void headerToolTips_data();
    void headerToolTips();
    void tablesFitTheWidth_data();
    void tablesFitTheWidth();
};

void TestRunTables::initTestCase() {
    // Expected texts use English group separators whatever the machine's locale.
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void TestRunTables::accounting_data() {
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

void TestRunTables::accounting() {
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
void TestRunTables::accountingShowsPolicy_data() {
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

void TestRunTables::accountingShowsPolicy() {
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

// Gateways' Redis calls and a concurrency limiter's leases follow the identity, only when there
// are any.
void TestRunTables::accountingShowsGatewaysAndLeases_data() {
    QTest::addColumn<int>("gateways");
    QTest::addColumn<bool>("cached");
    QTest::addColumn<qint64>("released");
    QTest::addColumn<QString>("expected");
    const QString base =
        QStringLiteral("api: fired 1,000 = accepted 600 + rejected 400 + errors 0");
    QTest::newRow("one shared gateway, no leases") << 1 << false << 0LL << base;
    QTest::newRow("three gateways")
        << 3 << false << 0LL
        << base + QStringLiteral(
                      " \u00b7 Redis calls 1,000 of 1,000 decisions (3 gateways, "
                      "shared)");
    QTest::newRow("one gateway caching refusals")
        << 1 << true << 0LL
        << base + QStringLiteral(
                      " \u00b7 Redis calls 700 of 1,000 decisions (1 gateway, "
                      "shared, cached refusals)");
    QTest::newRow("leases")
        << 1 << false << 550LL
        << base + QStringLiteral(" \u00b7 leases released 550, late 2, leaked 30, expired 28");
}

void TestRunTables::accountingShowsGatewaysAndLeases() {
    QFETCH(int, gateways);
    QFETCH(bool, cached);
    QFETCH(qint64, released);
    QFETCH(QString, expected);

    ComparisonTable table;
    RunSnapshot run;
    run.limiters.append(limiterSnapshot(QStringLiteral("api"), 1000, 600, 400, 0));
    LimiterSnapshot& l = run.limiters[0];
    l.spec.gateway.cacheRefusals = cached;
    const qint64 calls = cached ? 700 : 1000;
    l.redisCalls = calls;
    for (int g = 0; g < gateways; ++g) {
        l.gateways.append(GatewayCounts{1000 / gateways + (g < 1000 % gateways),
                                        calls / gateways + (g < calls % gateways),
                                        0,
                                        {}});
    }
    if (released > 0)
        l.leases = LeaseCounts{released, 2, 30, 28};
    table.setAccountingOnlyWhenBroken(true);
    table.updateFrom(run);
    QCOMPARE(table.accountingText(), expected);
    // Lines with figures the table has not (leases) show even when only a broken identity
    // would; the gateways' Redis calls are the table's own column.
    QCOMPARE(table.accountingShown(), released > 0);
}

void TestRunTables::accountingStaysRedForTheRun() {
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

void TestRunTables::comparisonRow_data() {
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
                                            "0", "60.0", "0.050", "0.099", "1.000", "0", "\u2014"});
    QTest::newRow("failing open") << int(LimiterType::TokenBucket) << false
                                  << QVector<qint64>{1000, 600, 390, 10, 10, 0} << oneToHundred
                                  << 1.0
                                  << texts({"api", "token_bucket", "1,000", "600", "390", "10",
                                            "10", "0", "60.0", "0.050", "0.099", "1.000", "0",
                                            "\u2014"});
    QTest::newRow("failing closed, policy changed mid-run")
        << int(LimiterType::SlidingWindow) << false
        << QVector<qint64>{5000, 2000, 1000, 2000, 300, 1200} << oneToHundred << 1.0
        << texts({"api", "sliding_window", "5,000", "2,000", "1,000", "2,000", "300", "1,200",
                  "40.0", "0.050", "0.099", "1.000", "0", "\u2014"});
    QTest::newRow("fixed window per client")
        << int(LimiterType::FixedWindow) << true << QVector<qint64>{3, 1, 2, 0, 0, 0}
        << QVector<qint64>{0, 20, 127} << 0.5
        << texts({"api", "fixed_window (per_client)", "3", "1", "2", "0", "0", "0", "33.3", "0.020",
                  "0.127", "0.500", "0", "\u2014"});
    // A virtual clock's latencies say why they are 0 rather than showing a bare 0.000.
    QTest::newRow("virtual clock")
        << int(LimiterType::TokenBucket) << false << QVector<qint64>{4, 4, 0, 0, 0, 0}
        << QVector<qint64>{0, 0, 0, 0} << 1.0
        << texts({"api", "token_bucket", "4", "4", "0", "0", "0", "0", "100.0", "0 (virtual)",
                  "0 (virtual)", "1.000", "0", "\u2014"});
    QTest::newRow("nothing yet") << int(LimiterType::SlidingWindow) << false
                                 << QVector<qint64>{0, 0, 0, 0, 0, 0} << QVector<qint64>() << 1.0
                                 << texts({"api", "sliding_window", "0", "0", "0", "0", "0", "0",
                                           "\u2014", "\u2014", "\u2014", "1.000", "0", "\u2014"});
    // A percentile is the top of its bucket (at most the max): p50 is 2^20 + 2^14 - 1 us, p99
    // the max, 2^24 us.
    QTest::newRow("slow") << int(LimiterType::TokenBucket) << false
                          << QVector<qint64>{2000000, 2000000, 0, 0, 0, 0}
                          << QVector<qint64>{1048576, 16777216} << 0.87654
                          << texts({"api", "token_bucket", "2,000,000", "2,000,000", "0", "0", "0",
                                    "0", "100.0", "1,065", "16,777", "0.877", "0", "\u2014"});
}

void TestRunTables::comparisonRow() {
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
    // The last column, against a reference, is a dash: no script limiter here.
    QCOMPARE(table.row(1), expected + QStringList{QStringLiteral("\u2014")});
    QCOMPARE(table.row(2), QStringList());
    auto* widget = table.findChild<QTableWidget*>(QStringLiteral("comparison"));
    QVERIFY(widget);
    QCOMPARE(widget->rowCount(), 2);
    QCOMPARE(widget->columnCount(), 15);  // the last, against a reference, hidden
    QCOMPARE(widget->horizontalHeaderItem(6)->text(), QStringLiteral("Let through"));
    QCOMPARE(widget->horizontalHeaderItem(7)->text(), QStringLiteral("Refused"));
    QCOMPARE(widget->horizontalHeaderItem(11)->text(), QStringLiteral("Fairness"));
}

void TestRunTables::clientRows_data() {
    QTest::addColumn<QStringList>("clients");
    QTest::addColumn<QStringList>("expected");  // sorted by client, the default

    QTest::newRow("none") << QStringList() << QStringList();
    QTest::newRow("two") << texts({"bob|10|3|7|0|1500", "alice|1500|1000|499|1|0"})
                         << texts({"alice|1,500|1,000|499|1|0|0.0", "bob|10|3|7|0|1,500|500.0"});
    QTest::newRow("never accepted") << texts({"c|4|0|4|0|0"}) << texts({"c|4|0|4|0|0|\u2014"});
    QTest::newRow("mean rounds") << texts({"d|3|3|0|0|10"}) << texts({"d|3|3|0|0|10|3.3"});
}

void TestRunTables::clientRows() {
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

void TestRunTables::clientSortKept() {
    ClientTable table;
    auto* widget = table.findChild<QTableWidget*>(QStringLiteral("clients"));
    QVERIFY(widget);
    table.updateFrom(
        runWithClients({QStringLiteral("a|999|1|0|0|0"), QStringLiteral("b|1000|1|0|0|0"),
                        QStringLiteral("c|5|1|0|0|0")}));
    widget->sortByColumn(2, Qt::DescendingOrder);          // as a click on "Fired" would
    QCOMPARE(table.row(0).value(0), QStringLiteral("b"));  // by number, not text
    QCOMPARE(table.row(2).value(0), QStringLiteral("c"));

    table.updateFrom(
        runWithClients({QStringLiteral("a|999|1|0|0|0"), QStringLiteral("b|1000|1|0|0|0"),
                        QStringLiteral("c|20000|1|0|0|0"), QStringLiteral("d|7|1|0|0|0")}));
    QCOMPARE(widget->horizontalHeader()->sortIndicatorSection(), 2);
    QCOMPARE(widget->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
    QCOMPARE(tableRows(table), (texts({"c|20,000|1|0|0|0|0.0", "b|1,000|1|0|0|0|0.0",
                                       "a|999|1|0|0|0|0.0", "d|7|1|0|0|0|0.0"})));
    QVERIFY(widget->isSortingEnabled());
}

void TestRunTables::clientCap() {
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

void TestRunTables::clientLimiterSwitch() {
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

void TestRunTables::headerToolTips_data() {
    QTest::addColumn<bool>("comparison");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("mentions");  // what the tooltip must say
    QTest::newRow("let through") << true << 6 << QStringLiteral("on_error \"open\"");
    QTest::newRow("refused") << true << 7 << QStringLiteral("on_error \"closed\"");
    QTest::newRow("p50") << true << 9 << QStringLiteral("Median");
    // It said a virtual clock gives 0 while the table showed 0.959 ms of a virtual run at 1x:
    // only as fast as possible is there nothing to measure.
    QTest::newRow("p50, virtual at a speed") << true << 9 << QStringLiteral("run's clock");
    QTest::newRow("p50, as fast as possible") << true << 9 << QStringLiteral("as fast as possible");
    QTest::newRow("p99") << true << 10 << QStringLiteral("99th percentile");
    QTest::newRow("fairness") << true << 11 << QStringLiteral("Jain");
    QTest::newRow("fired") << true << 2 << QStringLiteral("Accepted + Rejected + Errors");
    QTest::newRow("group") << false << 1 << QStringLiteral("traffic group");
    QTest::newRow("waited ms") << false << 6 << QStringLiteral("first try to the grant");
    QTest::newRow("mean wait") << false << 7 << QStringLiteral("Waited ms / Accepted");
    QTest::newRow("redis calls") << true << 12 << QStringLiteral("gateway decided");
    QTest::newRow("max burst") << true << 13 << QStringLiteral("limit admits");
}

// Every header has a tooltip naming the column and saying what it counts (Fairness, Let through,
// Refused and Waited ms among them).
void TestRunTables::headerToolTips() {
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

void TestRunTables::tablesFitTheWidth_data() {
    QTest::addColumn<bool>("comparison");
    QTest::addColumn<int>("width");
    QTest::newRow("comparison at 1024") << true << 1024;
    QTest::newRow("comparison at 800") << true << 800;
    // A 1024 px window less the scenario dock.
    QTest::newRow("comparison at 660") << true << 660;
    QTest::newRow("clients at 660") << false << 660;
    QTest::newRow("clients at 1024") << false << 1024;
}

// The tables fit their width (a 1024 x 700 window) without scrolling sideways: the columns share
// the width; a text too long for its column is elided and whole in the cell's tooltip.
void TestRunTables::tablesFitTheWidth() {
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

QTEST_MAIN(TestRunTables)
#include "tst_run_tables.moc"
