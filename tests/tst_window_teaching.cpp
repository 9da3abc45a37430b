// The views a teacher shows, driven in the window as a person does (the keyboard, the tabs) and
// read from what is drawn: the concurrency limiter's requests in flight against its in-flight
// limit, with its releases and leaked grants; each gateway's admissions and the Redis calls.
#include <QAreaSeries>
#include <QFile>
#include <QHeaderView>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QValueAxis>
#include <QtTest>

#include "charts/timeline_chart.h"
#include "limiters/limiter.h"
#include "panels/comparison_bars.h"
#include "panels/comparison_table.h"
#include "panels/comparison_view.h"
#include "panels/gateway_view.h"
#include "run/run_controller.h"
#include "run/run_view.h"
#include "scenario/example_paths.h"
#include "scenario/scenario.h"
#include "support/table_checks.h"
#include "support/test_redis.h"
#include "support/timeline_runs.h"
#include "support/window_driving.h"
#include "traffic/traffic_spec.h"
#include "window/main_window.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// The shipped concurrency example (20 in flight, leases of 2000 ms, holds of about 200 ms, 5 %
// leaked) cut to 5 s under a name of its own.
Scenario inFlightScenario() {
    return parseScenarioJson(
        QStringLiteral(
            R"({"name": "in flight", "limiters": [{"type": "concurrency", "name": "%1",
            "scope": "global", "limit": 20, "lease_ms": 2000}],
            "traffic": {"shape": {"type": "poisson", "rate": 100}, "duration_s": 5,
                        "clients": 5, "mode": "try", "seed": 7,
                        "clock": {"type": "virtual", "start": "2025-11-26T09:00:00Z", "speed": 0},
                        "hold": {"type": "exponential", "mean_ms": 200}, "leak_pct": 5},
            "bucket_ms": 100})")
            .arg(uniqueName(QStringLiteral("in-flight")))
            .toUtf8(),
        QString());
}

// The shipped gateways example (three round-robin gateways before a shared sliding log, three
// node-local ones and a shared one caching refusals) cut to 4 s under names of its own.
Scenario gatewaysScenario() {
    const QString prefix = uniqueName(QStringLiteral("gw"));
    return parseScenarioJson(QStringLiteral(
                                 R"({"name": "gateways", "limiters": [
            {"type": "sliding_window", "name": "%1-shared", "scope": "per_client",
             "rules": [{"limit": 10, "window_ms": 1000}]},
            {"type": "sliding_window", "name": "%1-node-local", "scope": "per_client",
             "rules": [{"limit": 10, "window_ms": 1000}], "gateway": {"mode": "local"}},
            {"type": "sliding_window", "name": "%1-cached", "scope": "per_client",
             "rules": [{"limit": 10, "window_ms": 1000}],
             "gateway": {"mode": "shared", "cache_refusals": true}}],
            "traffic": {"shape": {"type": "poisson", "rate": 200}, "duration_s": 4,
                        "clients": 4, "mode": "try", "seed": 3,
                        "clock": {"type": "virtual", "start": "2025-11-26T09:00:00Z", "speed": 0},
                        "gateways": {"count": 3, "balance": "round_robin"}},
            "bucket_ms": 1000})")
                                 .arg(prefix)
                                 .toUtf8(),
                             QString());
}

// A shipped example under names of its names' lengths, so that no other test's run of it shares
// its keys.
Scenario example(const QString& file) {
    Scenario s;
    for (const QString& dir : exampleScenarioDirs()) {
        if (QFile::exists(dir + QLatin1Char('/') + file)) {
            s = loadScenarioFile(dir + QLatin1Char('/') + file);
            break;
        }
    }
    const QString tag = uniqueName(QString()).right(4);
    for (LimiterSpec& spec : s.limiters)
        spec.name = spec.name.left(std::max<int>(int(spec.name.size()) - 4, 1)) + tag;
    return s;
}

}  // namespace

class TestWindowTeaching : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ratelab-test-teaching"));
        QSettings().clear();
        qRegisterMetaType<RunSnapshot>();
    }

    // The concurrency limiter's timeline drew a rate of 20 per 2 s under 50-90 grants a second,
    // as if it leaked. Now it draws the requests in flight, never above its 20, the releases
    // that make room, and a mark at each step with grants that never release.
    void concurrencyDrawsRequestsInFlight() {
        MainWindow w;
        w.resize(1024, 700);
        w.show();
        connectToFixture(w);
        const Scenario s = inFlightScenario();
        w.setScenario(s);
        QSignalSpy finished(w.controller(), &RunController::finished);
        pressKey(w, Qt::Key_F5);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        const LimiterSnapshot end = finished.first().first().value<RunSnapshot>().limiters[0];
        QVERIFY(end.accepted > 200);  // far more grants than 20 per lease
        QVERIFY(end.leases.leaked > 0);
        TimelineChart* chart = w.timelines().value(0);
        QVERIFY(chart);
        const TimelineInFlight& f = chart->inFlight();
        QVERIFY(!chart->limitSeries()->isVisible());
        QVERIFY(f.limitSeries()->isVisible());
        QCOMPARE(stepValues(f.limitSeries()->points()), QVector<double>{20});
        const QVector<double> inFlight = stepValues(f.inFlightSeries()->points());
        QVERIFY(!inFlight.isEmpty());
        const double most = *std::max_element(inFlight.begin(), inFlight.end());
        QVERIFY2(most <= 20 && most >= 10, qPrintable(QString::number(most)));
        // Every release and every leaked grant is drawn, each once.
        double released = 0;
        for (double r : stepValues(f.releasedSeries()->points()))
            released += r;
        QCOMPARE(qint64(released), end.leases.released + end.leases.lateReleases);
        qint64 leaked = 0;
        for (qint64 n : chart->model().inFlight(0, 5, chart->model().bucketMs()).leakedCounts)
            leaked += n;
        QCOMPARE(leaked, end.leases.leaked);
        QVERIFY(f.leakedSeries()->isVisible() && f.leakedSeries()->count() > 0);
        makeLimiter(s.limiters[0])->reset(*routeFixture());
        w.setWindowModified(false);
    }

    // Three node-local gateways admit three times the limit: the split was only a tooltip of
    // the Redis calls column. The Comparison tab now stacks each limiter's admissions by
    // gateway against what its limit admits over the run, with its Redis calls beside.
    void gatewaysAdmissionsAtAGlance() {
        MainWindow w;
        w.resize(1024, 700);
        w.show();
        connectToFixture(w);
        const Scenario s = gatewaysScenario();
        w.setScenario(s);
        QSignalSpy finished(w.controller(), &RunController::finished);
        pressKey(w, Qt::Key_F5);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        const RunSnapshot end = finished.first().first().value<RunSnapshot>();
        ComparisonView* comparison = w.runView()->comparisonView();
        clickTab(w.views(), comparison);
        GatewayView* gateways = comparison->gateways();
        QTRY_VERIFY(gateways->isVisible());
        const QVector<ComparisonBars::Bar> admitted = gateways->admitted()->bars();
        QCOMPARE(admitted.size(), 3);
        for (int i = 0; i < 3; ++i) {
            const ComparisonBars::Bar& bar = admitted[i];
            QCOMPARE(bar.name, s.limiters[i].name);
            QCOMPARE(bar.parts.size(), 3);
            QCOMPARE(qint64(bar.value), end.limiters[i].accepted);
            for (int g = 0; g < 3; ++g) {
                QCOMPARE(qint64(bar.parts[g]), end.limiters[i].gateways[g].accepted);
                QVERIFY(gateways->admitted()->partRect(i, g).width() > 0);
            }
        }
        // 10 per second for each of 4 clients over 4 s: 160. Shared holds to it, node-local
        // admits it once per gateway.
        QCOMPARE(admitted[0].reference, 160.0);
        QVERIFY2(admitted[0].value <= 160, qPrintable(admitted[0].text));
        QVERIFY2(admitted[1].value > 2.5 * admitted[0].value, qPrintable(admitted[1].text));
        QVERIFY2(admitted[1].text.contains(QStringLiteral("× the limit")),
                 qPrintable(admitted[1].text));
        QVERIFY(gateways->admitted()->barRect(1).right() > gateways->admitted()->referenceX(1));
        // Beside it: the calls each limiter's decisions made; cached refusals saved some.
        const QVector<ComparisonBars::Bar> calls = gateways->calls()->bars();
        QCOMPARE(calls.size(), 3);
        QCOMPARE(qint64(calls[2].value), end.limiters[2].redisCalls);
        QVERIFY(calls[2].value < calls[2].reference);
        QVERIFY2(calls[2].text.contains(QStringLiteral("saved")), qPrintable(calls[2].text));
        QCOMPARE(calls[0].value, calls[0].reference);  // the shared one calls Redis every time
        for (const LimiterSpec& spec : s.limiters)
            makeLimiter(spec)->reset(*routeFixture());

        // One gateway: nothing to split, the view goes.
        const Scenario one = quickBucketScenario(QStringLiteral("one-gateway"));
        w.setScenario(one);
        pressKey(w, Qt::Key_F5);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 60000);
        QTRY_VERIFY(!gateways->isVisible());
        makeLimiter(one.limiters[0])->reset(*routeFixture());
        w.setWindowModified(false);
    }

    // The script example's comparison at 1024 x 700 read "Firec" for Fired, "script …" for
    // the scripts' type and "built-i…" for the built-in log's name. Every header, name and
    // figure now reads whole.
    void scriptComparisonWholeAt1024() {
        MainWindow w;
        w.resize(1024, 700);
        w.show();
        connectToFixture(w);
        Scenario s = example(QStringLiteral("scripts-sliding-logs.json"));
        s.traffic.durationS = 3;
        QCOMPARE(s.limiters.size(), 3);
        w.setScenario(s);
        QSignalSpy finished(w.controller(), &RunController::finished);
        pressKey(w, Qt::Key_F5);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        ComparisonView* comparison = w.runView()->comparisonView();
        clickTab(w.views(), comparison);
        auto* table = comparison->table()->findChild<QTableWidget*>(QStringLiteral("comparison"));
        QVERIFY(table);
        QString cut;
        QTRY_VERIFY2(columnsWhole(table, &cut), qPrintable(cut));
        for (const LimiterSpec& spec : s.limiters)
            makeLimiter(spec)->reset(*routeFixture());
        w.setWindowModified(false);
    }

    // The login example's timeline scaled its axis to the per-client limit times 96 clients
    // (120 per step) and left its 17 or so requests a step in the bottom fifth. A limit that far
    // above the counts is now said in the legend and the axis is the counts'.
    void countsFillTheAxisUnderAFarLimit() {
        MainWindow w;
        w.resize(1024, 700);
        w.show();
        connectToFixture(w);
        Scenario s = example(QStringLiteral("login-users-and-attacker.json"));
        s.traffic.durationS = 4;
        w.setScenario(s);
        QSignalSpy finished(w.controller(), &RunController::finished);
        pressKey(w, Qt::Key_F5);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        TimelineChart* chart = w.timelines().value(0);
        QVERIFY(chart);
        double fired = 0;
        for (const QPointF& p : chart->rejectedSeries()->points())
            fired = std::max(fired, p.y());
        QValueAxis* axis = nullptr;
        for (QAbstractAxis* a : chart->rejectedArea()->attachedAxes()) {
            if (a->alignment() == Qt::AlignLeft)
                axis = qobject_cast<QValueAxis*>(a);
        }
        QVERIFY(axis);
        QVERIFY2(fired >= axis->max() / 4,
                 qPrintable(QStringLiteral("%1 of %2").arg(fired).arg(axis->max())));
        QVERIFY2(chart->limitSeries()->name().contains(QStringLiteral("above the plot")),
                 qPrintable(chart->limitSeries()->name()));
        QVERIFY(chart->limitSeries()->points().value(0).y() > axis->max());
        makeLimiter(s.limiters[0])->reset(*routeFixture());
        w.setWindowModified(false);
    }

    // Paused on a real clock, the run went on and ended unseen: the timeline kept its bars of
    // the moment of the pause and marked the whole run's admitted burst over them. The notes of
    // the whole run now wait with the bars, and both come on resume.
    void pausedViewWaitsForTheWholeRunsNotes() {
        MainWindow w;
        w.resize(1024, 700);
        w.show();
        connectToFixture(w);
        Scenario s = quickBucketScenario(QStringLiteral("paused-end"));
        s.traffic.clock = ClockSpec{};  // a real clock: Pause freezes only the view
        s.traffic.durationS = 2;
        w.setScenario(s);
        QSignalSpy finished(w.controller(), &RunController::finished);
        pressKey(w, Qt::Key_F5);
        TimelineChart* chart = w.timelines().value(0);
        QVERIFY(chart);
        QTRY_VERIFY_WITH_TIMEOUT(chart->model().elapsedSeconds() > 0.2, 20000);
        pressKey(w, Qt::Key_F8);
        QVERIFY(w.runView()->paused());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY(chart->model().elapsedSeconds() < 2);
        QVERIFY(!chart->model().burst());
        pressKey(w, Qt::Key_F8);
        QVERIFY(!w.runView()->paused());
        QTRY_VERIFY(chart->model().elapsedSeconds() >= 2);
        QVERIFY(chart->model().burst());
        makeLimiter(s.limiters[0])->reset(*routeFixture());
        w.setWindowModified(false);
    }
};

QTEST_MAIN(TestWindowTeaching)
#include "tst_window_teaching.moc"
