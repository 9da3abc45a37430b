// The window's Tune tab on the fixture Redis: the fields it offers, the sweep its controls
// describe (and the errors of bad ones), a sweep run to the end with its heatmap, hovering and
// clicking a cell, Apply best; Cancel during a sweep.
#include <QComboBox>
#include <QJsonArray>
#include <QJsonObject>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

#include "scenario/scenario.h"
#include "support/scenario_documents.h"
#include "support/test_redis.h"
#include "tune/sweep_chart_view.h"
#include "tune/sweep_grid.h"
#include "tune/tune_sweep.h"
#include "tune/tune_view.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// A calendar fixed window of 10 per second against a constant 20/s for 2 s, virtual time.
Scenario fixedWindowScenario(const QString& name) {
    return parseScenarioJson(QStringLiteral(R"({"name": "tune",
        "limiters": [{"type": "fixed_window", "name": "%1", "rate": 10, "interval": 1,
                      "unit": "seconds", "timezone": "UTC"}],
        "traffic": {"shape": {"type": "constant", "rate": 20}, "duration_s": 2,
                    "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": 0}}})")
                                 .arg(name)
                                 .toUtf8(),
                             QString());
}

// The view on the fixture Redis, set to sweep the fixed window `name`'s rate.
void sweepRate(TuneView& view, const QString& name, int from, int to, int step) {
    const Scenario s = fixedWindowScenario(name);
    view.resize(800, 600);
    view.setScenario(s);
    view.setRedisUrl(fixtureUrl(), true);
    view.setScenarioSource([s] { return std::optional<Scenario>(s); });
    view.xField()->setCurrentText(name + QStringLiteral(".rate"));
    view.xFrom()->setValue(from);
    view.xTo()->setValue(to);
    view.xStep()->setValue(step);
}

}  // namespace

class TestTuneView : public QObject {
    Q_OBJECT

private slots:
    void offersTheLimitersNumericFields() {
        TuneView view;
        const QString name = uniqueName(QStringLiteral("tune"));
        view.setScenario(fixedWindowScenario(name));
        QStringList x;
        for (int i = 0; i < view.xField()->count(); ++i) {
            x << view.xField()->itemText(i);
        }
        QVERIFY2(x.contains(name + QStringLiteral(".rate")), qPrintable(x.join(u',')));
        QVERIFY(x.contains(name + QStringLiteral(".interval")));
        QCOMPARE(view.yField()->count(), x.size() + 1);
        QCOMPARE(view.yField()->currentIndex(), 0);  // "(none)": one field
        QVERIFY(!view.yFrom()->isEnabled());
        // Around the current value (10): 5 to 20.
        view.xField()->setCurrentText(name + QStringLiteral(".rate"));
        QCOMPARE(view.xFrom()->value(), 5);
        QCOMPARE(view.xTo()->value(), 20);
    }

    // A scenario's own "sweep" fills the controls.
    void showsTheScenarioSweep() {
        Scenario s = fixedWindowScenario(QStringLiteral("fw"));
        s.sweep = scenario_json::readSweep(
            QJsonObject{
                {QStringLiteral("vary"), QJsonObject{{QStringLiteral("fw.rate"),
                                                      QJsonObject{{QStringLiteral("from"), 2},
                                                                  {QStringLiteral("to"), 12},
                                                                  {QStringLiteral("step"), 2}}}}},
                {QStringLiteral("maximize"), QStringLiteral("accepted")},
                {QStringLiteral("constraints"), QJsonArray{QStringLiteral("p99_ms < 5")}}},
            QStringLiteral("$.sweep"), s.limiters);
        TuneView view;
        view.setScenario(s);
        QCOMPARE(view.xField()->currentText(), QStringLiteral("fw.rate"));
        QCOMPARE(view.xFrom()->value(), 2);
        QCOMPARE(view.xTo()->value(), 12);
        QCOMPARE(view.xStep()->value(), 2);
        QCOMPARE(view.direction()->currentIndex(), 1);
        QCOMPARE(view.constraints()->text(), QStringLiteral("p99_ms < 5"));
        QString error;
        QCOMPARE(view.sweepSpec(s, &error)->combinations(), 6);
    }

    // A list in the file ([5, 10, 20, 40]) is swept as listed while the range fields show it
    // (the range they show, 5 to 40 step 11, swept 5, 16, 27, 38); edited, the range is swept.
    void listedValuesSweptAsListed() {
        Scenario s = fixedWindowScenario(QStringLiteral("fw"));
        s.sweep = scenario_json::readSweep(
            QJsonObject{{QStringLiteral("vary"),
                         QJsonObject{{QStringLiteral("fw.rate"), QJsonArray{5, 10, 20, 40}}}},
                        {QStringLiteral("maximize"), QStringLiteral("accepted")}},
            QStringLiteral("$.sweep"), s.limiters);
        TuneView view;
        view.setScenario(s);
        QCOMPARE(view.xFrom()->value(), 5);
        QCOMPARE(view.xTo()->value(), 40);
        QVERIFY2(view.statusText().contains(QStringLiteral("5, 10, 20, 40")),
                 qPrintable(view.statusText()));
        QString error;
        const std::optional<SweepSpec> listed = view.sweepSpec(s, &error);
        QVERIFY2(listed, qPrintable(error));
        QCOMPARE(listed->vary[0].values, (QVector<qint64>{5, 10, 20, 40}));
        view.xStep()->setValue(5);  // the user's own range now
        const std::optional<SweepSpec> range = view.sweepSpec(s, &error);
        QCOMPARE(range->vary[0].values, (QVector<qint64>{5, 10, 15, 20, 25, 30, 35, 40}));
    }

    // The x field is the heatmap's columns whatever the keys' order ("fw.rate" sorts after
    // "fw.interval").
    void xFieldComesFirst() {
        const Scenario s = fixedWindowScenario(QStringLiteral("fw"));
        TuneView view;
        view.setScenario(s);
        view.xField()->setCurrentText(QStringLiteral("fw.rate"));
        view.yField()->setCurrentText(QStringLiteral("fw.interval"));
        QString error;
        const std::optional<SweepSpec> sweep = view.sweepSpec(s, &error);
        QVERIFY2(sweep, qPrintable(error));
        QCOMPARE(sweep->vary.size(), 2);
        QCOMPARE(sweep->vary[0].key, QStringLiteral("fw.rate"));
        QCOMPARE(sweep->vary[1].key, QStringLiteral("fw.interval"));
        QCOMPARE(sweep->valuesOf(1),
                 (QVector<qint64>{view.xFrom()->value(),
                                  view.yFrom()->value() + view.yStep()->value()}));
    }

    void refusesBadSweeps_data() {
        QTest::addColumn<QString>("metric");
        QTest::addColumn<QString>("constraints");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown metric")
            << QStringLiteral("speed") << QString() << QStringLiteral("Tune.minimize");
        QTest::newRow("bad constraint")
            << QStringLiteral("accepted") << QStringLiteral("accepted >= 1; p99 < 3")
            << QStringLiteral("Tune.constraints[1]");
    }
    void refusesBadSweeps() {
        QFETCH(QString, metric);
        QFETCH(QString, constraints);
        QFETCH(QString, message);
        const Scenario s = fixedWindowScenario(QStringLiteral("fw"));
        TuneView view;
        view.setScenario(s);
        view.metricBox()->setCurrentText(metric);
        view.constraints()->setText(constraints);
        QString error;
        QVERIFY(!view.sweepSpec(s, &error));
        QVERIFY2(error.contains(message), qPrintable(error));
        // Run sweep says so instead of starting.
        view.setRedisUrl(fixtureUrl(), true);
        view.setScenarioSource([s] { return std::optional<Scenario>(s); });
        QVERIFY(!view.startSweep());
        QVERIFY2(view.statusText().contains(message), qPrintable(view.statusText()));
    }

    void needsRedis() {
        TuneView view;
        const Scenario s = fixedWindowScenario(QStringLiteral("fw"));
        view.setScenario(s);
        view.setScenarioSource([s] { return std::optional<Scenario>(s); });
        QVERIFY(!view.startSweep());
        QVERIFY(view.statusText().contains(QStringLiteral("Not connected")));
    }

    // rate 5..20 step 5 against 20/s for 2 s: accepted 10, 20, 30, 40; at least 25 accepted,
    // as few as can be: 15 per second (30) is best. Its cell's tool tip, a click on rate 10
    // (load and run), Apply best (load only).
    void runsClicksAndAppliesBest() {
        const QString name = uniqueName(QStringLiteral("tune"));
        TuneView view;
        sweepRate(view, name, 5, 20, 5);
        view.constraints()->setText(QStringLiteral("accepted >= 25"));
        QSignalSpy finished(&view, &TuneView::sweepFinished);
        QSignalSpy chosen(&view, &TuneView::combinationChosen);
        view.show();
        QVERIFY(view.startSweep());
        QVERIFY(!view.runButton()->isEnabled());
        QVERIFY(view.cancelButton()->isEnabled());
        QVERIFY(finished.wait(60000));
        QVERIFY(view.runButton()->isEnabled());
        QVERIFY(!view.cancelButton()->isEnabled());
        QCOMPARE(view.progressBar()->value(), 4);
        const SweepTable& table = view.chart()->table();
        QVERIFY(table.complete);
        QCOMPARE(table.combinations.size(), 4);
        for (const SweepCombination& c : table.combinations) {
            QCOMPARE(c.rows[0].accepted, 2 * std::min<qint64>(c.values[0], 20));
        }
        QCOMPARE(table.combinations[table.best()].values, QVector<qint64>{15});
        QVERIFY2(view.statusText().contains(QStringLiteral("Best: ")),
                 qPrintable(view.statusText()));
        QVERIFY(view.applyBestButton()->isEnabled());

        SweepChartView* chart = view.chart();
        QCOMPARE(chart->grid().columns(), 4);
        const QString tip = chart->cellText(1, 0);
        QVERIFY2(tip.contains(QStringLiteral(".rate = 10")) &&
                     tip.contains(QStringLiteral("accepted 20")) &&
                     tip.contains(QStringLiteral("FAILED")),
                 qPrintable(tip));
        const QRectF cell = chart->cellRect(1, 0);
        QVERIFY(!cell.isEmpty());
        QTest::mouseClick(chart, Qt::LeftButton, {}, cell.center().toPoint());
        QCOMPARE(chosen.size(), 1);
        QCOMPARE(chosen[0][0].value<Scenario>().limiters[0].rate, 10);
        QCOMPARE(chosen[0][1].toBool(), true);

        view.applyBestButton()->click();
        QCOMPARE(chosen.size(), 2);
        QCOMPARE(chosen[1][0].value<Scenario>().limiters[0].rate, 15);
        QCOMPARE(chosen[1][1].toBool(), false);
    }

    // Rates 20, 30 and 40 against 20/s for 1 s all admit 20: a tie, which the status says with
    // its values, and Apply best loads the middle one, 30. One second of traffic against a
    // window of one: the status warns that it is shorter than twice the window.
    void tieAndShortTrafficInTheStatus() {
        const QString name = uniqueName(QStringLiteral("tune-tie"));
        TuneView view;
        sweepRate(view, name, 20, 40, 10);
        Scenario s = fixedWindowScenario(name);
        s.traffic.durationS = 1;
        view.setScenarioSource([s] { return std::optional<Scenario>(s); });
        QSignalSpy finished(&view, &TuneView::sweepFinished);
        QSignalSpy chosen(&view, &TuneView::combinationChosen);
        view.show();
        QVERIFY(view.startSweep());
        QVERIFY(finished.wait(60000));
        const QString status = view.statusText();
        QVERIFY2(status.contains(QStringLiteral("a tie: 3 feasible combinations give accepted "
                                                "20, over %1.rate 20 to 40")
                                     .arg(name)),
                 qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("warning: the traffic lasts 1 s, less than twice "
                                                "limiter \"%1\"'s longest window (1 s)")
                                     .arg(name)),
                 qPrintable(status));
        view.applyBestButton()->click();
        QCOMPARE(chosen.size(), 1);
        QCOMPARE(chosen[0][0].value<Scenario>().limiters[0].rate, 30);
    }

    // Cancel while a sweep runs: it stops (long before its 6,000 combinations), the progress bar
    // and the status say it was cancelled and after how many, and the combinations that
    // finished stay in the heatmap (the others' cells empty); Run sweep is enabled again.
    void cancelKeepsWhatFinished() {
        const QString name = uniqueName(QStringLiteral("tune"));
        TuneView view;
        sweepRate(view, name, 1, 200, 1);
        view.yField()->setCurrentText(name + QStringLiteral(".interval"));
        view.yFrom()->setValue(1);
        view.yTo()->setValue(30);
        view.yStep()->setValue(1);
        QSignalSpy progressed(view.progressBar(), &QProgressBar::valueChanged);
        QSignalSpy finished(&view, &TuneView::sweepFinished);
        view.show();
        QVERIFY(view.startSweep());
        QCOMPARE(view.progressBar()->maximum(), 6000);
        // The first batch finished: its combinations are in.
        while (view.progressBar()->value() == 0 && finished.isEmpty())
            QVERIFY(progressed.wait(60000));
        QVERIFY2(finished.isEmpty(), "the sweep ended before Cancel");
        QVERIFY(view.running());
        QTest::mouseClick(view.cancelButton(), Qt::LeftButton);
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.size(), 1);

        QVERIFY(!view.running());
        QVERIFY(view.runButton()->isEnabled());
        QVERIFY(!view.cancelButton()->isEnabled());
        const SweepTable& table = view.chart()->table();
        QVERIFY(!table.complete);
        const qint64 done = table.combinations.size();
        QVERIFY2(done > 0 && done < 6000, qPrintable(QString::number(done)));
        QCOMPARE(view.progressBar()->value(), int(done));
        QVERIFY2(view.progressBar()->text().contains(QStringLiteral("cancelled")),
                 qPrintable(view.progressBar()->text()));
        QVERIFY2(view.statusText().contains(QStringLiteral("Cancelled after %1 of 6000").arg(done)),
                 qPrintable(view.statusText()));
        // The heatmap holds every finished combination, and only those.
        const SweepGrid& grid = view.chart()->grid();
        QCOMPARE(grid.columns(), 200);
        QCOMPARE(grid.rows(), 30);
        int filled = 0;
        for (int row = 0; row < grid.rows(); ++row) {
            for (int column = 0; column < grid.columns(); ++column) {
                const int index = grid.at(column, row);
                QCOMPARE(view.chart()->cellText(column, row).isEmpty(), index < 0);
                filled += index >= 0 ? 1 : 0;
            }
        }
        QCOMPARE(filled, int(done));
        // A new sweep starts afresh.
        QVERIFY(view.startSweep());
        QCOMPARE(view.progressBar()->value(), 0);
        QVERIFY(!view.progressBar()->text().contains(QStringLiteral("cancelled")));
        view.cancelSweep();
        QVERIFY(finished.wait(60000));
    }

    // The workers line of a distributed sweep: the window's own consumer is not a worker; a
    // worker that answered batches and is no longer in the group is named as gone; once over,
    // only what each did.
    void workersLine_data() {
        QTest::addColumn<bool>("over");
        QTest::addColumn<QString>("expected");
        QTest::newRow("running")
            << false
            << QStringLiteral(
                   "1 worker connected: a:1 (working, 2 batches done), b:2 (gone, 1 "
                   "batch done); this window: 3 batches done.");
        QTest::newRow("over") << true
                              << QStringLiteral(
                                     "2 workers on the queue: a:1 (2 batches done), "
                                     "b:2 (gone, 1 batch done); this window: 3 "
                                     "batches done.");
    }
    void workersLine() {
        QFETCH(bool, over);
        QFETCH(QString, expected);
        const QVector<QueueConsumer> consumers{{QStringLiteral("me:9:window"), 1, 10},
                                               {QStringLiteral("a:1"), 1, 5}};
        const QMap<QString, qint64> batches{{QStringLiteral("me:9:window"), 3},
                                            {QStringLiteral("a:1"), 2},
                                            {QStringLiteral("b:2"), 1}};
        QCOMPARE(workersText(consumers, batches, QStringLiteral("me:9:window"), over), expected);
        QCOMPARE(workersText({{QStringLiteral("c:3"), 0, 1500}}, {}, QStringLiteral("me"), false),
                 QStringLiteral("1 worker connected: c:3 (idle 1.5 s, 0 batches done); this "
                                "window: 0 batches done."));
        QCOMPARE(workersText({{QStringLiteral("me"), 1, 0}}, {}, QStringLiteral("me"), over),
                 over ? QStringLiteral("No workers: the window worked every batch itself (this "
                                       "window: 0 batches done).")
                      : QStringLiteral("No workers: the window works every batch itself (this "
                                       "window: 0 batches done)."));
    }
};

QTEST_MAIN(TestTuneView)
#include "tst_tune_view.moc"
