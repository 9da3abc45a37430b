// The window's Hunt (Run → Hunt a limiter…): the dialog hunts on the fixture Redis in the
// background (progress, Cancel), refuses bad input inline, and its counterexample opens as the
// window's scenario, which Step then decides request by request.
#include <QCheckBox>
#include <QComboBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include "hunt/hunt_dialog.h"
#include "limiters/limiter_spec.h"
#include "run/run_controller.h"
#include "run/run_session.h"
#include "support/test_redis.h"
#include "support/window_driving.h"
#include "window/decision_panel.h"
#include "window/main_window.h"
#include "window/scenario_document.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

constexpr int kHuntMs = 60000;

// The limiters on a few seconds of constant traffic in virtual time (what the editors accept).
Scenario scenarioOf(const QVector<QByteArray>& specs) {
    QByteArray limiters;
    for (const QByteArray& json : specs) {
        limiters += (limiters.isEmpty() ? "" : ",") + json;
    }
    return parseScenarioJson("{\"name\": \"hunted\", \"limiters\": [" + limiters +
                                 "], \"traffic\": {\"shape\": {\"type\": \"constant\", "
                                 "\"rate\": 5}, \"duration_s\": 2, \"clock\": {\"type\": "
                                 "\"virtual\", \"start\": \"2024-01-01T00:00:00Z\", "
                                 "\"speed\": 0}}}",
                             QString());
}

const QByteArray kUpstash = R"({"type": "sliding_counter", "name": "up", "limit": 10,
                                "window_ms": 1000, "flavor": "upstash"})";
const QByteArray kLog = R"({"type": "sliding_window", "name": "log",
                            "rules": [{"limit": 3, "window_ms": 1000}]})";

}  // namespace

class TestHuntWindow : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // A flavored limiter is hunted against its exact form: the reference is filled in, agree
    // chosen; the hunt finds the difference and its files are written.
    void huntsAFlavorAgainstItsExactForm() {
        HuntDialog dialog;
        dialog.setOutputRoot(dir_.path());
        dialog.showFor(scenarioOf({kLog, kUpstash}), fixtureUrl());
        dialog.limiterBox()->setCurrentIndex(1);
        QVERIFY(
            dialog.referenceEdit()->toPlainText().contains(QLatin1String("\"sliding_counter\"")));
        QVERIFY(!dialog.referenceEdit()->toPlainText().contains(QLatin1String("upstash")));
        QVERIFY(dialog.propertyBox(HuntProperty::Agree)->isChecked());
        QVERIFY(!dialog.propertyBox(HuntProperty::Retry)->isChecked());

        QSignalSpy finished(dialog.service(), &HuntService::finished);
        QTest::mouseClick(dialog.startButton(), Qt::LeftButton);
        QVERIFY(!dialog.startButton()->isEnabled());
        QVERIFY(dialog.cancelButton()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kHuntMs);
        QVERIFY2(dialog.resultText().startsWith(QStringLiteral("counterexample: agree")),
                 qPrintable(dialog.resultText()));
        QVERIFY(QFile::exists(dialog.regressionPath()));
        QVERIFY(dialog.openButton()->isEnabled());
        QSignalSpy open(&dialog, &HuntDialog::openScenarioRequested);
        QTest::mouseClick(dialog.openButton(), Qt::LeftButton);
        QCOMPARE(open.count(), 1);
        QCOMPARE(open[0][0].toString(), dialog.regressionPath());
    }

    // Cancel ends a hunt that would go on for long; what was tried is said.
    void cancelStopsTheHunt() {
        HuntDialog dialog;
        dialog.setOutputRoot(dir_.path());
        dialog.showFor(scenarioOf({kLog}), fixtureUrl());
        QVERIFY(!dialog.propertyBox(HuntProperty::Agree)->isChecked());  // no reference
        dialog.tracesBox()->setValue(dialog.tracesBox()->maximum());
        QSignalSpy finished(dialog.service(), &HuntService::finished);
        QTest::mouseClick(dialog.startButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.progressText().isEmpty(), kHuntMs);
        QTest::mouseClick(dialog.cancelButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kHuntMs);
        QVERIFY2(dialog.resultText().contains(QStringLiteral("cancelled after")),
                 qPrintable(dialog.resultText()));
        QVERIFY(dialog.startButton()->isEnabled());
        QVERIFY(!dialog.openButton()->isEnabled());
    }

    // Bad input is an inline error, and no hunt starts.
    void badInputIsInline_data() {
        QTest::addColumn<QString>("reference");
        QTest::addColumn<bool>("agree");
        QTest::addColumn<QString>("message");
        QTest::newRow("not JSON") << QStringLiteral("{nope") << true << QStringLiteral("line 1");
        QTest::newRow("a name") << QStringLiteral(R"({"type": "sliding_window", "name": "x",
            "rules": [{"limit": 1, "window_ms": 1}]})")
                                << true << QStringLiteral("$.name");
        QTest::newRow("agree without a reference")
            << QString() << true << QStringLiteral("agree needs a reference");
        QTest::newRow("no property") << QString() << false << QStringLiteral("at least one");
    }

    void badInputIsInline() {
        QFETCH(QString, reference);
        QFETCH(bool, agree);
        QFETCH(QString, message);
        HuntDialog dialog;
        dialog.showFor(scenarioOf({kLog}), fixtureUrl());
        dialog.referenceEdit()->setPlainText(reference);
        dialog.propertyBox(HuntProperty::Agree)->setChecked(agree);
        dialog.propertyBox(HuntProperty::Retry)->setChecked(false);
        dialog.propertyBox(HuntProperty::Remaining)->setChecked(false);
        QTest::mouseClick(dialog.startButton(), Qt::LeftButton);
        QVERIFY2(dialog.errorText().contains(message), qPrintable(dialog.errorText()));
        QVERIFY(!dialog.service()->running());
        QVERIFY(dialog.startButton()->isEnabled());
    }

    // In the window: Run → Hunt a limiter… hunts the scenario's limiter, and Open
    // counterexample makes regression.json the window's scenario, which Step decides.
    void counterexampleOpensToStepThrough() {
        MainWindow w;
        w.show();
        connectToFixture(w);
        w.setScenario(scenarioOf({kUpstash}));
        w.huntAction()->trigger();
        HuntDialog* dialog = w.huntDialog();
        QVERIFY(dialog->isVisible());
        dialog->setOutputRoot(dir_.path());
        QCOMPARE(dialog->limiterBox()->currentText(), QStringLiteral("up"));
        QSignalSpy finished(dialog->service(), &HuntService::finished);
        dialog->startHunt();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kHuntMs);
        QVERIFY(dialog->openButton()->isEnabled());
        QTest::mouseClick(dialog->openButton(), Qt::LeftButton);
        QCOMPARE(w.scenarioPath(), dialog->regressionPath());
        const std::optional<Scenario> opened = w.currentScenario();
        QVERIFY2(opened, qPrintable(w.bannerText()));
        QCOMPARE(opened->limiters.size(), 2);  // the limiter beside the reference
        QCOMPARE(opened->limiters[0].name, QStringLiteral("up"));
        QVERIFY(opened->traffic.trace.size() >= 1);

        // Step decides the counterexample's first request.
        QSignalSpy stepped(w.controller(), &RunController::stepped);
        w.stepAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stepped.count(), 1, 10000);
        QCOMPARE(w.lastSnapshot().scheduled, 1);
        QVERIFY2(w.stepText().contains(QStringLiteral("allowed")), qPrintable(w.stepText()));
    }
};

QTEST_MAIN(TestHuntWindow)
#include "tst_hunt_window.moc"
