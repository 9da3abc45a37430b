// Step in the window as a teacher drives it, offscreen against the fixture Redis, with the
// keyboard (F5 Start, F10 Step) and the mouse: a new step session draws only what it decided
// (not the finished run's window counts), the window that a step fills shows its count and the
// step's mark, requests are numbered from 0 as `ratelab explain --request` numbers them, and a
// scenario opened again or edited steps from its first request. The steps' labels, the window
// counts and the spans stay above the bars.
#include <QAreaSeries>
#include <QDir>
#include <QGraphicsSimpleTextItem>
#include <QLineEdit>
#include <QLineSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "charts/timeline_chart.h"
#include "editors/limiter_list_editor.h"
#include "explain/explanation_output.h"
#include "panels/explanation_view.h"
#include "run/run_controller.h"
#include "scenario/scenario.h"
#include "support/cli_process.h"
#include "support/test_files.h"
#include "support/test_redis.h"
#include "support/timeline_runs.h"
#include "support/window_driving.h"
#include "window/decision_panel.h"
#include "window/main_window.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// A fixed window of `rate` per second under `perSecond` requests/s from one client for
// `seconds`, on a virtual clock at full speed from 2024-01-01T00:00:00Z.
QByteArray fixedWindowJson(const QString& name, int rate, int perSecond, int seconds) {
    return QStringLiteral(
               R"({"name": "stepping", "limiters": [{"type": "fixed_window", "name": "%1",
                   "rate": %2, "interval": 1, "unit": "seconds", "timezone": "UTC"}],
                   "traffic": {"shape": {"type": "constant", "rate": %3}, "duration_s": %4,
                               "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z",
                                         "speed": 0}}, "bucket_ms": 100})")
        .arg(name)
        .arg(rate)
        .arg(perSecond)
        .arg(seconds)
        .toUtf8();
}

// A fixed window `name` of 3 per second under 10 requests/s for 2 s, written to `path` and opened
// in `w` (shown at 1400x900, on the fixture); false when it did not open.
bool openThreePerSecond(MainWindow& w, const QString& path, const QString& name) {
    writeTestFile(path, fixedWindowJson(name, 3, 10, 2));
    w.resize(1400, 900);
    w.show();
    connectToFixture(w);
    return w.openScenario(path);
}

// F10 until `decided` has counted `total` steps.
void stepUntil(MainWindow& w, QSignalSpy& decided, int total) {
    while (decided.count() < total) {
        const int next = int(decided.count()) + 1;
        pressKey(w, Qt::Key_F10);
        QTRY_COMPARE_WITH_TIMEOUT(int(decided.count()), next, 10000);
    }
}

// The shipped boundary example (its limiters renamed: other tests run it) set in `w`, shown at
// `size` on the fixture.
Scenario setBoundaryExample(MainWindow& w, const QSize& size) {
    w.resize(size);
    w.show();
    connectToFixture(w);
    Scenario s =
        loadScenarioFile(exampleScenarioPath(QStringLiteral("fixed-window-boundary-burst.json")));
    for (LimiterSpec& spec : s.limiters)
        spec.name = uniqueName(spec.name);
    w.setScenario(s);
    return s;
}

void resetKeys(const Scenario& scenario) {
    auto router = routeFixture();
    for (const LimiterSpec& spec : scenario.limiters)
        makeLimiter(spec)->reset(*router);
}

// The scene y of the top of the tallest bar drawn (accepted, rejected and errors stacked).
double barsTopY(const TimelineChart& chart) {
    double top = std::numeric_limits<double>::max();
    for (QAbstractSeries* series : chart.chart()->series()) {
        auto* area = qobject_cast<QAreaSeries*>(series);
        if (area == nullptr || !area->isVisible())
            continue;
        for (const QPointF& p : area->upperSeries()->points())
            top =
                std::min(top, chart.chart()->mapToScene(chart.chart()->mapToPosition(p, area)).y());
    }
    return top;
}

// The labels drawn in the plot that reach down into the tallest bar's height, with where.
QStringList labelsOverTheBars(const TimelineChart& chart) {
    const double bars = barsTopY(chart);
    const QRectF plot = chart.chart()->mapRectToScene(chart.chart()->plotArea());
    QStringList over;
    for (QGraphicsItem* item : chart.scene()->items()) {
        auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item);
        if (text == nullptr || !text->isVisible() || !plot.intersects(text->sceneBoundingRect()))
            continue;
        const QRectF label = text->parentItem()->sceneBoundingRect();
        if (label.bottom() > bars + 0.5)
            over << QStringLiteral("\"%1\" down to y %2 (bars from y %3)")
                        .arg(text->text())
                        .arg(label.bottom())
                        .arg(bars);
    }
    return over;
}

}  // namespace

class TestWindowStepping : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ratelab-test-stepping"));
        QSettings().clear();
        qRegisterMetaType<RunSnapshot>();
        qRegisterMetaType<StepSession::Step>();
    }

    // After a finished run Step started a new session, yet the timeline kept the run's window
    // counts: the windows no step had reached read "10/10". Now a new session's timeline shows
    // only what it decided: one request, one window counted, one mark.
    void stepAfterRunDrawsOnlyTheStep() {
        MainWindow w;
        w.resize(1024, 700);
        w.show();
        connectToFixture(w);
        const Scenario s = parseScenarioJson(
            fixedWindowJson(uniqueName(QStringLiteral("after-run")), 10, 15, 3), QString());
        w.setScenario(s);
        QSignalSpy finished(w.controller(), &RunController::finished);
        pressKey(w, Qt::Key_F5);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        TimelineChart* chart = w.timelines().value(0);
        QTRY_COMPARE(chart->windowLabels(), QStringList(3, QStringLiteral("10/10")));

        QSignalSpy decided(w.controller(), &RunController::decided);
        stepUntil(w, decided, 1);
        QCOMPARE(w.lastSnapshot().limiters.value(0).fired, 1);
        QTRY_COMPARE(chart->windowLabels(), QStringList{QStringLiteral("1/10")});
        QCOMPARE(chart->model().markers().size(), 1);
        QCOMPARE(chart->model().markers()[0].label, QStringLiteral("request #0: allowed"));
        resetKeys(s);
        w.setWindowModified(false);
    }

    // The shipped boundary example at 1024x700: ten requests at run time 0 fill the first
    // window, a sliver of 100 ms on a 3 s axis. Its count and the steps' mark vanished at the
    // tenth step, the one that fills it: "10" was wider than the sliver, the merged mark wider
    // than the plot. Both now stay in the plot.
    void theStepThatFillsTheWindowShowsIt() {
        MainWindow w;
        const Scenario s = setBoundaryExample(w, QSize(1024, 700));
        QSignalSpy decided(w.controller(), &RunController::decided);
        TimelineChart* chart = w.timelines().value(0);
        for (int k = 1; k <= 10; ++k) {
            stepUntil(w, decided, k);
            const QString count = QString::number(k);
            QTRY_VERIFY2(chart->windowLabels().contains(count + QStringLiteral("/10")),
                         qPrintable(chart->windowLabels().join(QLatin1Char(' '))));
            const QStringList drawn = textsInPlot(*chart);
            QVERIFY2(
                drawn.contains(count) || drawn.contains(count + QStringLiteral("/10")),
                qPrintable(
                    QStringLiteral("step %1: %2").arg(k).arg(drawn.join(QStringLiteral(" | ")))));
            const QString newest = QStringLiteral("request #%1: allowed").arg(k - 1);
            QVERIFY2(
                std::any_of(drawn.cbegin(), drawn.cend(),
                            [&](const QString& t) { return t.endsWith(newest); }),
                qPrintable(
                    QStringLiteral("step %1: %2").arg(k).arg(drawn.join(QStringLiteral(" | ")))));
        }
        resetKeys(s);
        w.setWindowModified(false);
    }

    // The steps' labels were drawn at the plot's foot, over the bars they label, and the steps at
    // the instant a bucket starts (ten requests at run time 0 in the boundary example) drew no
    // bar at all. The bars now show from the first step, and the axis leaves rows above them
    // for every label: the steps' marks, the window counts and the spans.
    void stepLabelsLieAboveTheBars_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1024x700") << QSize(1024, 700);
        QTest::newRow("1400x900") << QSize(1400, 900);
    }
    void stepLabelsLieAboveTheBars() {
        QFETCH(QSize, size);
        MainWindow w;
        const Scenario s = setBoundaryExample(w, size);
        QSignalSpy decided(w.controller(), &RunController::decided);
        for (int k : {3, 10, 12, 16}) {
            stepUntil(w, decided, k);
            for (TimelineChart* chart : w.timelines()) {
                QTRY_VERIFY(!chart->model().markers().isEmpty());
                // The requests of the step's bucket are drawn (they were not while the steps
                // stayed at the instant their bucket starts).
                QVERIFY2(barsTopY(*chart) < std::numeric_limits<double>::max(),
                         qPrintable(QStringLiteral("step %1: no bar drawn").arg(k)));
                QVERIFY2(!textsInPlot(*chart).isEmpty(), "no label drawn");
                const QStringList over = labelsOverTheBars(*chart);
                QVERIFY2(over.isEmpty(), qPrintable(QStringLiteral("step %1, %2: %3")
                                                        .arg(k)
                                                        .arg(chart->model().spec().name,
                                                             over.join(QStringLiteral("; ")))));
            }
        }
        resetKeys(s);
        w.setWindowModified(false);
    }

    // The window said "Request #4" for what `ratelab explain --request 3` explains. Now both
    // number from 0: the explanation, its mark, Continue's tooltip and the command line name
    // one request alike, and both say the counterfactuals are each setting alone, from the same
    // state.
    void requestsAreNumberedAsTheCommandLineDoes() {
        QTemporaryDir dir;
        const QString name = uniqueName(QStringLiteral("numbered"));
        const QString path = dir.filePath(QStringLiteral("numbered.json"));
        MainWindow w;
        QVERIFY(openThreePerSecond(w, path, name));
        QSignalSpy decided(w.controller(), &RunController::decided);
        stepUntil(w, decided, 4);
        const QString shown = w.decisions()->explanation()->plainText();
        QVERIFY2(shown.contains(QStringLiteral("refused")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("Request #3 at 00:00:00.300")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("numbered from 0")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("--limiter %1 --request 3").arg(name)),
                 qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("What would have let it through (%1)")
                                    .arg(counterfactualBasisText())),
                 qPrintable(shown));
        QCOMPARE(w.timelines().value(0)->model().markers().last().label.section(
                     QStringLiteral(" · "), -1),
                 QStringLiteral("request #3: rejected"));
        QVERIFY2(w.startAction()->toolTip().contains(QStringLiteral("from request #4")),
                 qPrintable(w.startAction()->toolTip()));

        const CliResult cli =
            runRatelab({QStringLiteral("explain"), path, QStringLiteral("--limiter"), name,
                        QStringLiteral("--request"), QStringLiteral("3"), QStringLiteral("--redis"),
                        qEnvironmentVariable("REDIS_URL")});
        const QString out = QString::fromUtf8(cli.out);
        QCOMPARE(cli.exitCode, 0);
        QVERIFY2(out.contains(QStringLiteral("request #3 (0-based, schedule order): 00:00:00.300")),
                 qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("decision: refused")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("what would have let it through (%1)")
                                  .arg(counterfactualBasisText())),
                 qPrintable(out));
        resetKeys(w.currentScenario().value());
        w.setWindowModified(false);
    }

    // A gateway of mode local explains on its own "<name>@g<g>"; the command line that explains
    // the same request names the scenario's limiter.
    void localGatewayCommandNamesTheScenarioLimiter() {
        Explanation e;
        e.spec.name = QStringLiteral("api@edge@g1");
        e.spec.gateway.mode = GatewayMode::Local;
        e.index = 7;
        ExplanationView view;
        view.show(e, QString());
        QVERIFY2(view.plainText().contains(QStringLiteral("--limiter api@edge --request 7")),
                 qPrintable(view.plainText()));
    }

    // Opening the same file again went on with the old step session (request #3 next, on the
    // old keys), and so did Step after an edit, deciding on the limiter as it was. Each now
    // starts a new session from request #0.
    void reopenedOrEditedScenarioStepsAnew() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("reopened.json"));
        MainWindow w;
        QVERIFY(openThreePerSecond(w, path, uniqueName(QStringLiteral("reopened"))));
        QSignalSpy decided(w.controller(), &RunController::decided);
        stepUntil(w, decided, 3);
        QCOMPARE(w.startAction()->text(), QStringLiteral("Continue"));

        QVERIFY(w.openScenario(path));  // the same example again
        QCOMPARE(w.startAction()->text(), QStringLiteral("Start"));
        stepUntil(w, decided, 4);
        auto step = decided.last().at(0).value<StepSession::Step>();
        QCOMPARE(step.index, 0);
        QVERIFY(step.decisions.at(0).allowed);
        QCOMPARE(step.decisions.at(0).remaining, 2);  // fresh keys: 1 of 3 used
        QCOMPARE(w.decisions()->requestCount(), 1);
        QCOMPARE(w.timelines().value(0)->model().markers().size(), 1);

        // Edited (the rate typed in the editor): the next step is the edited limiter's first.
        stepUntil(w, decided, 5);
        auto* rate =
            w.findChild<LimiterListEditor*>()->findChild<QLineEdit*>(QStringLiteral("rate"));
        QVERIFY(rate);
        retype(rate, QStringLiteral("5"));
        QCOMPARE(w.currentScenario()->limiters[0].rate, 5);
        stepUntil(w, decided, 6);
        step = decided.last().at(0).value<StepSession::Step>();
        QCOMPARE(step.index, 0);
        QCOMPARE(step.decisions.at(0).remaining, 4);  // 1 of the edited 5 used
        QCOMPARE(w.decisions()->requestCount(), 1);
        resetKeys(w.currentScenario().value());
        w.setWindowModified(false);
    }
};

QTEST_MAIN(TestWindowStepping)
#include "tst_window_stepping.moc"
