// The comparison tab's view of Redis's own cost (panels/redis_cost_view.h): the summary line
// and one memory row per limiter, refusals said as such, sampled figures marked.
#include <QLabel>
#include <QTableWidget>
#include <QtTest>

#include "panels/redis_cost_view.h"

using namespace ratelab;

class TestRedisCostView : public QObject {
    Q_OBJECT

private:
    static RunCost cost(bool exact) {
        RunCost c;
        c.scriptsKnown = true;
        c.calls = 1500;
        c.usec = 15000;
        c.usPerDecision = 10.0;
        c.decisionsPerCoreSecond = 100000;
        c.bytes = {2048, 96};
        c.keys = {1, 3};
        c.exact = exact;
        return c;
    }

private slots:
    void init() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void rows_data() {
        QTest::addColumn<bool>("exact");
        QTest::addColumn<QStringList>("first");
        QTest::addColumn<QStringList>("second");
        QTest::newRow("while running: sampled")
            << false
            << QStringList{QStringLiteral("log"), QStringLiteral("≈ 2.0 KiB"), QStringLiteral("1")}
            << QStringList{QStringLiteral("counter"), QStringLiteral("≈ 96 bytes"),
                           QStringLiteral("3")};
        QTest::newRow("final: exact")
            << true
            << QStringList{QStringLiteral("log"), QStringLiteral("2.0 KiB"), QStringLiteral("1")}
            << QStringList{QStringLiteral("counter"), QStringLiteral("96 bytes"),
                           QStringLiteral("3")};
    }
    void rows() {
        QFETCH(bool, exact);
        QFETCH(QStringList, first);
        QFETCH(QStringList, second);
        RedisCostView view;
        view.updateCost(cost(exact), {QStringLiteral("log"), QStringLiteral("counter")});
        QCOMPARE(view.row(0), first);
        QCOMPARE(view.row(1), second);
        QVERIFY2(view.summaryText().contains(QStringLiteral("10.00 µs")),
                 qPrintable(view.summaryText()));
        QVERIFY(view.summaryText().contains(QStringLiteral("100,000 per second")));
    }

    // The "Keys" column stretched over the panel's width, its count far from its neighbours;
    // the limiter's name takes the room left now.
    void keysColumnKeepsItsWidth() {
        RedisCostView view;
        view.resize(900, 300);
        view.updateCost(cost(true), {QStringLiteral("log"), QStringLiteral("counter")});
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* table = view.findChild<QTableWidget*>(QStringLiteral("costTable"));
        QVERIFY(table);
        const int keys = table->columnWidth(2);
        QVERIFY2(keys <= table->columnWidth(1), qPrintable(QString::number(keys)));
        QVERIFY2(table->columnWidth(0) > keys, qPrintable(QString::number(table->columnWidth(0))));
        QCOMPARE(table->columnWidth(0) + table->columnWidth(1) + keys, table->viewport()->width());
    }

    // Every header explains itself: "Limiter" had no tooltip, beside "Key memory" and "Keys".
    void everyHeaderExplainsItself() {
        RedisCostView view;
        auto* table = view.findChild<QTableWidget*>(QStringLiteral("costTable"));
        QVERIFY(table);
        for (int c = 0; c < table->columnCount(); ++c) {
            const QTableWidgetItem* header = table->horizontalHeaderItem(c);
            QVERIFY2(header->toolTip().size() > header->text().size() + 20,
                     qPrintable(header->text()));
        }
    }

    void refusalsAreSaid() {
        RunCost c;
        c.scriptsRefusal = QStringLiteral("NOPERM this user has no permissions to run 'info'");
        c.bytes = {-1};
        c.keys = {-1};
        c.memoryRefusal = QStringLiteral("NOPERM memory");
        RedisCostView view;
        view.updateCost(c, {QStringLiteral("log")});
        QVERIFY(view.summaryText().contains(QStringLiteral("not available")));
        QVERIFY(view.summaryText().contains(c.scriptsRefusal));
        QCOMPARE(view.row(0).value(1), QStringLiteral("refused"));
    }

    void clearedForANewRun() {
        RedisCostView view;
        view.updateCost(cost(true), {QStringLiteral("log"), QStringLiteral("counter")});
        view.clear();
        QVERIFY(view.row(0).isEmpty());
        QVERIFY(view.summaryText().contains(QStringLiteral("while a test runs")));
    }
};

QTEST_MAIN(TestRedisCostView)
#include "tst_redis_cost_view.moc"
