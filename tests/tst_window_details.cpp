// The window's small things, driven as a person does, offscreen against the fixture Redis: the
// File menu shows Save as's Ctrl+Shift+S, the Runs list says a full-speed virtual run's clock in
// words, Save as output folder takes a new folder's name, the Tune tab's status starts with a
// capital and its fields read whole at 1024 px.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "run/run_controller.h"
#include "support/test_redis.h"
#include "support/window_driving.h"
#include "tune/tune_view.h"
#include "window/example_scenarios.h"
#include "window/main_window.h"
#include "window/run_history.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

QAction* menuAction(MainWindow& w, const QString& menuText, const QString& actionText) {
    for (QAction* top : w.menuBar()->actions()) {
        if (top->menu() == nullptr || top->text().remove(u'&') != menuText)
            continue;
        for (QAction* a : top->menu()->actions()) {
            if (a->text().remove(u'&') == actionText)
                return a;
        }
    }
    return nullptr;
}

// Runs `scenario` in the window to its end.
void runToEnd(MainWindow& w, const Scenario& scenario) {
    w.setScenario(scenario);
    QSignalSpy finished(w.controller(), &RunController::finished);
    clickToolButton(w, w.startAction());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
}

}  // namespace

class TestWindowDetails : public QObject {
    Q_OBJECT

    QVector<LimiterSpec> used_;  // their keys are deleted at the end

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ratelab-test-details"));
        QSettings().clear();
        qRegisterMetaType<RunSnapshot>();
    }

    void cleanupTestCase() {
        for (const LimiterSpec& spec : std::as_const(used_))
            ScopedLimiter forget(spec);  // deletes this test's keys, and only them
    }

    // Help lists Ctrl+Shift+S for Save as; the File menu showed no key for it where the
    // platform binds none to QKeySequence::SaveAs (offscreen, plain X11).
    void fileMenuShowsSaveAsShortcut() {
        MainWindow w;
        QAction* saveAs =
            menuAction(w, QStringLiteral("File"), QStringLiteral("Save scenario as…"));
        QVERIFY(saveAs != nullptr);
        QCOMPARE(saveAs->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+S")));
    }

    // A full-speed virtual run (speed 0) read "virtual ×0" in the Runs list.
    void runsSayFullSpeed() {
        MainWindow w;
        w.show();
        connectToFixture(w);
        const Scenario s = quickBucketScenario(QStringLiteral("details"));
        used_ << s.limiters;
        runToEnd(w, s);
        auto* table = w.runHistory()->findChild<QTableWidget*>();
        QVERIFY(table != nullptr);
        QTRY_COMPARE(table->rowCount(), 1);
        QStringList cells;
        for (int c = 0; c < table->columnCount(); ++c)
            cells << (table->item(0, c) ? table->item(0, c)->text() : QString());
        QVERIFY2(cells.contains(QStringLiteral("virtual, full speed")),
                 qPrintable(cells.join(u'|')));
        QVERIFY2(!cells.join(u'|').contains(QStringLiteral("×0")), qPrintable(cells.join(u'|')));
        w.setWindowModified(false);
    }

    // Save as output folder asked with a dialog that refused a folder name not made yet
    // ("Directory not found"): now the typed name is made and the run written there.
    void saveAsOutputFolderMakesTheFolder() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        MainWindow w;
        w.show();
        connectToFixture(w);
        const Scenario s = quickBucketScenario(QStringLiteral("details"));
        used_ << s.limiters;
        runToEnd(w, s);
        const QString target = dir.filePath(QStringLiteral("new-run"));
        QVERIFY(!QFileInfo::exists(target));
        bool typed = false;
        QTimer driver;
        driver.setInterval(50);
        connect(&driver, &QTimer::timeout, &w, [&] {
            QWidget* modal = QApplication::activeModalWidget();
            auto* dialog = qobject_cast<QFileDialog*>(modal);
            if (modal != nullptr && (typed || dialog == nullptr)) {
                // After the name: a refusal ("Directory not found") or the dialog still up.
                // Close them all; the checks below fail.
                if (auto* d = qobject_cast<QDialog*>(modal))
                    d->done(QDialog::Rejected);
                return;
            }
            if (dialog == nullptr)
                return;
            auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
            if (name == nullptr)
                return;
            name->setFocus();
            name->setText(target);
            typed = true;
            // Pressed from a call of its own: a box it opens runs while this timer goes on.
            QTimer::singleShot(0, name, [name] { QTest::keyClick(name, Qt::Key_Return); });
        });
        driver.start();
        w.runHistory()->selectRun(1);
        w.runHistory()->saveAction()->trigger();
        driver.stop();
        QVERIFY(typed);
        QVERIFY(QFileInfo(target).isDir());
        QVERIFY(QFileInfo::exists(QDir(target).filePath(QStringLiteral("summary.json"))));
        w.setWindowModified(false);
    }

    // The Tune tab's status is a line of its own and starts with a capital ("not connected
    // to Redis" read as the command line's lowercase fragments).
    void tuneStatusStartsWithACapital() {
        TuneView view;
        view.setScenario(quickBucketScenario(QStringLiteral("details")));
        auto* run = view.findChild<QPushButton*>(QStringLiteral("runSweep"));
        QVERIFY(run != nullptr);
        view.show();
        run->setEnabled(true);  // no Redis: the click says why
        QTest::mouseClick(run, Qt::LeftButton);
        const QString status = view.statusText();
        QVERIFY(!status.isEmpty());
        QVERIFY2(status.at(0).isUpper(), qPrintable(status));
    }

    // At 1024 x 700 beside the editors, Vary x was cut to "login-attempts.rules[0".
    void tuneFieldsReadWholeAt1024() {
        MainWindow w;
        w.resize(1024, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QString login;
        for (const QString& path : exampleScenarios()) {
            if (path.endsWith(QStringLiteral("login-tuning-sweep.json")))
                login = path;
        }
        QVERIFY(!login.isEmpty());
        QVERIFY(w.openScenario(login));
        clickTab(w.views(), w.tuneView());
        QComboBox* x = w.tuneView()->xField();
        int longest = 0;
        for (int i = 1; i < x->count(); ++i) {
            if (x->itemText(i).size() > x->itemText(longest).size())
                longest = i;
        }
        x->setCurrentIndex(longest);
        QVERIFY(x->currentText().contains(QStringLiteral("rules[0]")));
        const int needed = x->fontMetrics().horizontalAdvance(x->currentText());
        QTRY_VERIFY2(
            x->width() >= x->sizeHint().width() && x->width() > needed,
            qPrintable(QStringLiteral("%1 px for %2 px of text").arg(x->width()).arg(needed)));
        w.setWindowModified(false);
    }
};

QTEST_MAIN(TestWindowDetails)
#include "tst_window_details.moc"
