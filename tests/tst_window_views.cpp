// The window's views as a teacher uses them, offscreen against the fixture Redis, driven with
// the mouse and the keyboard: the Tune tab's results belong to the scenario they ran on, the
// Redis state tab goes on refreshing once a run is over, and the Decisions table keeps the
// limiter's answer in view with the Runs list open beside it.
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest>

#include "panels/explanation_view.h"
#include "panels/state_panel.h"
#include "run/run_controller.h"
#include "support/test_redis.h"
#include "support/window_driving.h"
#include "tune/sweep_chart_view.h"
#include "tune/tune_view.h"
#include "window/decision_panel.h"
#include "window/main_window.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// Replaces a spin box's value as a user would: click in it, select all, type, Enter.
void retypeSpin(QSpinBox* box, int value) {
    QTest::mouseClick(box, Qt::LeftButton);
    QTest::keyClick(box, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(box, QString::number(value));
    QTest::keyClick(box, Qt::Key_Return);
    QCOMPARE(box->value(), value);
}

// Opens the shipped example `name` from File → Examples (what a click on its entry does).
void openExample(MainWindow& w, const QString& name) {
    auto* menu = w.findChild<QMenu*>(QStringLiteral("examplesMenu"));
    QVERIFY(menu);
    for (QAction* action : menu->actions()) {
        if (action->text() == name) {
            action->trigger();
            return;
        }
    }
    QFAIL(qPrintable(QStringLiteral("no example ") + name));
}

QStringList limiterNames(const MainWindow& w) {
    const Scenario scenario = w.currentScenario().value_or(Scenario());
    QStringList names;
    for (const LimiterSpec& spec : scenario.limiters)
        names << spec.name;
    return names;
}

// A sliding window log of 5 per minute under 10 requests/s for 2 s, virtual time at full speed:
// its one key lives a minute after the run.
Scenario slidingScenario(const QString& name) {
    return parseScenarioJson(
        QStringLiteral(R"({"name": "views", "limiters": [{"type": "sliding_window", "name": "%1",
            "rules": [{"limit": 5, "window_ms": 60000}]}],
            "traffic": {"shape": {"type": "constant", "rate": 10}, "duration_s": 2,
                        "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z",
                                  "speed": 0}}})")
            .arg(name)
            .toUtf8(),
        QString());
}

}  // namespace

class TestWindowViews : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ratelab-test-views"));
        QSettings().clear();
        qRegisterMetaType<RunSnapshot>();
    }

    // The Tune tab swept the login example; another example opened kept the heatmap and its
    // best, and Apply best wrote login's limiters into it. Now opening a scenario clears the
    // tab's results: nothing to apply, the opened limiters stay.
    void tuneResultsBelongToTheirScenario() {
        MainWindow w;
        w.resize(1024, 700);
        w.show();
        connectToFixture(w);
        openExample(w, QStringLiteral("login-tuning-sweep"));
        QCOMPARE(limiterNames(w), QStringList{QStringLiteral("login-attempts")});
        TuneView* tune = w.tuneView();
        clickTab(w.views(), tune);
        // The example's own sweep, cut to the 2 x 2 combinations around its best (5, 20).
        retypeSpin(tune->xFrom(), 4);
        retypeSpin(tune->xTo(), 5);
        retypeSpin(tune->yFrom(), 15);
        retypeSpin(tune->yTo(), 20);
        QSignalSpy swept(tune, &TuneView::sweepFinished);
        QTest::mouseClick(tune->runButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(swept.count(), 1, 120000);
        QCOMPARE(tune->chart()->table().combinations.size(), 4);
        QVERIFY2(tune->applyBestButton()->isEnabled(), qPrintable(tune->statusText()));

        openExample(w, QStringLiteral("three-limiters-live"));
        const QStringList opened = limiterNames(w);
        QVERIFY(!opened.contains(QStringLiteral("login-attempts")));
        QVERIFY(!tune->applyBestButton()->isEnabled());
        QVERIFY(tune->chart()->table().combinations.isEmpty());
        QVERIFY2(tune->statusText().isEmpty(), qPrintable(tune->statusText()));
        // Nor does it keep login's objective and constraint (its groups are not this one's).
        QCOMPARE(tune->metricBox()->currentText(), QStringLiteral("accepted"));
        QVERIFY(tune->constraints()->text().isEmpty());
        QTest::mouseClick(tune->applyBestButton(), Qt::LeftButton);
        QCOMPARE(limiterNames(w), opened);
        QVERIFY(!w.isWindowModified());
    }

    // The Redis state tab read the keys once when a run ended and then froze: the TTL shown
    // stood still while Redis's ran on. Shown, it now goes on listing them.
    void stateTabRefreshesAfterTheRun() {
        MainWindow w;
        w.resize(1024, 700);
        w.show();
        connectToFixture(w);
        const Scenario s = slidingScenario(uniqueName(QStringLiteral("state-ttl")));
        w.setScenario(s);
        QSignalSpy finished(w.controller(), &RunController::finished);
        pressKey(w, Qt::Key_F5);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        auto* panel = w.findChild<StatePanel*>();
        QVERIFY(panel);
        clickTab(w.views(), panel);
        const auto ttl = [panel] {
            const QStringList rows = panel->rows(0);
            return rows.isEmpty() ? QString() : rows.first().section(QLatin1Char('|'), 2, 2);
        };
        QTRY_VERIFY_WITH_TIMEOUT(ttl().endsWith(QStringLiteral(" s")), 10000);
        const QString first = ttl();
        const qint64 reads = w.controller()->keyListingReads();
        // Listed again while shown (2 Hz): the TTL counts down.
        QTRY_VERIFY_WITH_TIMEOUT(w.controller()->keyListingReads() >= reads + 2, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(ttl() != first && ttl().endsWith(QStringLiteral(" s")), 10000);
        makeLimiter(s.limiters[0])->reset(*routeFixture());
        w.setWindowModified(false);
    }

    // With the Runs list open beside the step decisions at 1024x700 the table showed the
    // time, client, permits and limiter and cut off Allowed, retry_after_ms and Remaining. The
    // answer now comes first and the explanation goes below the table when both do not fit.
    void decisionsKeepTheAnswerBesideTheRuns() {
        MainWindow w;
        w.resize(1024, 700);
        w.show();
        connectToFixture(w);
        const Scenario s = slidingScenario(uniqueName(QStringLiteral("decision-columns")));
        w.setScenario(s);
        QSignalSpy finished(w.controller(), &RunController::finished);
        pressKey(w, Qt::Key_F5);  // a run for the Runs list
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QSignalSpy decided(w.controller(), &RunController::decided);
        pressKey(w, Qt::Key_F10);
        QTRY_COMPARE_WITH_TIMEOUT(decided.count(), 1, 10000);
        clickToolButton(w, w.runsDock()->toggleViewAction());
        QTRY_VERIFY(w.runsDock()->isVisible());
        QTableWidget* table = w.decisions()->table();
        const auto cut = [table] {
            QStringList hidden;
            for (int column : {DecisionPanel::kLimiter, DecisionPanel::kAllowed,
                               DecisionPanel::kRetryAfter, DecisionPanel::kRemaining}) {
                const int right = table->horizontalHeader()->sectionViewportPosition(column) +
                                  table->horizontalHeader()->sectionSize(column);
                if (!table->isVisible() || right > table->viewport()->width())
                    hidden << table->horizontalHeaderItem(column)->text();
            }
            return hidden.join(QStringLiteral(", "));
        };
        QTRY_VERIFY2(cut().isEmpty(), qPrintable(cut()));
        // The explanation keeps a readable width, beside or below the table.
        QVERIFY(w.decisions()->explanation()->width() >= DecisionPanel::kExplanationMinWidth ||
                w.decisions()->explanation()->y() >= table->geometry().bottom());
        makeLimiter(s.limiters[0])->reset(*routeFixture());
        w.setWindowModified(false);
    }
};

QTEST_MAIN(TestWindowViews)
#include "tst_window_views.moc"
