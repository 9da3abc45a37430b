// The window's run history and "compare with…", offscreen against the fixture Redis: every run of
// the session is kept (newest first, exact totals, stopped ones marked), a run saves as the output
// folder `ratelab run --out` writes (`ratelab compare` finds it equal to the same scenario run on
// the command line), and a baseline (a run of the history or an output folder) is drawn over the
// timelines and added to the comparison table, survives a new run, marks the limiters it lacks, and
// goes with Clear baseline.
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QJsonDocument>
#include <QLineSeries>
#include <QMenu>
#include <QMenuBar>
#include <QPalette>
#include <QPen>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <numeric>

#include "charts/timeline_chart.h"
#include "input_error.h"
#include "output/run_baseline.h"
#include "output/summary_json.h"
#include "panels/comparison_table.h"
#include "panels/table_cells.h"
#include "report/output_folder.h"
#include "run/run_controller.h"
#include "scenario/scenario_json.h"
#include "style/series_style.h"
#include "support/cli_process.h"
#include "support/table_checks.h"
#include "support/test_redis.h"
#include "window/connection_bar.h"
#include "window/main_window.h"
#include "window/run_history.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// A token bucket and a fixed window under 50 requests/s for 3 s on a virtual clock at full
// speed from a fixed instant: every run of it decides the same way.
Scenario historyScenario(const LimiterSpec& bucket, const LimiterSpec& second) {
    Scenario s;
    s.name = QStringLiteral("history");
    s.limiters = {bucket, second};
    s.traffic.shape.type = ShapeSpec::Type::Constant;
    s.traffic.shape.rate = 50;
    s.traffic.durationS = 3;
    s.traffic.clock.isVirtual = true;
    s.traffic.clock.speed = 0;
    s.traffic.clock.startMs =
        QDateTime::fromString(QStringLiteral("2024-01-01T00:00:00.500Z"), Qt::ISODateWithMs)
            .toMSecsSinceEpoch();
    return s;
}

LimiterSpec tokenBucket() {
    LimiterSpec bucket;
    bucket.type = LimiterType::TokenBucket;
    bucket.name = uniqueName(QStringLiteral("hist-tb"));
    bucket.rate = 10;
    bucket.intervalMs = 1000;
    return bucket;
}

LimiterSpec fixedWindow(const QString& prefix) {
    LimiterSpec fixed;
    fixed.type = LimiterType::FixedWindow;
    fixed.name = uniqueName(prefix);
    fixed.rate = 10;
    fixed.interval = 1;
    fixed.unit = CalendarUnit::Seconds;
    fixed.timezone = "UTC";
    return fixed;
}

// What the Runs list shows of a run: the requests fired (each limiter decides every one), and
// each limiter's outcomes side by side ("a / b").
struct Totals {
    qint64 fired = 0;
    QStringList accepted, rejected, errors;
};

Totals totalsOf(const RunSnapshot& run) {
    Totals t;
    for (const LimiterSnapshot& l : run.limiters) {
        if (t.fired != 0 && l.fired != t.fired)
            qWarning("limiters fired %lld and %lld", t.fired, l.fired);
        t.fired = std::max(t.fired, l.fired);
        t.accepted << panel::count(l.accepted);
        t.rejected << panel::count(l.rejected);
        t.errors << panel::count(l.errors);
    }
    return t;
}

// Each step of a baseline series (pairs of points [x0, y], [x1, y]) against the baseline's
// buckets: the step starting at bucket b over `group` buckets sums buckets [b, b + group).
// Returns the steps checked; fails the test on the first that differs.
int checkSteps(const QList<QPointF>& points, const QVector<qint64>& buckets, qint64 bucketMs,
               qint64 groupMs, qint64* sum) {
    const qint64 group = groupMs / bucketMs;
    int checked = 0;
    for (int i = 0; i + 1 < points.size(); i += 2) {
        const qint64 first = qRound64(points[i].x() * 1000.0 / double(bucketMs));
        qint64 expected = 0;
        for (qint64 b = first; b < first + group && b < buckets.size(); ++b)
            expected += buckets[int(b)];
        if (qint64(points[i].y()) != expected || points[i + 1].y() != points[i].y()) {
            qWarning("step at %g s: %g, expected %lld", points[i].x(), points[i].y(), expected);
            return -1;
        }
        *sum += expected;
        ++checked;
    }
    return checked;
}

}  // namespace

class TestRunHistory : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<MainWindow> window_;
    QTemporaryDir dir_;
    QVector<LimiterSpec> used_;  // their keys are deleted at the end
    LimiterSpec bucket_ = tokenBucket();
    LimiterSpec fixed_ = fixedWindow(QStringLiteral("hist-fw"));

    // Runs `scenario` in the window to its end (or, with stopAfterStart, stops it once it runs).
    RunSnapshot run(const Scenario& scenario, bool stopAfterStart = false) {
        for (const LimiterSpec& l : scenario.limiters)
            used_.push_back(l);
        window_->setScenario(scenario);
        QSignalSpy started(window_->controller(), &RunController::started);
        QSignalSpy finished(window_->controller(), &RunController::finished);
        QSignalSpy snapshots(window_->controller(), &RunController::snapshotReady);
        window_->startAction()->trigger();
        if (stopAfterStart) {
            [&] { QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 10000); }();
            [&] { QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() >= 2, 10000); }();
            window_->controller()->stop();
        }
        [&] { QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000); }();
        return finished.isEmpty() ? RunSnapshot() : finished.first().first().value<RunSnapshot>();
    }

    // Saves run `number` through the window's path chooser, as the user would.
    QString saveThroughChooser(int number, const QString& name) {
        const QString path = dir_.filePath(name);
        window_->setPathChooser([path](const QString&, const QString&, const QString& filter) {
            return filter == MainWindow::kNewFolder ? path : QString();  // a folder to write
        });
        window_->runHistory()->selectRun(number);
        window_->runHistory()->saveAction()->trigger();
        return path;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ratelab-test-history"));
        QSettings().clear();
        qRegisterMetaType<RunSnapshot>();
        window_ = std::make_unique<MainWindow>();
        window_->show();
        window_->connectionBar()->setUseManagedServer(false);
        window_->connectionBar()->setUrlText(qEnvironmentVariable("REDIS_URL"));
        window_->connectionBar()->connectToRedis();
        QTRY_VERIFY_WITH_TIMEOUT(window_->connectionBar()->connected(), 10000);
    }

    void cleanupTestCase() {
        window_->setWindowModified(false);
        window_.reset();
        for (const LimiterSpec& spec : std::as_const(used_))
            ScopedLimiter forget(spec);  // deletes this test's keys, and only them
    }

    // Two runs give two entries, newest first, with each run's exact totals; a stopped run is
    // kept too and says so.
    void twoRunsTwoEntries() {
        RunHistory* history = window_->runHistory();
        QCOMPARE(history->rowCount(), 0);
        QVERIFY(window_->runsDock()->isHidden());
        const RunSnapshot first = run(historyScenario(bucket_, fixed_));
        QVERIFY(first.finished && !first.stoppedEarly);
        QVERIFY(window_->runsDock()->isHidden());  // the list opens when asked
        window_->runsDock()->toggleViewAction()->trigger();
        QVERIFY(window_->runsDock()->isVisible());
        Scenario faster = historyScenario(bucket_, fixed_);
        faster.traffic.shape.rate = 80;
        const RunSnapshot second = run(faster);
        QCOMPARE(history->rowCount(), 2);
        QCOMPARE(history->runs().size(), 2);
        const QVector<std::pair<int, RunSnapshot>> expected = {{2, second}, {1, first}};
        for (int row = 0; row < 2; ++row) {
            const auto& [number, snapshot] = expected[row];
            const Totals t = totalsOf(snapshot);
            QVERIFY(t.fired > 0);
            for (const LimiterSnapshot& l : snapshot.limiters)
                QCOMPARE(l.fired, l.accepted + l.rejected + l.errors);
            const QStringList cells = history->rowTexts(row);
            QCOMPARE(cells.value(0), QStringLiteral("#%1").arg(number));
            QCOMPARE(cells.value(2), QStringLiteral("history"));
            // The run's requests, not their sum over the limiters (it said 1,800 for 600).
            QCOMPARE(cells.value(3), panel::count(snapshot.limiters.value(0).fired));
            QCOMPARE(cells.value(4), t.accepted.join(QStringLiteral(" / ")));
            QCOMPARE(cells.value(5), t.rejected.join(QStringLiteral(" / ")));
            QCOMPARE(cells.value(6), t.errors.join(QStringLiteral(" / ")));
            QCOMPARE(cells.value(7), QStringLiteral("virtual, full speed"));
            QCOMPARE(cells.value(8), QString());
            QCOMPARE(history->runs()[row].number, number);
            QCOMPARE(history->runs()[row].scenario.traffic.shape.rate, number == 2 ? 80.0 : 50.0);
        }
        QVERIFY(totalsOf(second).fired > totalsOf(first).fired);

        Scenario slow = historyScenario(bucket_, fixed_);
        slow.traffic.clock.speed = 1;  // real pace: there is time to stop it
        slow.traffic.durationS = 60;
        const RunSnapshot stopped = run(slow, true);
        QVERIFY(stopped.stoppedEarly);
        QCOMPARE(history->rowCount(), 3);
        QVERIFY(history->rowTexts(0).value(8).startsWith(QStringLiteral("stopped at")));
        QCOMPARE(history->rowTexts(0).value(3), panel::count(totalsOf(stopped).fired));
    }

    // "Save as output folder…" writes what `ratelab run --out` writes: summary.json equals the
    // run's, and `ratelab compare` finds the window's runs of one scenario equal to each other
    // and to the same scenario run on the command line.
    void savedFolderComparesEqual() {
        const QString a = saveThroughChooser(1, QStringLiteral("window-a"));
        QVERIFY2(window_->bannerText().isEmpty(), qPrintable(window_->bannerText()));
        for (const char* file : {"summary.json", "buckets.csv", "report.png", "report.html"})
            QVERIFY2(QFile::exists(QDir(a).filePath(QLatin1String(file))), file);
        QFile summary(QDir(a).filePath(QStringLiteral("summary.json")));
        QVERIFY(summary.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(summary.readAll()).object(),
                 summaryJson(window_->runHistory()->run(1)->snapshot));
        QVERIFY(window_->runHistory()->noteText().contains(QStringLiteral("run #1")));

        // The same scenario once more in the window, and on the command line.
        run(historyScenario(bucket_, fixed_));
        const int again = window_->runHistory()->runs().first().number;
        const QString b = saveThroughChooser(again, QStringLiteral("window-b"));
        QFile scenarioFile(dir_.filePath(QStringLiteral("history.json")));
        QVERIFY(scenarioFile.open(QIODevice::WriteOnly));
        scenarioFile.write(
            QJsonDocument(scenarioToJson(historyScenario(bucket_, fixed_))).toJson());
        scenarioFile.close();
        const QString cliDir = dir_.filePath(QStringLiteral("cli"));
        const CliResult cliRun =
            runRatelab({QStringLiteral("run"), scenarioFile.fileName(), QStringLiteral("--redis"),
                        qEnvironmentVariable("REDIS_URL"), QStringLiteral("--out"), cliDir});
        QVERIFY2(cliRun.exitCode == 0, cliRun.err.constData());
        for (const QString& other : {b, cliDir}) {
            const CliResult compare = runRatelab({QStringLiteral("compare"), a, other});
            QVERIFY2(compare.exitCode == 0, compare.out.constData());
            QVERIFY2(compare.out.contains("verdict: same"), compare.out.constData());
        }
        // And a different run is told apart (the comparison can fail).
        const QString faster = saveThroughChooser(2, QStringLiteral("window-faster"));
        const CliResult differs = runRatelab({QStringLiteral("compare"), a, faster});
        QCOMPARE(differs.exitCode, 1);
    }

    // An unwritable folder: the banner says why, nothing crashes, the history stays.
    void unwritableFolderShowsError() {
        const QString file = dir_.filePath(QStringLiteral("a-file"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        QVERIFY(!window_->saveRunFolder(1, file + QStringLiteral("/inside")));
        QVERIFY(window_->bannerText().contains(QStringLiteral("Cannot save run #1")));
        QVERIFY(window_->bannerText().contains(QStringLiteral("inside")));
        QVERIFY(!window_->saveRunFolder(999, dir_.filePath(QStringLiteral("none"))));
        QVERIFY(window_->bannerText().contains(QStringLiteral("#999")));
    }

    // Compare with a run: each timeline's dashed lines are the baseline's counts per bucket,
    // the table's baseline rows its exact figures; a new run keeps them; Clear removes both.
    void compareWithRunOverlaysAndTable() {
        RunHistory* history = window_->runHistory();
        history->selectRun(1);
        history->compareAction()->trigger();
        QVERIFY(window_->baseline());
        QCOMPARE(window_->baseline()->label, QStringLiteral("#1"));
        QVERIFY(history->rowTexts(history->rowCount() - 1)
                    .value(0)
                    .contains(QStringLiteral("baseline")));
        QVERIFY(history->baselineText().contains(QStringLiteral("#1")));
        const RunSnapshot& base = history->run(1)->snapshot;
        checkOverlays(base, QStringLiteral("#1"));
        checkTable(base, QStringLiteral("#1"));

        // Run, change, run: the new run (another rate) is compared with the same baseline.
        Scenario faster = historyScenario(bucket_, fixed_);
        faster.traffic.shape.rate = 80;
        run(faster);
        QCOMPARE(window_->baseline()->label, QStringLiteral("#1"));
        checkOverlays(base, QStringLiteral("#1"));
        checkTable(base, QStringLiteral("#1"));
        const QStringList fired = window_->comparison()->baselineRow(0);
        QVERIFY2(fired.value(2).contains(QStringLiteral("\u0394 +")),
                 qPrintable(fired.join(QLatin1Char('|'))));

        history->clearBaselineAction()->trigger();
        QVERIFY(!window_->baseline());
        for (TimelineChart* chart : window_->timelines()) {
            QVERIFY(!chart->baselineAcceptedSeries()->isVisible());
            QCOMPARE(chart->baselineAcceptedSeries()->count(), 0);
            QCOMPARE(chart->baselineRejectedSeries()->count(), 0);
            QVERIFY(!chart->titleText().contains(QStringLiteral("baseline")));
        }
        QVERIFY(window_->comparison()->baselineRow(0).isEmpty());
        QCOMPARE(window_->comparison()->row(0).value(0), bucket_.name);
        QCOMPARE(window_->comparison()->row(1).value(0), fixed_.name);
        QVERIFY(!history->clearBaselineAction()->isEnabled());
    }

    // A baseline with another limiter set: the limiter it lacks says so on its chart and in the
    // table; the one it has is drawn.
    void missingLimiterIsMarked() {
        const LimiterSpec other = fixedWindow(QStringLiteral("hist-other"));
        run(historyScenario(bucket_, other));
        const int withOther = window_->runHistory()->runs().first().number;
        window_->compareWithRun(1);  // bucket_ and fixed_: no `other`
        const QVector<TimelineChart*> charts = window_->timelines();
        QCOMPARE(charts.size(), 2);
        QVERIFY(!charts[0]->model().baselineMissing());
        QVERIFY(charts[0]->baselineAcceptedSeries()->isVisible());
        QVERIFY(charts[1]->model().baselineMissing());
        QVERIFY2(charts[1]->titleText().contains(QStringLiteral("not in baseline #1")),
                 qPrintable(charts[1]->titleText()));
        QVERIFY(!charts[1]->baselineAcceptedSeries()->isVisible());
        QCOMPARE(charts[1]->baselineAcceptedSeries()->count(), 0);
        QCOMPARE(window_->comparison()->baselineRow(1).value(0),
                 QStringLiteral("not in baseline #1"));
        QCOMPARE(window_->comparison()->baselineRow(0).value(0), QStringLiteral("baseline #1"));
        window_->clearBaseline();
        QVERIFY(!charts[1]->titleText().contains(QStringLiteral("baseline")));
        Q_UNUSED(withOther);
    }

    // Compare with an output folder on disk (summary.json + buckets.csv): the same overlay and
    // figures as the run it was saved from; a folder that is not one is an error in the banner.
    void compareWithFolder() {
        run(historyScenario(bucket_, fixed_));
        const QString saved = dir_.filePath(QStringLiteral("window-a"));  // run #1's
        QVERIFY(window_->compareWithFolder(saved));
        QCOMPARE(window_->baseline()->label, QStringLiteral("window-a"));
        checkOverlays(window_->runHistory()->run(1)->snapshot, QStringLiteral("window-a"));
        checkTable(window_->runHistory()->run(1)->snapshot, QStringLiteral("window-a"));

        QVERIFY(!window_->compareWithFolder(dir_.filePath(QStringLiteral("nothing-here"))));
        QVERIFY(window_->bannerText().contains(QStringLiteral("nothing-here")));
        QCOMPARE(window_->baseline()->label, QStringLiteral("window-a"));  // unchanged
        // Through the chooser as the user would.
        window_->setPathChooser(
            [saved](const QString&, const QString&, const QString&) { return saved; });
        window_->clearBaseline();
        window_->runHistory()->compareFolderAction()->trigger();
        QCOMPARE(window_->baseline()->label, QStringLiteral("window-a"));
        window_->clearBaseline();
    }

    // Not a check: with RATELAB_HISTORY_SHOTS=DIR it saves the window comparing a run with a
    // baseline (timelines, comparison, at 1600x1000 and 1024x700, and with a dark palette), to
    // look at (run it under xvfb-run with QT_QPA_PLATFORM=xcb).
    void screenshots() {
        const QString out = qEnvironmentVariable("RATELAB_HISTORY_SHOTS");
        if (out.isEmpty())
            QSKIP("RATELAB_HISTORY_SHOTS=DIR saves pictures of the window with a baseline");
        QDir().mkpath(out);
        window_->compareWithRun(1);
        Scenario faster = historyScenario(bucket_, fixed_);
        faster.traffic.shape.rate = 80;
        run(faster);
        const auto shoot = [&](const QString& name) {
            QTest::qWait(400);
            QVERIFY(window_->grab().save(QDir(out).filePath(name)));
        };
        for (const QSize size : {QSize(1600, 1000), QSize(1024, 700)}) {
            window_->resize(size);
            const QString suffix =
                QStringLiteral("-%1x%2.png").arg(size.width()).arg(size.height());
            window_->views()->setCurrentIndex(0);
            shoot(QStringLiteral("history-timelines") + suffix);
            window_->views()->setCurrentIndex(1);
            shoot(QStringLiteral("history-comparison") + suffix);
        }
        const QPalette light = qApp->palette();
        QPalette dark;
        const QColor text(0xe6, 0xe6, 0xe6);
        dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
        dark.setColor(QPalette::WindowText, text);
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(QPalette::AlternateBase, QColor(0x2b, 0x2b, 0x2b));
        dark.setColor(QPalette::Text, text);
        dark.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
        dark.setColor(QPalette::ButtonText, text);
        qApp->setPalette(dark);
        window_->resize(1600, 1000);
        window_->views()->setCurrentIndex(0);
        shoot(QStringLiteral("history-timelines-dark.png"));
        qApp->setPalette(light);
        window_->views()->setCurrentIndex(0);
        window_->clearBaseline();
    }

    // The list keeps the last kMaxRuns runs: the oldest goes, numbers go on; the selection
    // stays on the run the user chose.
    void keepsTheLastRuns() {
        RunHistory history;
        Scenario scenario;
        RunSnapshot snapshot;
        snapshot.scenarioName = QStringLiteral("bounded");
        LimiterSnapshot limiter;
        limiter.spec.name = QStringLiteral("l");
        for (int i = 1; i <= RunHistory::kMaxRuns + 2; ++i) {
            limiter.fired = i;
            limiter.accepted = i;
            snapshot.limiters = {limiter};
            QCOMPARE(history.add(scenario, snapshot), i);
            if (i == 5)
                history.selectRun(4);
        }
        QCOMPARE(history.rowCount(), RunHistory::kMaxRuns);
        QVERIFY(!history.run(1));
        QVERIFY(!history.run(2));
        QVERIFY(history.run(3));
        QCOMPARE(history.runs().first().number, RunHistory::kMaxRuns + 2);
        QCOMPARE(history.rowTexts(0).value(3), panel::count(RunHistory::kMaxRuns + 2));
        QCOMPARE(history.selectedRun(), 4);
    }

    // The new list, its actions and columns explain themselves; the View menu reaches it.
    void explainsItself() {
        RunHistory* history = window_->runHistory();
        for (QAction* action : {history->saveAction(), history->compareAction(),
                                history->compareFolderAction(), history->clearBaselineAction()})
            QVERIFY2(!action->toolTip().isEmpty() && action->toolTip() != action->text(),
                     qPrintable(action->text()));
        const auto* table = history->findChild<QTableWidget*>(QStringLiteral("runHistory"));
        QVERIFY(table);
        for (int c = 0; c < table->columnCount(); ++c)
            QVERIFY2(!table->horizontalHeaderItem(c)->toolTip().isEmpty(),
                     qPrintable(QString::number(c)));
        QAction* toggle = window_->runsDock()->toggleViewAction();
        QVERIFY(!toggle->toolTip().isEmpty());
        bool inViewMenu = false;
        for (QAction* menu : window_->menuBar()->actions()) {
            if (menu->text() == QStringLiteral("&View") && menu->menu())
                inViewMenu = menu->menu()->actions().contains(toggle) &&
                             menu->menu()->actions().contains(history->compareFolderAction());
        }
        QVERIFY(inViewMenu);
    }

    // A long scenario name was elided beside columns of free space (the columns shared the
    // width equally): each column is now as wide as its texts, the room left shared out.
    void namesWholeBesideFreeSpace() {
        RunHistory history;
        history.resize(1100, 300);
        history.show();
        QVERIFY(QTest::qWaitForWindowExposed(&history));
        Scenario scenario;
        RunSnapshot snapshot;
        snapshot.scenarioName =
            QStringLiteral("Three limiters, 10 per second each, under the same sine-wave traffic");
        for (const char* name : {"demo-fixed", "demo-sliding", "demo-bucket"}) {
            LimiterSnapshot limiter;
            limiter.spec.name = QLatin1String(name);
            limiter.fired = 600;
            limiter.accepted = 283;
            limiter.rejected = 317;
            snapshot.limiters << limiter;
        }
        history.add(scenario, snapshot);
        QCoreApplication::processEvents();
        const auto* table = history.findChild<QTableWidget*>(QStringLiteral("runHistory"));
        QString cut;
        QVERIFY2(ratelab::test::columnsWhole(table, &cut), qPrintable(cut));
        QCOMPARE(history.rowTexts(0).value(3), QStringLiteral("600"));  // not 1,800
        QCOMPARE(history.rowTexts(0).value(4), QStringLiteral("283 / 283 / 283"));
        QVERIFY(history.preferredWidth() <= 1100);
    }

    // readBaselineFolder's bad input names the file and the place.
    void badFolders_data() {
        QTest::addColumn<QByteArray>("summary");
        QTest::addColumn<QByteArray>("buckets");
        QTest::addColumn<QString>("message");
        const QByteArray summary =
            "{\"bucket_ms\": 100, \"run_s\": 1, \"limiters\": [{\"name\": \"a\", \"fired\": 3,"
            "                \"accepted\": 2, \"rejected\": 1, \"errors\": 0}]}";
        const QByteArray header = "bucket,t_ms,limiter,accepted,rejected,errors\n";
        QTest::newRow("no buckets.csv") << summary << QByteArray() << "buckets.csv: missing";
        QTest::newRow("not json") << QByteArray("{") << header << "summary.json";
        QTest::newRow("no limiters")
            << QByteArray("{\"bucket_ms\": 100}") << header << "summary.json: $.limiters";
        QTest::newRow("bad count")
            << QByteArray("{\"bucket_ms\": 100, \"limiters\": [{\"name\": \"a\", \"fired\": -1}]}")
            << header << "$.limiters[0].fired";
        QTest::newRow("bad bucket_ms")
            << QByteArray("{\"bucket_ms\": 0, \"limiters\": []}") << header << "$.bucket_ms";
        QTest::newRow("other columns") << summary << QByteArray("a,b\n") << "buckets.csv: line 1";
        QTest::newRow("bad number") << summary << header + "0,0,a,x,1,0\n"
                                    << "buckets.csv: line 2";
        QTest::newRow("unknown limiter") << summary << header + "0,0,b,1,1,0\n"
                                         << "line 2: limiter \"b\"";
        QTest::newRow("open quote") << summary << header + "0,0,\"a,1,1,0\n"
                                    << "line 2";
    }

    void badFolders() {
        QFETCH(QByteArray, summary);
        QFETCH(QByteArray, buckets);
        QFETCH(QString, message);
        QTemporaryDir folder;
        const auto write = [&](const char* name, const QByteArray& content) {
            QFile f(folder.filePath(QLatin1String(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(content);
        };
        write("summary.json", summary);
        if (!buckets.isEmpty())
            write("buckets.csv", buckets);
        try {
            readBaselineFolder(folder.path());
            QFAIL("no error");
        } catch (const InputError& e) {
            QVERIFY2(e.message().contains(message), qPrintable(e.message()));
        }
    }

    // A quoted limiter name (a comma in it) reads back; buckets land at their index.
    void quotedNameReadsBack() {
        QTemporaryDir folder;
        QFile s(folder.filePath(QStringLiteral("summary.json")));
        QVERIFY(s.open(QIODevice::WriteOnly));
        s.write(
            "{\"bucket_ms\": 250, \"run_s\": 0.75, \"limiters\": [{\"name\": \"a,\\\"b\\\"\","
            "                    \"fired\": 9, \"accepted\": 6, \"rejected\": 3, \"errors\": 0}]}");
        s.close();
        QFile b(folder.filePath(QStringLiteral("buckets.csv")));
        QVERIFY(b.open(QIODevice::WriteOnly));
        b.write(
            "bucket,t_ms,limiter,accepted,rejected,errors\r\n2,500,\"a,\"\"b\"\"\",4,1,0\r\n"
            "0,0,\"a,\"\"b\"\"\",2,2,0\r\n");
        b.close();
        const RunBaseline base = readBaselineFolder(folder.path());
        QCOMPARE(base.run.bucketMs, qint64(250));
        QCOMPARE(base.run.limiters.size(), 1);
        QCOMPARE(base.run.limiters[0].name, QStringLiteral("a,\"b\""));
        QCOMPARE(base.run.limiters[0].buckets.accepted, (QVector<qint64>{2, 0, 4}));
        QCOMPARE(base.run.limiters[0].buckets.rejected, (QVector<qint64>{2, 0, 1}));
        QCOMPARE(base.run.limiters[0].counts.accepted, qint64(6));
    }

    // The model's baseline steps when the baseline ran with other buckets than the run: whole
    // baseline buckets, as close to the run's groups as they come, each the exact sum.
    void baselineBucketsGrouped_data() {
        QTest::addColumn<qint64>("runBucketMs");
        QTest::addColumn<qint64>("baseBucketMs");
        QTest::newRow("same") << qint64(100) << qint64(100);
        QTest::newRow("baseline coarser") << qint64(100) << qint64(250);
        QTest::newRow("baseline finer") << qint64(200) << qint64(50);
    }

    void baselineBucketsGrouped() {
        QFETCH(qint64, runBucketMs);
        QFETCH(qint64, baseBucketMs);
        LimiterSpec spec = tokenBucket();
        auto base = std::make_shared<RunBaseline>();
        base->label = QStringLiteral("#7");
        base->run.bucketMs = baseBucketMs;
        base->run.runS = 2;
        LimiterSummary l;
        l.name = spec.name;
        for (qint64 i = 0; i < 2000 / baseBucketMs; ++i) {
            l.buckets.accepted.append(i % 7);
            l.buckets.rejected.append(i % 3);
        }
        base->run.limiters = {l};
        TimelineModel model;
        model.setLimiter(spec, 1, runBucketMs, 0);
        model.setBaseline(base);
        model.setDurationSeconds(2);
        const TimelineModel::Counts counts = model.counts(0, 2, 0);
        QVERIFY(counts.baselineGroupMs >= runBucketMs);
        QCOMPARE(counts.baselineGroupMs % baseBucketMs, 0);
        QVERIFY(counts.baselineGroupMs < runBucketMs + baseBucketMs);
        qint64 accepted = 0;
        qint64 rejected = 0;
        QVERIFY(checkSteps(counts.baselineAccepted, l.buckets.accepted, baseBucketMs,
                           counts.baselineGroupMs, &accepted) > 0);
        QVERIFY(checkSteps(counts.baselineRejected, l.buckets.rejected, baseBucketMs,
                           counts.baselineGroupMs, &rejected) > 0);
        QCOMPARE(accepted,
                 std::accumulate(l.buckets.accepted.begin(), l.buckets.accepted.end(), 0LL));
        QCOMPARE(rejected,
                 std::accumulate(l.buckets.rejected.begin(), l.buckets.rejected.end(), 0LL));
        // A new run (setLimiter) keeps the baseline; another name has none.
        model.setLimiter(spec, 1, runBucketMs, 0);
        QVERIFY(model.baselineLimiter());
        spec.name = QStringLiteral("elsewhere");
        model.setLimiter(spec, 1, runBucketMs, 0);
        QVERIFY(model.baselineMissing());
        QCOMPARE(model.baselineNote(), QStringLiteral("not in baseline #7"));
        QVERIFY(model.counts(0, 2, 0).baselineAccepted.isEmpty());
    }

    // The baseline's lines are thin and dashed, in the accepted and rejected colours, lighter
    // on a dark palette (legible over the run's areas on either).
    void baselinePensFollowPalette() {
        TimelineChart chart;
        const LimiterSpec spec = tokenBucket();
        chart.setLimiter(spec, 1, 100, 0);
        auto base = std::make_shared<RunBaseline>();
        base->label = QStringLiteral("#2");
        base->run.runS = 0.2;
        LimiterSummary l;
        l.name = spec.name;
        l.buckets.accepted = {1, 2};
        l.buckets.rejected = {0, 1};
        base->run.limiters = {l};
        chart.setBaseline(base);
        QCOMPARE(chart.baselineAcceptedSeries()->points(),
                 (QList<QPointF>{{0, 1}, {0.1, 1}, {0.1, 2}, {0.2, 2}}));
        const QPen lightAccepted = chart.baselineAcceptedSeries()->pen();
        const QPen lightRejected = chart.baselineRejectedSeries()->pen();
        for (const QPen& pen : {lightAccepted, lightRejected}) {
            QCOMPARE(pen.dashPattern(), style::kDashes);
            QVERIFY(pen.widthF() < chart.limitSeries()->pen().widthF());
        }
        QVERIFY(lightAccepted.color() != lightRejected.color());
        QPalette dark = chart.palette();
        dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
        dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
        chart.setPalette(dark);
        const QPen darkAccepted = chart.baselineAcceptedSeries()->pen();
        QCOMPARE(darkAccepted.dashPattern(), style::kDashes);
        QVERIFY(darkAccepted.color().lightness() > lightAccepted.color().lightness());
        QVERIFY(chart.baselineRejectedSeries()->pen().color().lightness() >
                lightRejected.color().lightness());
        // Null removes it: hidden, no points, the legend entries too.
        chart.setBaseline(nullptr);
        QVERIFY(!chart.baselineAcceptedSeries()->isVisible());
        QCOMPARE(chart.baselineAcceptedSeries()->count(), 0);
    }

private:
    void checkOverlays(const RunSnapshot& base, const QString& label) {
        for (TimelineChart* chart : window_->timelines()) {
            const QString name = chart->model().spec().name;
            const auto limiter =
                std::find_if(base.limiters.begin(), base.limiters.end(),
                             [&](const LimiterSnapshot& l) { return l.spec.name == name; });
            QVERIFY(limiter != base.limiters.end());
            QVERIFY(chart->baselineAcceptedSeries()->isVisible());
            QCOMPARE(chart->baselineAcceptedSeries()->name(),
                     QStringLiteral("baseline %1 accepted").arg(label));
            QCOMPARE(chart->baselineRejectedSeries()->name(),
                     QStringLiteral("baseline %1 rejected").arg(label));
            const qint64 groupMs = chart->model().counts(0, 3, 0).baselineGroupMs;
            QVERIFY(groupMs > 0);
            // The chart shows the whole run (following): every step, summing to the totals.
            chart->setFollowing(true);
            qint64 accepted = 0;
            qint64 rejected = 0;
            QVERIFY(checkSteps(chart->baselineAcceptedSeries()->points(), limiter->bucketAccepted,
                               base.bucketMs, chartGroupMs(chart, base.bucketMs), &accepted) > 0);
            QVERIFY(checkSteps(chart->baselineRejectedSeries()->points(), limiter->bucketRejected,
                               base.bucketMs, chartGroupMs(chart, base.bucketMs), &rejected) > 0);
            QCOMPARE(accepted, limiter->accepted);
            QCOMPARE(rejected, limiter->rejected);
            const QString tip = chart->toolTipAt(0.05);
            QVERIFY2(tip.contains(QStringLiteral("baseline %1: accepted").arg(label)),
                     qPrintable(tip));
        }
    }

    // The width of the chart's baseline steps (its points' spacing).
    static qint64 chartGroupMs(const TimelineChart* chart, qint64 bucketMs) {
        const QList<QPointF> points = chart->baselineAcceptedSeries()->points();
        if (points.size() < 4)
            return bucketMs;
        return qRound64((points[2].x() - points[0].x()) * 1000.0);
    }

    void checkTable(const RunSnapshot& base, const QString& label) {
        const RunSnapshot& now = window_->lastSnapshot();
        for (int i = 0; i < now.limiters.size(); ++i) {
            const LimiterSnapshot* b = nullptr;
            for (const LimiterSnapshot& l : base.limiters) {
                if (l.spec.name == now.limiters[i].spec.name)
                    b = &l;
            }
            QVERIFY(b);
            const QStringList row = window_->comparison()->baselineRow(i);
            QCOMPARE(row.value(0), QStringLiteral("baseline %1").arg(label));
            const qint64 values[] = {b->fired,  b->accepted,   b->rejected,
                                     b->errors, b->errorsOpen, b->errorsClosed};
            const qint64 nows[] = {now.limiters[i].fired,      now.limiters[i].accepted,
                                   now.limiters[i].rejected,   now.limiters[i].errors,
                                   now.limiters[i].errorsOpen, now.limiters[i].errorsClosed};
            for (int c = 0; c < 6; ++c) {
                const qint64 d = nows[c] - values[c];
                const QString delta = d == 0  ? QStringLiteral("0")
                                      : d > 0 ? QStringLiteral("+") + panel::count(d)
                                              : QStringLiteral("\u2212") + panel::count(-d);
                QCOMPARE(row.value(2 + c),
                         QStringLiteral("%1 (\u0394 %2)").arg(panel::count(values[c]), delta));
            }
            // The run's own row is still there, above it.
            QCOMPARE(window_->comparison()->row(i).value(0), now.limiters[i].spec.name);
        }
    }
};

QTEST_MAIN(TestRunHistory)
#include "tst_run_history.moc"
