// The window's files and connection (offscreen): `ratelab FILE.json` opens that scenario,
// "Discard" at quit discards, and the connection bar.
#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "editors/limiter_list_editor.h"
#include "scenario/scenario.h"
#include "support/test_files.h"
#include "window/main_window.h"
#include "window/window_arguments.h"

using namespace ratelab;

namespace {

// Clicks `button` of the next message box named `objectName` once it is shown.
void answerMessageBox(const QString& objectName, QMessageBox::StandardButton button) {
    QTimer::singleShot(0, qApp, [objectName, button] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (box == nullptr || box->objectName() != objectName) {
            answerMessageBox(objectName, button);
            return;
        }
        box->button(button)->click();
    });
}

// A scenario file of one token bucket at `rate` per second named "from a file".
QString writeScenario(const QTemporaryDir& dir, qint64 rate) {
    Scenario s = ScenarioDocument::defaultScenario();
    s.name = QStringLiteral("from a file");
    s.limiters.resize(1);
    s.limiters[0].type = LimiterType::TokenBucket;
    s.limiters[0].name = QStringLiteral("bucket");
    s.limiters[0].rate = rate;
    s.limiters[0].intervalMs = 1000;
    const QString path = dir.filePath(QStringLiteral("scenario.json"));
    test::writeTestFile(path, QJsonDocument(scenarioToJson(s)).toJson());
    return path;
}

}  // namespace

class TestWindowFiles : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ratelab-test-files"));
    }
    void init() { QSettings().clear(); }

    // "Discard" at quit kept the edits: the next window brought the edited example back,
    // unmarked, under the example's title. It opens the file as saved.
    void discardAtQuitDiscards() {
        QTemporaryDir dir;
        const QString path = writeScenario(dir, 7);
        {
            MainWindow w;
            w.show();
            QVERIFY(w.openScenario(path));
            QLineEdit* rate =
                w.findChild<LimiterListEditor*>()->findChild<QLineEdit*>(QStringLiteral("rate"));
            rate->setFocus();
            rate->selectAll();
            QTest::keyClicks(rate, QStringLiteral("30"));
            QTest::keyClick(rate, Qt::Key_Return);
            QVERIFY(w.isWindowModified());
            answerMessageBox(QStringLiteral("unsavedChanges"), QMessageBox::Discard);
            QVERIFY(w.close());
        }
        MainWindow next;
        QCOMPARE(next.scenarioPath(), path);
        QVERIFY(!next.isWindowModified());
        QVERIFY2(next.windowTitle().startsWith(QStringLiteral("from a file")),
                 qPrintable(next.windowTitle()));
        QCOMPARE(next.currentScenario()->limiters.value(0).rate, 7);
        next.setWindowModified(false);
    }

    void windowArguments_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<bool>("presentation");
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QString>("error");
        const QString p = QStringLiteral("ratelab");
        QTest::newRow("none") << QStringList{p} << false << QString() << QString();
        QTest::newRow("a file") << QStringList{p, QStringLiteral("a.json")} << false
                                << QStringLiteral("a.json") << QString();
        QTest::newRow("presentation and a file")
            << QStringList{p, QStringLiteral("--presentation"), QStringLiteral("B.JSON")} << true
            << QStringLiteral("B.JSON") << QString();
        QTest::newRow("two files")
            << QStringList{p, QStringLiteral("a.json"), QStringLiteral("b.json")} << false
            << QStringLiteral("a.json") << QStringLiteral("one scenario file at a time");
        QTest::newRow("something else")
            << QStringList{p, QStringLiteral("a.json"), QStringLiteral("--fast")} << false
            << QStringLiteral("a.json") << QStringLiteral("unknown argument \"--fast\"");
    }

    void windowArguments() {
        QFETCH(QStringList, arguments);
        QFETCH(bool, presentation);
        QFETCH(QString, scenario);
        QFETCH(QString, error);
        const WindowArguments parsed = parseWindowArguments(arguments);
        QCOMPARE(parsed.presentation, presentation);
        QCOMPARE(parsed.scenario, scenario);
        QVERIFY2(error.isEmpty() ? parsed.error.isEmpty() : parsed.error.contains(error),
                 qPrintable(parsed.error));
        QVERIFY(opensWindow(arguments.value(1)));
        QVERIFY(!opensWindow(QStringLiteral("run")));
        QVERIFY(!opensWindow(QStringLiteral("nonsense")));
    }

    // `ratelab FILE.json` said "unknown command". It opens the window with that scenario; a
    // file that cannot be read says so, naming it, and exits 2 as the command line does.
    void scenarioOnTheCommandLine() {
        QTemporaryDir dir;
        const QString path = writeScenario(dir, 7);
        MainWindow w;
        QString error;
        QVERIFY(applyWindowArguments(w,
                                     parseWindowArguments({QStringLiteral("ratelab"), path,
                                                           QStringLiteral("--presentation")}),
                                     &error));
        QCOMPARE(w.scenarioPath(), path);
        QVERIFY(w.presentation());
        QVERIFY(!w.isWindowModified());
        QCOMPARE(w.currentScenario()->limiters.value(0).rate, 7);

        const QString broken = dir.filePath(QStringLiteral("broken.json"));
        test::writeTestFile(broken, QByteArray("{\"name\": 3}"));
        for (const QString& bad : {broken, dir.filePath(QStringLiteral("missing.json"))}) {
            MainWindow other;
            QVERIFY(!applyWindowArguments(other, parseWindowArguments({QStringLiteral("x"), bad}),
                                          &error));
            QVERIFY2(error.contains(bad), qPrintable(error));
            other.setWindowModified(false);

            QProcess ratelab;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
            ratelab.setProcessEnvironment(env);
            ratelab.start(qEnvironmentVariable("RATELAB_BIN"), {bad});
            QVERIFY(ratelab.waitForFinished(30000));
            QCOMPARE(ratelab.exitCode(), 2);
            const QString said = QString::fromLocal8Bit(ratelab.readAllStandardError());
            QVERIFY2(said.contains(bad) && !said.contains(QStringLiteral("unknown command")),
                     qPrintable(said));
        }
        w.setWindowModified(false);
    }
};

QTEST_MAIN(TestWindowFiles)
#include "tst_window_files.moc"
