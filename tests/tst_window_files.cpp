// The window's files and connection (offscreen): `ratelab FILE.json` opens that scenario,
// "Discard" at quit discards; the connection bar reconnects to the managed server when it is
// chosen again, says a URL's error on a line of its own, and names the managed server's socket.
#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "editors/limiter_list_editor.h"
#include "scenario/scenario.h"
#include "support/test_files.h"
#include "support/window_driving.h"
#include "window/connection_bar.h"
#include "window/main_window.h"
#include "window/window_arguments.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

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

    // Back from a URL that failed to "Managed local server", the old error stayed and nothing
    // connected until Connect. Choosing the managed server connects to it at once.
    void managedAgainReconnects() {
        ConnectionBar bar;
        bar.show();
        bar.connectToRedis();
        QTRY_VERIFY_WITH_TIMEOUT(bar.connected(), 15000);
        auto* mode = bar.findChild<QComboBox*>(QStringLiteral("redisMode"));
        QVERIFY(mode);
        mode->setCurrentIndex(1);
        emit mode->activated(1);  // as the user's choice
        QVERIFY(!bar.useManagedServer());
        bar.setUrlText(QStringLiteral("redis://127.0.0.1:1"));  // nothing listens there
        QSignalSpy lost(&bar, &ConnectionBar::targetLost);
        bar.connectToRedis();
        QVERIFY(lost.wait(15000));
        QVERIFY2(bar.statusText().startsWith(QStringLiteral("not connected")),
                 qPrintable(bar.statusText()));
        QSignalSpy ready(&bar, &ConnectionBar::targetReady);
        mode->setCurrentIndex(0);
        emit mode->activated(0);
        QVERIFY(ready.wait(15000));
        QVERIFY(bar.connected());
        QVERIFY2(bar.statusText().startsWith(QStringLiteral("connected · managed local server")),
                 qPrintable(bar.statusText()));
    }

    // A URL's error sat beside the status on one line ("… out of range connected · managed
    // local server …"): it has a line of its own now. The managed server is named by its
    // socket, and its choice's tooltip says how to look at it with redis-cli.
    void urlErrorApartAndSocketShown() {
        ConnectionBar bar;
        bar.resize(1000, bar.sizeHint().height());
        bar.show();
        QVERIFY(QTest::qWaitForWindowExposed(&bar));
        bar.connectToRedis();
        QTRY_VERIFY_WITH_TIMEOUT(bar.connected(), 15000);
        const QString socket = bar.currentUrl().socketPath;
        QVERIFY(!socket.isEmpty() && QFile::exists(socket));
        QVERIFY2(bar.statusText().contains(socket), qPrintable(bar.statusText()));
        auto* status = bar.findChild<QLabel*>(QStringLiteral("redisStatus"));
        auto* mode = bar.findChild<QComboBox*>(QStringLiteral("redisMode"));
        QVERIFY2(mode->toolTip().contains(QStringLiteral("redis-cli -s ") + socket),
                 qPrintable(mode->toolTip()));
        QVERIFY(mode->itemData(0, Qt::ToolTipRole).toString().contains(socket));

        bar.setUseManagedServer(false);
        bar.setUrlText(QStringLiteral("redis://127.0.0.1:99999"));
        bar.connectToRedis();
        auto* error = bar.findChild<QLabel*>(QStringLiteral("redisUrlError"));
        QTRY_VERIFY(error->isVisible());
        QVERIFY(status->isVisible());
        QVERIFY2(error->geometry().bottom() < status->geometry().top(),
                 qPrintable(QStringLiteral("error %1..%2, status %3..%4")
                                .arg(error->geometry().top())
                                .arg(error->geometry().bottom())
                                .arg(status->geometry().top())
                                .arg(status->geometry().bottom())));
        QVERIFY(!status->text().contains(error->text()));
    }
};

QTEST_MAIN(TestWindowFiles)
#include "tst_window_files.moc"
