// The comparison table's traffic groups, Redis calls and admitted burst, and the group column and
// filter of the client table, fed with synthetic runs (no Redis): a row per group under each
// limiter (the comparison tab's "Per group" check box hides them), the baseline's groups or why
// it has none, the decisions that called Redis where a gateway decides some itself, the burst in
// the limiter's window against its limit.

#include <QCheckBox>
#include <QComboBox>
#include <QHeaderView>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include "output/run_baseline.h"
#include "panels/client_table.h"
#include "panels/comparison_table.h"
#include "panels/comparison_view.h"
#include "style/palette_colors.h"
#include "support/panel_inputs.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

enum Column { kLimiter, kType, kFired, kAccepted, kRejected, kAcceptedPct = 8, kP50, kP99 };
constexpr int kFairness = 11;
constexpr int kRedisCalls = 12;
constexpr int kBurst = 13;

// A fixed window of 10 per second; `accepted` of `fired` requests, the busiest second holding
// `burst` (0: the run goes on, no burst measured yet).
LimiterSnapshot fixedWindow(const QString& name, qint64 fired, qint64 accepted, qint64 burst) {
    LimiterSnapshot l = limiterSnapshot(name, fired, accepted, fired - accepted, 0);
    l.spec.type = LimiterType::FixedWindow;
    l.spec.rate = 10;
    l.spec.interval = 1;
    l.spec.unit = CalendarUnit::Seconds;
    l.spec.timezone = "UTC";
    l.redisCalls = fired;
    l.gateways = {GatewayCounts{fired, fired, 0, {}}};
    if (burst > 0) {
        BusiestInterval b;
        b.windowMs = 1000;
        b.permits = burst;
        b.fromMs = 2000;
        l.admittedBurst = {b};
    }
    return l;
}

GroupTotals group(const QString& name, int clients, qint64 fired, qint64 accepted, double fairness,
                  qint64 burst) {
    GroupTotals g;
    g.group = name;
    g.clients = clients;
    g.fired = fired;
    g.accepted = accepted;
    g.rejected = fired - accepted;
    g.fairness = fairness;
    if (burst > 0) {
        BusiestInterval b;
        b.windowMs = 1000;
        b.permits = burst;
        g.admittedBurst = {b};
    }
    return g;
}

// Users (4 clients) and an attacker (1) at one fixed window, finished: the attacker got 6 of its
// 100, the users 24 of their 40; 12 in the busiest second.
RunSnapshot loginRun() {
    RunSnapshot run;
    run.scenarioName = QStringLiteral("login");
    run.finished = true;
    LimiterSnapshot l = fixedWindow(QStringLiteral("login"), 140, 30, 12);
    l.groups = {group(QStringLiteral("users"), 4, 40, 24, 0.9, 8),
                group(QStringLiteral("attacker"), 1, 100, 6, 1.0, 4)};
    for (int i = 0; i < 4; ++i)
        l.clients << ClientTotals{{10, 6, 4, 0, 0, 0, 0, {}},
                                  QStringLiteral("users-%1").arg(i),
                                  QStringLiteral("users"),
                                  {}};
    l.clients << ClientTotals{
        {100, 6, 94, 0, 0, 0, 0, {}}, QStringLiteral("attacker-0"), QStringLiteral("attacker"), {}};
    run.limiters << l;
    return run;
}

QTableWidget* tableOf(QWidget& owner, const QString& name) {
    return owner.findChild<QTableWidget*>(name);
}

}  // namespace

class TestComparisonGroups : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void groupRows_data() {
        QTest::addColumn<bool>("shown");
        QTest::newRow("per group") << true;
        QTest::newRow("hidden") << false;
    }

    // Each group's row under its limiter: indented, its clients, counts, accepted share,
    // fairness and burst; the latency and Redis calls are the limiter's only.
    void groupRows() {
        QFETCH(bool, shown);
        ComparisonTable table;
        table.setShowGroups(shown);
        table.updateFrom(loginRun());
        QCOMPARE(tableOf(table, QStringLiteral("comparison"))->rowCount(), shown ? 3 : 1);
        QCOMPARE(table.row(0).value(kLimiter), QStringLiteral("login"));
        if (!shown) {
            QVERIFY(table.groupRow(0, 0).isEmpty());
            return;
        }
        const QStringList users = table.groupRow(0, 0);
        QCOMPARE(users.value(kLimiter), QStringLiteral("  users"));
        QCOMPARE(users.value(kType), QStringLiteral("4 clients"));
        QCOMPARE(users.mid(kFired, 3), texts({"40", "24", "16"}));
        QCOMPARE(users.value(kAcceptedPct), QStringLiteral("60.0"));
        QCOMPARE(users.value(kP50), QStringLiteral("\u2014"));
        QCOMPARE(users.value(kP99), QStringLiteral("\u2014"));
        QCOMPARE(users.value(kFairness), QStringLiteral("0.900"));
        QCOMPARE(users.value(kRedisCalls), QStringLiteral("\u2014"));
        QCOMPARE(users.value(kBurst), QStringLiteral("8"));
        const QStringList attacker = table.groupRow(0, 1);
        QCOMPARE(attacker.value(kLimiter), QStringLiteral("  attacker"));
        QCOMPARE(attacker.value(kType), QStringLiteral("1 client"));
        QCOMPARE(attacker.value(kAcceptedPct), QStringLiteral("6.0"));
        // Shown again without a new snapshot (a finished run gets none).
        table.setShowGroups(!shown);
        QCOMPARE(tableOf(table, QStringLiteral("comparison"))->rowCount(), 1);
    }

    void baselineGroups_data() {
        QTest::addColumn<QString>("baseGroups");  // the baseline's groups: "none", "users", both
        QTest::addColumn<QString>("usersRow");    // the name cell of the users' baseline row
        QTest::addColumn<QString>("usersFired");
        QTest::addColumn<QString>("attackerRow");
        QTest::newRow("both") << QStringLiteral("both") << QStringLiteral("  baseline #1")
                              << QStringLiteral("30 (\u0394 +10)")
                              << QStringLiteral("  baseline #1");
        QTest::newRow("users only")
            << QStringLiteral("users") << QStringLiteral("  baseline #1")
            << QStringLiteral("30 (\u0394 +10)")
            << QStringLiteral("  not in baseline #1: it has no group \"attacker\" at \"login\"");
        // A baseline whose traffic had no groups (or written before groups were kept) says so.
        const QString none = QStringLiteral(
            "  no groups in baseline #1: its traffic had none, or its summary was written before "
            "groups were kept");
        QTest::newRow("none") << QStringLiteral("none") << none << QStringLiteral("\u2014") << none;
    }

    // Under each group's row, the baseline's figures for that group, or why there are none.
    void baselineGroups() {
        QFETCH(QString, baseGroups);
        QFETCH(QString, usersRow);
        QFETCH(QString, usersFired);
        QFETCH(QString, attackerRow);
        RunSnapshot before = loginRun();
        LimiterSnapshot& l = before.limiters[0];
        l.groups[0].fired = 30;
        l.groups[0].accepted = 20;
        l.groups[0].rejected = 10;
        if (baseGroups == QStringLiteral("users"))
            l.groups.removeLast();
        if (baseGroups == QStringLiteral("none"))
            l.groups.clear();
        ComparisonTable table;
        table.setBaseline(
            std::make_shared<RunBaseline>(baselineFromSnapshot(before, QStringLiteral("#1"))));
        table.updateFrom(loginRun());
        QCOMPARE(tableOf(table, QStringLiteral("comparison"))->rowCount(), 6);
        QCOMPARE(table.baselineRow(0).value(kLimiter), QStringLiteral("baseline #1"));
        const QStringList users = table.groupBaselineRow(0, 0);
        QCOMPARE(users.value(kLimiter), usersRow);
        QCOMPARE(users.value(kFired), usersFired);
        QCOMPARE(table.groupBaselineRow(0, 1).value(kLimiter), attackerRow);
        if (baseGroups != QStringLiteral("none")) {
            QCOMPARE(users.value(kBurst), QStringLiteral("8 (\u0394 0)"));
            QCOMPARE(users.value(kP50), QStringLiteral("\u2014"));
        }
        // The rows stay in order: limiter, its baseline, each group and its baseline.
        auto* widget = tableOf(table, QStringLiteral("comparison"));
        QCOMPARE(widget->item(2, kLimiter)->text(), QStringLiteral("  users"));
        QVERIFY(widget->item(3, kLimiter)->font().italic());
        QVERIFY(!widget->item(4, kLimiter)->font().italic());
        // A row that says why it has no figures says it across the row.
        for (int r : {3, 5}) {
            const bool note = widget->item(r, kFired)->text() == QStringLiteral("\u2014");
            QCOMPARE(widget->columnSpan(r, kLimiter), note ? 15 : 1);  // every column
        }
    }

    void redisCallsColumn_data() {
        QTest::addColumn<int>("mode");
        QTest::addColumn<int>("gateways");
        QTest::addColumn<bool>("shown");
        QTest::newRow("one shared gateway") << int(GatewayMode::Shared) << 1 << false;
        QTest::newRow("two shared gateways") << int(GatewayMode::Shared) << 2 << true;
        QTest::newRow("local") << int(GatewayMode::Local) << 1 << true;
        QTest::newRow("batched") << int(GatewayMode::Batched) << 3 << true;
    }

    // The decisions that called Redis, where a gateway decides some requests itself.
    void redisCallsColumn() {
        QFETCH(int, mode);
        QFETCH(int, gateways);
        QFETCH(bool, shown);
        RunSnapshot run = loginRun();
        LimiterSnapshot& l = run.limiters[0];
        l.spec.gateway.mode = GatewayMode(mode);
        l.redisCalls = 35;
        l.gateways.fill(GatewayCounts{140 / gateways, 35 / gateways, 0, {}}, gateways);
        ComparisonTable table;
        table.updateFrom(run);
        auto* widget = tableOf(table, QStringLiteral("comparison"));
        QCOMPARE(widget->isColumnHidden(kRedisCalls), !shown);
        QCOMPARE(table.row(0).value(kRedisCalls), QStringLiteral("35"));
        if (shown) {
            const QString tip = widget->item(0, kRedisCalls)->toolTip();
            QVERIFY2(tip.contains(QStringLiteral("35 of ")), qPrintable(tip));
            QVERIFY2(tip.contains(gatewayModeName(GatewayMode(mode))), qPrintable(tip));
            // Several gateways: each one's calls of its decisions.
            QCOMPARE(tip.contains(QStringLiteral("gateway 1: %1 of %2 decisions called Redis")
                                      .arg(35 / gateways)
                                      .arg(140 / gateways)),
                     gateways > 1);
        }
    }

    void burstColumn_data() {
        QTest::addColumn<bool>("finished");
        QTest::addColumn<qint64>("burst");
        QTest::addColumn<qint64>("otherWindowMs");  // a second limiter's window; 0: none
        QTest::addColumn<QString>("header");
        QTest::addColumn<QString>("cell");
        QTest::addColumn<bool>("above");
        QTest::newRow("running") << false << qint64(0) << qint64(0) << QString() << QString()
                                 << false;
        QTest::newRow("within the limit")
            << true << qint64(10) << qint64(0) << QStringLiteral("Max\nin 1 s")
            << QStringLiteral("10") << false;
        QTest::newRow("above the limit")
            << true << qint64(17) << qint64(0) << QStringLiteral("Max\nin 1 s")
            << QStringLiteral("17") << true;
        // Limiters of other windows: each cell names its own.
        QTest::newRow("mixed windows")
            << true << qint64(17) << qint64(60000) << QStringLiteral("Max burst")
            << QStringLiteral("17 in 1 s") << true;
    }

    // The admitted burst in the limiter's window once the run is over, in the error colour and
    // bold above what its limit admits there; the limit in the tooltip.
    void burstColumn() {
        QFETCH(bool, finished);
        QFETCH(qint64, burst);
        QFETCH(qint64, otherWindowMs);
        QFETCH(QString, header);
        QFETCH(QString, cell);
        QFETCH(bool, above);
        RunSnapshot run;
        run.finished = finished;
        run.limiters << fixedWindow(QStringLiteral("fw"), 100, 40, burst);
        if (otherWindowMs > 0) {
            LimiterSnapshot other = fixedWindow(QStringLiteral("minute"), 100, 40, 30);
            other.spec.unit = CalendarUnit::Minutes;
            other.admittedBurst[0].windowMs = otherWindowMs;
            run.limiters << other;
        }
        ComparisonTable table;
        table.updateFrom(run);
        auto* widget = tableOf(table, QStringLiteral("comparison"));
        QCOMPARE(widget->isColumnHidden(kBurst), !finished);
        if (!finished)
            return;
        QCOMPARE(widget->horizontalHeaderItem(kBurst)->text(), header);
        QCOMPARE(table.row(0).value(kBurst), cell);
        QCOMPARE(table.alerted(0, kBurst), above);
        QVERIFY(!table.alerted(0, kAccepted));
        const QString tip = widget->item(0, kBurst)->toolTip();
        QVERIFY2(tip.contains(QStringLiteral("its limit admits 10")), qPrintable(tip));
        QCOMPARE(tip.contains(QStringLiteral("above it")), above);
        if (above) {
            QCOMPARE(widget->item(0, kBurst)->foreground().color(),
                     style::errorColor(table.palette()));
            // Another palette (dark): the cell takes its error colour.
            QPalette dark = table.palette();
            dark.setColor(QPalette::Base, Qt::black);
            dark.setColor(QPalette::Window, QColor(30, 30, 30));
            dark.setColor(QPalette::Text, Qt::white);
            dark.setColor(QPalette::WindowText, Qt::white);
            table.setPalette(dark);
            QCOMPARE(widget->item(0, kBurst)->foreground().color(), style::errorColor(dark));
        }
    }

    // The comparison tab's "Per group" box: hidden without groups; shown and checked with
    // them; unchecked, the group rows go.
    void perGroupCheckBox() {
        ComparisonView view;
        view.updateFrom(loginRun());
        QCheckBox* box = view.perGroup();
        QVERIFY(!box->isHidden());
        QVERIFY(box->isChecked());
        QVERIFY(!view.table()->groupRow(0, 1).isEmpty());
        QSignalSpy toggled(box, &QCheckBox::toggled);
        box->click();
        QCOMPARE(toggled.size(), 1);
        QCOMPARE(toggled[0][0].toBool(), false);
        QVERIFY(view.table()->groupRow(0, 0).isEmpty());
        QVERIFY(!view.table()->showsGroups());
        box->click();
        QCOMPARE(view.table()->groupRow(0, 0).value(kLimiter), QStringLiteral("  users"));

        RunSnapshot plain = loginRun();
        plain.limiters[0].groups.clear();
        view.updateFrom(plain);
        QVERIFY(box->isHidden());
        QCOMPARE(tableOf(*view.table(), QStringLiteral("comparison"))->rowCount(), 1);
    }

    void clientGroups_data() {
        QTest::addColumn<int>("filter");  // the group combo's index: 0 all, 1 users, 2 attacker
        QTest::addColumn<QStringList>("rows");
        QTest::newRow("all groups")
            << 0
            << texts({"attacker-0|attacker|100|6|94|0|0|0.0", "users-0|users|10|6|4|0|0|0.0",
                      "users-1|users|10|6|4|0|0|0.0", "users-2|users|10|6|4|0|0|0.0",
                      "users-3|users|10|6|4|0|0|0.0"});
        QTest::newRow("users") << 1
                               << texts({"users-0|users|10|6|4|0|0|0.0",
                                         "users-1|users|10|6|4|0|0|0.0",
                                         "users-2|users|10|6|4|0|0|0.0",
                                         "users-3|users|10|6|4|0|0|0.0"});
        QTest::newRow("attacker") << 2 << texts({"attacker-0|attacker|100|6|94|0|0|0.0"});
    }

    // A Group column when the run has groups, and a filter to one group's clients (kept across
    // updates).
    void clientGroups() {
        QFETCH(int, filter);
        QFETCH(QStringList, rows);
        ClientTable table;
        table.updateFrom(loginRun());
        QComboBox* combo = table.groupFilter();
        QVERIFY(combo->isVisibleTo(&table));
        QCOMPARE(combo->count(), 3);
        QCOMPARE(combo->itemText(0), QStringLiteral("All groups"));
        QSignalSpy changed(combo, &QComboBox::currentIndexChanged);
        combo->setCurrentIndex(filter);
        QCOMPARE(changed.size(), filter == 0 ? 0 : 1);
        table.updateFrom(loginRun());
        QCOMPARE(combo->currentIndex(), filter);
        QStringList shown;
        for (int r = 0; r < table.rowCount(); ++r)
            shown << table.row(r).join(QLatin1Char('|'));
        QCOMPARE(shown, rows);

        // Without groups: neither the column nor the filter, and every client.
        RunSnapshot plain = loginRun();
        plain.limiters[0].groups.clear();
        for (ClientTotals& c : plain.limiters[0].clients)
            c.group.clear();
        table.updateFrom(plain);
        QVERIFY(!combo->isVisibleTo(&table));
        QVERIFY(tableOf(table, QStringLiteral("clients"))->isColumnHidden(1));
        QCOMPARE(table.rowCount(), 5);
        QCOMPARE(table.row(0).size(), 7);
    }
};

QTEST_MAIN(TestComparisonGroups)
#include "tst_comparison_groups.moc"
