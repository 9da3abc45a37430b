// The window keeps the user's work safe and explains itself (offscreen, against the fixture
// Redis): limiter edits reach a running test on Enter or focus-out only, a rename asks and
// deletes the old keys, unsaved changes are marked and asked about, shipped examples are never
// overwritten, exports get their extensions, Step writes to the decision panel, Start says why it
// is disabled, every editor field has a tooltip, Help explains every metric, presentation mode.
#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>
#include <QtTest>

#include "charts/timeline_chart.h"
#include "editors/limiter_list_editor.h"
#include "editors/traffic_editor.h"
#include "run/run_controller.h"
#include "support/test_redis.h"
#include "support/window_driving.h"
#include "window/connection_bar.h"
#include "window/decision_panel.h"
#include "window/example_scenarios.h"
#include "window/main_window.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// One token bucket at 10/s under 50 req/s for `seconds`, at real pace so there is time to edit.
Scenario bucketScenario(int seconds) {
    Scenario s;
    s.name = QStringLiteral("window work");
    LimiterSpec bucket;
    bucket.type = LimiterType::TokenBucket;
    bucket.name = uniqueName(QStringLiteral("work-tb"));
    bucket.rate = 10;
    bucket.intervalMs = 1000;
    s.limiters = {bucket};
    s.traffic.shape.type = ShapeSpec::Type::Constant;
    s.traffic.shape.rate = 50;
    s.traffic.durationS = seconds;
    s.traffic.clock.isVirtual = true;
    s.traffic.clock.speed = 1;
    s.traffic.clock.startMs = QDateTime::currentMSecsSinceEpoch();
    return s;
}

QLineEdit* limiterField(MainWindow& w, const char* name) {
    return w.findChild<LimiterListEditor*>()->findChild<QLineEdit*>(QLatin1String(name));
}

int markerCount(const MainWindow& w, int limiter) {
    return int(w.timelines().value(limiter)->model().markers().size());
}

}  // namespace

class TestWindowWork : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<MainWindow> window_;

    // Starts `scenario` in the shared window and waits until it runs.
    void startRun(const Scenario& scenario) {
        window_->setScenario(scenario);
        QSignalSpy started(window_->controller(), &RunController::started);
        window_->startAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 10000);
    }

    void finishRun() {
        if (window_->controller()->running()) {
            QSignalSpy finished(window_->controller(), &RunController::finished);
            window_->controller()->stop();
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        }
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ratelab-test-work"));
        QSettings().clear();
        qRegisterMetaType<RunSnapshot>();
        window_ = std::make_unique<MainWindow>();
        // The smallest screen the window is made for (ratelab opens at 1600 x 1000 where it
        // fits): the run toolbar shows why Start is blocked beside its buttons.
        window_->resize(1024, 700);
        window_->show();
        connectToFixture(*window_);
    }

    void cleanupTestCase() {
        window_->setWindowModified(false);
        window_.reset();
    }

    // Typing "30" into a running limiter's rate applied 3, then 30 (two changes, two markers).
    // Now nothing reaches the run while typing; Enter applies one change.
    void liveEditAppliesOnEnterOnly() {
        const Scenario scenario = bucketScenario(30);
        startRun(scenario);
        QLineEdit* rate = limiterField(*window_, "rate");
        QVERIFY(rate);
        rate->setFocus();
        rate->selectAll();
        QTest::keyClicks(rate, QStringLiteral("30"));
        QTest::qWait(300);  // several snapshots: nothing may have reached the run
        QCOMPARE(markerCount(*window_, 0), 0);
        QCOMPARE(window_->lastSnapshot().limiters.value(0).spec.rate, 10);
        QTest::keyClick(rate, Qt::Key_Return);
        QCOMPARE(markerCount(*window_, 0), 1);
        QTRY_COMPARE_WITH_TIMEOUT(window_->lastSnapshot().limiters.value(0).spec.rate, 30, 5000);
        // Enter again, or leaving the field, without a change applies nothing more.
        QTest::keyClick(rate, Qt::Key_Return);
        limiterField(*window_, "name")->setFocus();
        QCOMPARE(markerCount(*window_, 0), 1);
        finishRun();
        RedisConnection c(fixtureUrl());
        makeLimiter(window_->lastSnapshot().limiters[0].spec)->reset(c);
    }

    // Focus-out commits like Enter.
    void liveEditAppliesOnFocusOut() {
        startRun(bucketScenario(30));
        QLineEdit* rate = limiterField(*window_, "rate");
        rate->setFocus();
        rate->selectAll();
        QTest::keyClicks(rate, QStringLiteral("25"));
        QCOMPARE(markerCount(*window_, 0), 0);
        limiterField(*window_, "name")->setFocus();
        QCOMPARE(markerCount(*window_, 0), 1);
        QTRY_COMPARE_WITH_TIMEOUT(window_->lastSnapshot().limiters.value(0).spec.rate, 25, 5000);
        finishRun();
        RedisConnection c(fixtureUrl());
        makeLimiter(window_->lastSnapshot().limiters[0].spec)->reset(c);
    }

    void renameMidRun_data() {
        QTest::addColumn<bool>("confirm");
        QTest::newRow("confirmed") << true;
        QTest::newRow("declined") << false;
    }

    // Renaming created a limiter per keystroke and left their keys in Redis. Now a rename asks;
    // confirmed, the run goes on under the new name and the old name's keys are deleted.
    void renameMidRun() {
        QFETCH(bool, confirm);
        const Scenario scenario = bucketScenario(30);
        const LimiterSpec old = scenario.limiters[0];
        startRun(scenario);
        QTRY_VERIFY_WITH_TIMEOUT(window_->lastSnapshot().limiters.value(0).fired > 0, 5000);
        QLineEdit* name = limiterField(*window_, "name");
        name->setFocus();
        name->end(false);
        QTest::keyClicks(name, QStringLiteral("-v2"));
        QTest::qWait(200);
        QCOMPARE(markerCount(*window_, 0), 0);
        answerMessageBox(QStringLiteral("confirmRename"),
                         confirm ? QMessageBox::Yes : QMessageBox::No);
        QTest::keyClick(name, Qt::Key_Return);
        const QString expected = confirm ? old.name + QStringLiteral("-v2") : old.name;
        QCOMPARE(name->text(), expected);
        QCOMPARE(window_->currentScenario()->limiters[0].name, expected);
        QCOMPARE(markerCount(*window_, 0), confirm ? 1 : 0);
        QTRY_COMPARE_WITH_TIMEOUT(window_->lastSnapshot().limiters.value(0).spec.name, expected,
                                  5000);
        RedisConnection c(fixtureUrl());
        LimiterSpec renamed = old;
        renamed.name = expected;
        // The run decides under the new name before it stops (on a loaded machine the first
        // decision after the switch can come late).
        QTRY_VERIFY_WITH_TIMEOUT(keyCount(c, renamed) > 0, 10000);
        finishRun();
        if (confirm) {
            // The abandoned limiter's keys are gone (deleted on the I/O thread).
            QTRY_COMPARE_WITH_TIMEOUT(keyCount(c, old), 0LL, 5000);
            QVERIFY(makeLimiter(renamed)->reset(c) > 0);  // the renamed one really ran
        } else {
            QVERIFY(makeLimiter(old)->reset(c) > 0);
        }
    }

    // A run's limiters stayed in Redis for good once the scenario moved on (config hashes with
    // no expiry). The next Start deletes the keys of the previous run's limiters it does not
    // reset itself.
    void nextStartDeletesThePreviousRunsLimiters() {
        const Scenario first = bucketScenario(1);
        startRun(first);
        QSignalSpy finished(window_->controller(), &RunController::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        RedisConnection c(fixtureUrl());
        QVERIFY(keyCount(c, first.limiters[0]) > 0);
        const Scenario second = bucketScenario(1);
        startRun(second);
        finishRun();
        // The new run's keys stay (checked first: on a loaded machine waiting for the old ones
        // could outlast their TTLs), the previous run's go.
        QVERIFY(keyCount(c, second.limiters[0]) > 0);
        QTRY_COMPARE_WITH_TIMEOUT(keyCount(c, first.limiters[0]), 0LL, 5000);
        makeLimiter(second.limiters[0])->reset(c);
    }

    // No modified mark, no question on quit: work was lost silently.
    void unsavedChangesMarkedAndAsked() {
        MainWindow w;
        w.setScenario(bucketScenario(5));
        w.show();
        QVERIFY(!w.isWindowModified());
        QVERIFY(w.windowTitle().contains(QStringLiteral("[*]")));
        auto* name = w.findChild<QLineEdit*>(QStringLiteral("scenarioName"));
        QVERIFY(name);
        name->selectAll();
        QTest::keyClicks(name, QStringLiteral("renamed scenario"));
        QVERIFY(w.isWindowModified());
        QCOMPARE(w.currentScenario()->name, QStringLiteral("renamed scenario"));
        QVERIFY(w.windowTitle().contains(QStringLiteral("renamed scenario")));

        answerMessageBox(QStringLiteral("unsavedChanges"), QMessageBox::Cancel);
        QVERIFY(!w.close());
        QVERIFY(w.isVisible());
        answerMessageBox(QStringLiteral("unsavedChanges"), QMessageBox::Discard);
        QVERIFY(w.close());
    }

    void savingClearsTheMark() {
        MainWindow w;
        w.setScenario(bucketScenario(5));
        QTemporaryDir dir;
        w.setPathChooser([&dir](const QString&, const QString&, const QString&) {
            return dir.filePath(QStringLiteral("mine"));
        });
        QTest::keyClicks(w.findChild<QLineEdit*>(QStringLiteral("scenarioName")),
                         QStringLiteral("x"));
        QVERIFY(w.isWindowModified());
        QVERIFY(w.save());  // no file yet: asks for one, adds .json
        QCOMPARE(w.scenarioPath(), dir.filePath(QStringLiteral("mine.json")));
        QVERIFY(QFile::exists(w.scenarioPath()));
        QVERIFY(!w.isWindowModified());
    }

    // Ctrl+S after opening a shipped example overwrote the example.
    void saveOnShippedExampleAsksForANewName() {
        const QStringList examples = exampleScenarios();
        QVERIFY2(!examples.isEmpty(), "no shipped examples found");
        const QString example = examples.first();
        QFile original(example);
        QVERIFY(original.open(QIODevice::ReadOnly));
        const QByteArray before = original.readAll();
        original.close();

        MainWindow w;
        QVERIFY(w.openScenario(example));
        QVERIFY(isShippedExample(w.scenarioPath()));
        QTemporaryDir dir;
        int asked = 0;
        w.setPathChooser([&](const QString&, const QString& start, const QString&) {
            ++asked;
            // Offered outside the examples directory.
            return start.startsWith(examplesDirectory()) ? QString()
                                                         : dir.filePath(QStringLiteral("copy"));
        });
        QAction* saveAction = nullptr;
        for (QAction* a : w.findChildren<QAction*>())
            if (a->shortcut() == QKeySequence(QKeySequence::Save))
                saveAction = a;
        QVERIFY(saveAction);
        saveAction->trigger();  // Ctrl+S
        QCOMPARE(asked, 1);
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("copy.json"))));
        QVERIFY(original.open(QIODevice::ReadOnly));
        QCOMPARE(original.readAll(), before);
        QCOMPARE(w.scenarioPath(), dir.filePath(QStringLiteral("copy.json")));
        QVERIFY(w.save());  // now the user's own file: no question
        QCOMPARE(asked, 1);
    }

    void examplesMenuListsShippedScenarios() {
        auto* menu = window_->findChild<QMenu*>(QStringLiteral("examplesMenu"));
        QVERIFY(menu);
        const QStringList examples = exampleScenarios();
        QCOMPARE(menu->actions().size(), examples.size());
        QVERIFY(examples.size() >= 5);
        for (int i = 0; i < examples.size(); ++i)
            QCOMPARE(menu->actions()[i]->text(), QFileInfo(examples[i]).completeBaseName());
    }

    // A PNG export was saved without ".png".
    void exportsAddTheirExtension_data() {
        QTest::addColumn<QString>("requested");
        QTest::addColumn<QString>("png");
        QTest::addColumn<QString>("csv");
        QTest::newRow("none") << "view"
                              << "view.png"
                              << "view.csv";
        QTest::newRow("has it") << "a.png"
                                << "a.png"
                                << "a.png.csv";
        QTest::newRow("upper case") << "B.PNG"
                                    << "B.PNG"
                                    << "B.PNG.csv";
    }
    void exportsAddTheirExtension() {
        QFETCH(QString, requested);
        QFETCH(QString, png);
        QFETCH(QString, csv);
        QTemporaryDir dir;
        QCOMPARE(window_->exportViewPng(dir.filePath(requested)), dir.filePath(png));
        QVERIFY(!QImage(dir.filePath(png)).isNull());
        QCOMPARE(window_->exportDataCsv(dir.filePath(requested)), dir.filePath(csv));
        QVERIFY(QFile::exists(dir.filePath(csv)));
    }

    // The Step message shared the status bar with the accounting line, was cut off for the third
    // limiter and stayed into later runs.
    void stepWritesTheDecisionPanel() {
        Scenario scenario = bucketScenario(5);
        LimiterSpec second = scenario.limiters[0];
        second.name = uniqueName(QStringLiteral("work-tb2"));
        second.rate = 1;
        LimiterSpec third = second;
        third.name = uniqueName(QStringLiteral("work-tb3"));
        scenario.limiters = {scenario.limiters[0], second, third};
        window_->setScenario(scenario);
        DecisionPanel* panel = window_->decisions();
        QCOMPARE(panel->requestCount(), 0);
        QSignalSpy stepped(window_->controller(), &RunController::stepped);
        for (int n = 1; n <= 2; ++n) {
            window_->stepAction()->trigger();
            QTRY_COMPARE_WITH_TIMEOUT(stepped.count(), n, 10000);
        }
        QCOMPARE(panel->requestCount(), 2);
        QCOMPARE(panel->table()->rowCount(), 6);  // one row per limiter and request
        QVERIFY(panel->isVisible());
        for (int i = 0; i < 3; ++i)
            QCOMPARE(panel->cellText(i, DecisionPanel::kLimiter), scenario.limiters[i].name);
        // Newest first: the 1-per-second buckets refuse the second request and say for how long.
        QCOMPARE(panel->cellText(0, DecisionPanel::kAllowed), QStringLiteral("allowed"));
        QCOMPARE(panel->cellText(1, DecisionPanel::kAllowed), QStringLiteral("rejected"));
        QVERIFY(panel->cellText(1, DecisionPanel::kRetryAfter).toLongLong() > 0);
        QCOMPARE(panel->cellText(4, DecisionPanel::kRemaining), QStringLiteral("0"));
        // The status bar keeps only the accounting.
        QVERIFY(window_->statusBar()->currentMessage().isEmpty());
        const auto* accounting = window_->findChild<QLabel*>(QStringLiteral("accountingLine"));
        QVERIFY(accounting->text().contains(QStringLiteral("fired 2 = accepted")));
        QVERIFY(!accounting->text().contains(QStringLiteral("retry")));

        // A new run starts with an empty list.
        startRun(bucketScenario(1));
        QCOMPARE(panel->requestCount(), 0);
        finishRun();
        RedisConnection c(fixtureUrl());
        for (const LimiterSpec& spec : scenario.limiters)
            makeLimiter(spec)->reset(c);
        makeLimiter(window_->lastSnapshot().limiters[0].spec)->reset(c);
    }

    // Start was disabled with the reason only in a tooltip.
    void startSaysWhyItIsDisabled() {
        window_->setScenario(bucketScenario(5));
        auto* reason = window_->findChild<QLabel*>(QStringLiteral("startReason"));
        QVERIFY(reason);
        QVERIFY(window_->startAction()->isEnabled());
        QVERIFY(!reason->isVisible());
        QLineEdit* name = limiterField(*window_, "name");
        const QString before = name->text();
        name->setText(QStringLiteral("bad{name"));
        QVERIFY(!window_->startAction()->isEnabled());
        QTRY_VERIFY(reason->isVisible());  // the toolbar lays it out on its next pass
        QVERIFY2(window_->startBlockedText().contains(QStringLiteral("$.name")),
                 qPrintable(window_->startBlockedText()));
        QVERIFY(!reason->text().isEmpty());
        name->setText(before);
        QTRY_VERIFY(!reason->isVisible());
        window_->setWindowModified(false);
    }

    void everyEditorFieldHasATooltip() {
        QStringList missing;
        const QList<QWidget*> editors{window_->findChild<LimiterListEditor*>(),
                                      window_->findChild<TrafficEditor*>()};
        for (QWidget* editor : editors) {
            for (QWidget* w : editor->findChildren<QWidget*>()) {
                const bool field = qobject_cast<QLineEdit*>(w) || qobject_cast<QComboBox*>(w) ||
                                   qobject_cast<QAbstractButton*>(w) ||
                                   qobject_cast<QAbstractSlider*>(w) ||
                                   qobject_cast<QAbstractItemView*>(w);
                if (field && !w->objectName().isEmpty() &&
                    !w->objectName().startsWith(QLatin1String("qt_")) && w->toolTip().isEmpty())
                    missing << w->objectName();
            }
        }
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QStringLiteral(", "))));
        QVERIFY(
            !window_->findChild<QLineEdit*>(QStringLiteral("scenarioName"))->toolTip().isEmpty());
    }

    void glossaryExplainsEveryMetric_data() {
        QTest::addColumn<QString>("text");
        for (const char* t : {"fired = accepted + rejected + errors",
                              "accepted ratio",
                              "Jain's fairness index",
                              "(Σx)² / (n · Σx²)",
                              "p50 / p99 latency",
                              "waited ms",
                              "let through",
                              "refused",
                              "on_error",
                              "retry_after_ms",
                              "remaining",
                              "server time per decision",
                              "decisions per Redis core",
                              "key memory",
                              "limit (steady state)",
                              "scope",
                              "window",
                              "interval",
                              "available permits",
                              "burst",
                              "admitted burst",
                              "rule",
                              "TAT",
                              "tolerance",
                              "estimate",
                              "water level",
                              "reason",
                              "headers",
                              "counterfactual"})
            QTest::newRow(t) << QString::fromUtf8(t);
    }
    void glossaryExplainsEveryMetric() {
        QFETCH(QString, text);
        QMenu* help = nullptr;
        for (QAction* a : window_->menuBar()->actions())
            if (a->text() == QStringLiteral("&Help"))
                help = a->menu();
        QVERIFY(help);
        QAction* glossary = help->actions().value(0);
        QCOMPARE(glossary->text(), QStringLiteral("&Glossary"));
        glossary->trigger();
        auto* dialog = window_->findChild<QDialog*>(QStringLiteral("glossary"));
        QVERIFY(dialog);
        const QString shown = dialog->findChild<QTextBrowser*>()->toPlainText();
        QVERIFY2(shown.contains(text), qPrintable(shown));
        dialog->close();
        QTRY_VERIFY(!window_->findChild<QDialog*>(QStringLiteral("glossary")));
    }

    void aboutNamesVersions() {
        QMenu* help = nullptr;
        for (QAction* a : window_->menuBar()->actions())
            if (a->text() == QStringLiteral("&Help"))
                help = a->menu();
        QCOMPARE(help->actions().size(), 3);
        help->actions()[2]->trigger();
        auto* about = window_->findChild<QDialog*>(QStringLiteral("about"));
        QVERIFY(about);
        const QString text = about->findChild<QTextBrowser*>()->toPlainText();
        QVERIFY2(text.contains(QString::fromLatin1(qVersion())), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Licence: Apache License 2.0 (Apache-2.0)")),
                 qPrintable(text));
        about->close();
    }

    void presentationModeAndBack() {
        window_->setScenario(bucketScenario(5));
        const QFont normal = window_->font();
        TimelineChart* chart = window_->timelines().value(0);
        const qreal normalPen = chart->tokenSeries()->pen().widthF();
        auto* dock = window_->findChild<QDockWidget*>(QStringLiteral("scenarioDock"));
        QVERIFY(dock->isVisible());
        QAction* toggle = window_->presentationAction();
        QVERIFY(toggle->shortcuts().contains(QKeySequence(Qt::Key_F11)));
        QVERIFY(toggle->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::Key_P)));
        toggle->trigger();
        QVERIFY(window_->presentation());
        QVERIFY(window_->presentationAction()->isChecked());
        QCOMPARE(window_->font().pointSizeF(), normal.pointSizeF() * 1.5);
        QCOMPARE(chart->tokenSeries()->pen().widthF(), normalPen * 2);
        QVERIFY(!dock->isVisible());
        auto* connectionRow = window_->findChild<QToolBar*>(QStringLiteral("connectionToolbar"));
        QVERIFY(!connectionRow->isVisible());
        // New charts (another scenario) come in the presentation look too.
        window_->setScenario(bucketScenario(5));
        QCOMPARE(window_->timelines().value(0)->tokenSeries()->pen().widthF(), normalPen * 2);
        // One click back.
        window_->presentationAction()->trigger();
        QVERIFY(!window_->presentation());
        QCOMPARE(window_->font(), normal);
        QCOMPARE(window_->timelines().value(0)->tokenSeries()->pen().widthF(), normalPen);
        QVERIFY(dock->isVisible());
        QVERIFY(connectionRow->isVisible());
        window_->setPresentation(true);
        window_->setPresentation(false);
        QCOMPARE(window_->font(), normal);
    }

    // At 1024x700 the window was wider than the screen (the connection bar beside the editors
    // needed 1174 px) and the URL and password fields showed a few characters.
    void fitsAt1024x700() {
        MainWindow w;
        w.setScenario(bucketScenario(5));
        w.resize(1024, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.width(), 1024);
        QVERIFY2(w.minimumSizeHint().width() <= 1024,
                 qPrintable(QString::number(w.minimumSizeHint().width())));
        // The URL field holds at least "redis://host:6379" (the connection bar is its own row).
        auto* url = w.connectionBar()->findChild<QLineEdit*>(QStringLiteral("redisUrl"));
        QVERIFY(url);
        QVERIFY2(url->width() >=
                     url->fontMetrics().horizontalAdvance(QStringLiteral("redis://host:6379")),
                 qPrintable(QString::number(url->width())));
        // Every run toolbar button is shown, none in an overflow menu.
        auto* tools = w.findChild<QToolBar*>(QStringLiteral("runToolbar"));
        for (QAction* a : {w.startAction(), w.stepAction(), w.presentationAction()})
            QVERIFY(tools->widgetForAction(a)->isVisible());
        // The editor fields are not squeezed below their size hints.
        for (const char* field : {"name", "rate"}) {
            QLineEdit* edit = limiterField(w, field);
            QVERIFY(edit->isVisible());
            QVERIFY(edit->width() >= edit->minimumSizeHint().width());
        }
        w.setWindowModified(false);
    }

    // An example's title named a shape it did not have (poisson while the shape was sine).
    void exampleTitlesNameTheirShape() {
        // Not "burst": GCRA's and the leaky bucket's parameter shares the word.
        const QMap<QString, ShapeSpec::Type> words{
            {QStringLiteral("poisson"), ShapeSpec::Type::Poisson},
            {QStringLiteral("sine"), ShapeSpec::Type::Sine},
            {QStringLiteral("constant"), ShapeSpec::Type::Constant}};
        for (const QString& path : exampleScenarios()) {
            const Scenario s = loadScenarioFile(path);
            for (auto it = words.cbegin(); it != words.cend(); ++it) {
                if (s.name.contains(it.key(), Qt::CaseInsensitive)) {
                    QVERIFY2(s.traffic.shape.type == it.value(),
                             qPrintable(QStringLiteral("%1: \"%2\"").arg(path, s.name)));
                }
            }
        }
    }
};

QTEST_MAIN(TestWindowWork)
#include "tst_window_work.moc"
