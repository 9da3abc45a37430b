// Every decision explained in the window: a step session that explains its steps (the keys
// before and after, the reason, headers and counterfactuals, its scratch keys deleted after),
// the Decisions panel showing the selected decision's explanation, a click on a virtual run's
// timeline asking for the nearest request's explanation (a drag does not), and the window
// answering it in the "Why?" dialog.
#include <QApplication>
#include <QDateTime>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest>

#include "charts/timeline_chart.h"
#include "panels/explanation_view.h"
#include "run/run_controller.h"
#include "run/run_view.h"
#include "run/step_session.h"
#include "support/test_redis.h"
#include "window/connection_bar.h"
#include "window/decision_panel.h"
#include "window/explanation_dialog.h"
#include "window/main_window.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// A fixed window of 3 per second and a two-rule log under 10 requests/s from one client, on a
// virtual clock: the fourth request of the first second is refused by both.
Scenario steppedScenario(double speed) {
    Scenario s = parseScenarioJson(
        R"({"name": "explained steps",
            "limiters": [
              {"type": "fixed_window", "name": "fw", "rate": 3, "interval": 1, "unit": "seconds",
               "timezone": "UTC"},
              {"type": "sliding_window", "name": "log",
               "rules": [{"limit": 3, "window_ms": 1000}, {"limit": 5, "window_ms": 10000}]}],
            "traffic": {"shape": {"type": "constant", "rate": 10}, "duration_s": 2,
                        "clock": {"type": "virtual", "start": "2024-03-01T08:00:00.000Z",
                                  "speed": 1}}})",
        QString());
    for (LimiterSpec& spec : s.limiters) {
        spec.name = uniqueName(spec.name);
    }
    s.traffic.clock.speed = speed;
    return s;
}

// The explainers' scratch keys of `scenario`'s limiters (their names end in the limiter's).
long long scratchKeys(const Scenario& scenario) {
    long long n = 0;
    for (const LimiterSpec& spec : scenario.limiters) {
        n += qint64(connectFixture()
                        ->command({"KEYS", "*explain-*" + spec.name.toStdString() + "*"})
                        ->elements);
    }
    return n;
}

}  // namespace

class TestExplainWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ratelab-test-explain"));
    }

    // Each step explained per limiter, the explanation's decision the step's own.
    void stepsAreExplained() {
        const Scenario scenario = steppedScenario(1);
        std::vector<LimiterSpec> scratch;
        {
            StepSession session(scenario, fixtureUrl(), true);
            scratch = session.scratchLimiters();
            QCOMPARE(int(scratch.size()), 4);  // before and probe, per limiter
            for (int k = 0; k < 4; ++k) {
                const StepSession::Step step = session.next();
                QCOMPARE(int(step.explanations.size()), 2);
                for (size_t l = 0; l < 2; ++l) {
                    const std::optional<Explanation>& e = step.explanations[l];
                    QVERIFY(e.has_value());
                    QCOMPARE(e->decision.allowed, step.decisions[l].allowed);
                    QCOMPARE(e->decision.retryAfterMs, step.decisions[l].retryAfterMs);
                    QCOMPARE(e->index, step.index);
                    QVERIFY(!e->reason.isEmpty());
                    QCOMPARE(e->spec.name, scenario.limiters[int(l)].name);
                    QVERIFY(!e->stateAfter.isEmpty());  // every decision here writes
                    QCOMPARE(e->passesAtMs, e->decision.allowed
                                                ? e->request.nowMs
                                                : e->request.nowMs + e->decision.retryAfterMs);
                    if (k == 3) {
                        QVERIFY(!e->decision.allowed);
                        QVERIFY(!e->stateBefore.isEmpty());
                        QVERIFY(e->headers.last().startsWith(QStringLiteral("Retry-After: ")));
                    }
                }
            }
            QVERIFY(scratchKeys(scenario) > 0);
        }
        // Whoever holds the session deletes its scratch keys (the window: on the I/O thread).
        auto router = routeFixture();
        for (const LimiterSpec& spec : scratch) {
            makeLimiter(spec)->reset(*router);
        }
        QCOMPARE(scratchKeys(scenario), 0LL);
        for (const LimiterSpec& spec : scenario.limiters) {
            makeLimiter(spec)->reset(*router);
        }
    }

    // The newest step's first decision is explained at once; selecting another row shows its.
    void panelShowsTheSelectedDecision() {
        const Scenario scenario = steppedScenario(1);
        StepSession session(scenario, fixtureUrl(), true);
        DecisionPanel panel;
        const QStringList names{scenario.limiters[0].name, scenario.limiters[1].name};
        StepSession::Step last;
        for (int k = 0; k < 4; ++k) {
            last = session.next();
            panel.addStep(last, names);
        }
        QCOMPARE(panel.table()->currentRow(), 0);
        QVERIFY2(panel.explanation()->plainText().contains(last.explanations[0]->reason),
                 qPrintable(panel.explanation()->plainText()));
        QVERIFY(panel.explanation()->plainText().contains(QStringLiteral("refused")));
        QVERIFY(panel.explanation()->plainText().contains(QStringLiteral("Redis just before")));
        panel.table()->selectRow(1);  // the same request's log decision
        QVERIFY(panel.explanation()->plainText().contains(QStringLiteral("rule 1 of 2")));
        // A failed decision has nothing to explain, and says so.
        StepSession::Step failed = last;
        failed.errors = QStringList{QStringLiteral("connection refused"), QString()};
        failed.explanations[0].reset();
        panel.addStep(failed, names);
        QVERIFY(panel.explanation()->plainText().contains(QStringLiteral("failed")));
        panel.clear();
        QCOMPARE(panel.table()->rowCount(), 0);
        for (const LimiterSpec& spec : session.scratchLimiters()) {
            makeLimiter(spec)->reset(*routeFixture());
        }
    }

    // A click on an explainable chart's plot asks for that run time; a drag or a chart of a
    // real-clock run does not.
    void clickAsksForAnExplanation_data() {
        QTest::addColumn<bool>("explainable");
        QTest::addColumn<int>("dragPx");
        QTest::addColumn<bool>("asked");
        QTest::newRow("click") << true << 0 << true;
        QTest::newRow("drag") << true << 40 << false;
        QTest::newRow("real clock") << false << 0 << false;
    }
    void clickAsksForAnExplanation() {
        QFETCH(bool, explainable);
        QFETCH(int, dragPx);
        QFETCH(bool, asked);
        TimelineChart chart;
        chart.resize(800, 300);
        chart.setLimiter(steppedScenario(0).limiters[0], 1, 100, 0);
        chart.setDurationSeconds(2);
        chart.setExplainable(explainable);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QSignalSpy spy(&chart, &TimelineChart::explainRequested);
        const QRectF plot = chart.chart()->plotArea();
        const QPoint at = chart.mapFromScene(plot.center());
        QTest::mousePress(chart.viewport(), Qt::LeftButton, {}, at);
        QTest::mouseRelease(chart.viewport(), Qt::LeftButton, {}, at + QPoint(dragPx, 0));
        QCOMPARE(spy.count(), asked ? 1 : 0);
        if (asked) {
            // The middle of a 0..2 s axis.
            QVERIFY(std::abs(spy.at(0).at(0).toDouble() - 1.0) < 0.05);
        }
    }

    // The window: a finished virtual run's timeline clicked at 0.35 s explains the request
    // there (the fourth of the first second, refused) in the "Why?" dialog.
    void windowExplainsAClickedRequest() {
        MainWindow w;
        w.connectionBar()->setUseManagedServer(false);
        w.connectionBar()->setUrlText(qEnvironmentVariable("REDIS_URL"));
        w.connectionBar()->connectToRedis();
        QTRY_VERIFY_WITH_TIMEOUT(w.connectionBar()->connected(), 10000);
        const Scenario scenario = steppedScenario(0);
        w.setScenario(scenario);
        QSignalSpy finished(w.controller(), &RunController::finished);
        w.startAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY(w.timelines().value(0)->explainable());
        QSignalSpy explained(w.controller(), &RunController::explained);
        emit w.runView()->explainRequested(0, 0.35);
        QTRY_COMPARE_WITH_TIMEOUT(explained.count(), 1, 20000);
        auto* dialog = w.findChild<ExplanationDialog*>(QStringLiteral("explanationDialog"));
        QVERIFY(dialog && dialog->isVisible());
        const QString shown = dialog->view()->plainText();
        QVERIFY2(shown.contains(QStringLiteral("refused")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("held 3 of 3")), qPrintable(shown));
        // Numbered from 0, as `ratelab explain --request` numbers it, and said so.
        QVERIFY2(shown.contains(QStringLiteral("Request #3 ")), qPrintable(shown));
        QVERIFY2(shown.contains(
                     QStringLiteral("--limiter %1 --request 3").arg(scenario.limiters[0].name)),
                 qPrintable(shown));
        // A global limiter says whose grants counted: the one client's three.
        QVERIFY2(shown.contains(QStringLiteral("Grants that counted against it, by client: c0: 3")),
                 qPrintable(shown));
        QCOMPARE(scratchKeys(scenario), 0LL);
        for (const LimiterSpec& spec : scenario.limiters) {
            makeLimiter(spec)->reset(*routeFixture());
        }
        w.setWindowModified(false);
    }
};

QTEST_MAIN(TestExplainWindow)
#include "tst_explain_window.moc"
