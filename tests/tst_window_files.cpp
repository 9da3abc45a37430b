// The window's files and connection (offscreen): "Discard" at quit discards.
#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "editors/limiter_list_editor.h"
#include "scenario/scenario.h"
#include "support/test_files.h"
#include "window/main_window.h"

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
};

QTEST_MAIN(TestWindowFiles)
#include "tst_window_files.moc"
