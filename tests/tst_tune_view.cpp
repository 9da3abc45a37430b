// The window's Tune tab on the fixture Redis: the fields it offers, the sweep its controls
// describe (and the errors of bad ones), a sweep run to the end with its heatmap, hovering and
// clicking a cell, Apply best.
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
        view.setRedisUrl(fixtureUrl());
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
        QVERIFY(view.statusText().contains(QStringLiteral("not connected")));
    }

    // rate 5..20 step 5 against 20/s for 2 s: accepted 10, 20, 30, 40; at least 25 accepted,
    // as few as can be: 15 per second (30) is best. Its cell's tool tip, a click on rate 10
    // (load and run), Apply best (load only).
    void runsClicksAndAppliesBest() {
        const QString name = uniqueName(QStringLiteral("tune"));
        const Scenario s = fixedWindowScenario(name);
        TuneView view;
        view.resize(800, 600);
        view.setScenario(s);
        view.setRedisUrl(fixtureUrl());
        view.setScenarioSource([s] { return std::optional<Scenario>(s); });
        view.xField()->setCurrentText(name + QStringLiteral(".rate"));
        view.xFrom()->setValue(5);
        view.xTo()->setValue(20);
        view.xStep()->setValue(5);
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
        QVERIFY2(view.statusText().contains(QStringLiteral("best: ")),
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
};

QTEST_MAIN(TestTuneView)
#include "tst_tune_view.moc"
