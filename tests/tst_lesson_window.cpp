// A lesson in the window (offscreen), driven as a person drives it: File → Lessons lists the
// shipped lessons, Open lesson file… opens one, → and Space go on (the question first, its answer
// on the next), ← goes back to exactly the frame before, the run in the views and the highlight on
// the timeline follow every frame, presentation mode enlarges the words, File → Export lesson…
// writes lesson.html, and closing the lesson gives the keys back. The frames it shows are the
// ones `ratelab lesson check` decides (playLesson).
#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "charts/timeline_chart.h"
#include "lessons/lesson_dock.h"
#include "lessons/lesson_panel.h"
#include "lessons/lesson_paths.h"
#include "lessons/lesson_player.h"
#include "lessons/lesson_run.h"
#include "support/lesson_documents.h"
#include "support/test_files.h"
#include "support/test_redis.h"
#include "support/window_driving.h"
#include "window/main_window.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

QByteArray lessonJson(const QString& fixed, const QString& log) {
    return boundaryLesson(QStringLiteral("Twice the limit"),
                          QStringLiteral(R"([
    {"until_ms": 50, "say": "Ten pass: {%1.accepted} of {%1.fired}.",
     "highlight": {"limiter": "%1", "from_ms": 0, "to_ms": 100},
     "expect": {"%1": ["accepted == 10"]}},
    {"ask": "How many of the next ten pass?", "answer": "All ten: {%1.accepted} in all.",
     "until_ms": 250, "highlight": {"limiter": "%2", "from_ms": 200, "to_ms": 250}},
    {"steps": 5, "say": "Five more: {%1.fired} fired, {%2.accepted} through the log."}])")
                              .arg(fixed, log),
                          fixed, log);
}

QAction* actionNamed(QMenu* menu, const QString& text) {
    for (QAction* a : menu->actions()) {
        if (a->text() == text)
            return a;
    }
    return nullptr;
}

}  // namespace

class TestLessonWindow : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ratelab-test-lessons"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
    }

    void fileMenuListsTheShippedLessons() {
        MainWindow w;
        QMenu* lessons = w.findChild<QMenu*>(QStringLiteral("lessonsMenu"));
        QVERIFY(lessons != nullptr);
        const QStringList shipped = shippedLessons();
        QVERIFY2(shipped.size() >= 8, qPrintable(shipped.join(QLatin1Char(' '))));
        for (const QString& path : shipped) {
            const QString title = loadLessonFile(path).title;
            QVERIFY2(actionNamed(lessons, title) != nullptr, qPrintable(title));
        }
        QVERIFY(actionNamed(lessons, QStringLiteral("Open lesson &file…")) != nullptr);
        QVERIFY(!w.lessons()->exportAction()->isEnabled());  // no lesson open yet
    }

    void playsALessonAsAPersonDoes() {
        const QString fixed = uniqueName(QStringLiteral("lw-fixed"));
        const QString log = uniqueName(QStringLiteral("lw-log"));
        const QString path = dir_.filePath(QStringLiteral("lesson.json"));
        writeTestFile(path, lessonJson(fixed, log));
        // What `ratelab lesson check` decides: the frames the window must show.
        const QVector<LessonFrame> frames = playLesson(loadLessonFile(path), fixtureUrl());
        QCOMPARE(frames.size(), 4);

        MainWindow w;
        w.resize(1024, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        connectToFixture(w);
        LessonDock* dock = w.lessons();
        LessonPanel* panel = dock->panel();
        dock->setChooser([path](bool folder) { return folder ? QString() : path; });
        QMenu* lessons = w.findChild<QMenu*>(QStringLiteral("lessonsMenu"));
        actionNamed(lessons, QStringLiteral("Open lesson &file…"))->trigger();

        // The first frame: its words with their figures, the run and the highlight in the views.
        QTRY_COMPARE(panel->progressText(), QStringLiteral("Beat 1 of 3"));
        QVERIFY(dock->isVisible());
        QCOMPARE(w.document()->name(), QStringLiteral("boundary lesson"));
        QCOMPARE(panel->sayText(), frames[0].say);
        QCOMPARE(panel->sayText(), QStringLiteral("Ten pass: 10 of 11."));
        QVERIFY(panel->claimsText().contains(QStringLiteral("✓")));
        QVERIFY(!panel->backButton()->isEnabled());
        QCOMPARE(w.lastSnapshot().limiters[0].accepted, qint64(10));
        QVERIFY(w.timelines()[0]->highlight().has_value());
        QCOMPARE(w.timelines()[0]->highlight()->x1, 0.1);
        QVERIFY(!w.timelines()[1]->highlight().has_value());

        // → : the question, asked on the run as it was; its answer not yet.
        QTest::keyClick(&w, Qt::Key_Right);
        QTRY_VERIFY(!dock->player()->busy() && dock->player()->frame() == 1);
        QCOMPARE(panel->progressText(), QStringLiteral("Beat 2 of 3"));
        QCOMPARE(panel->askText(), QStringLiteral("How many of the next ten pass?"));
        QVERIFY(panel->answerText().isEmpty());
        QCOMPARE(w.lastSnapshot().limiters[0].fired, frames[1].run.limiters[0].fired);

        // Space: the run moves (slow motion, then the frame) and the answer shows.
        QTest::keyClick(&w, Qt::Key_Space);
        QTRY_VERIFY(!dock->player()->busy() && dock->player()->frame() == 2);
        QCOMPARE(panel->answerText(), frames[2].answer);
        QCOMPARE(panel->answerText(), QStringLiteral("All ten: 20 in all."));
        QCOMPARE(w.lastSnapshot().limiters[0].accepted, qint64(20));
        QVERIFY(w.timelines()[1]->highlight().has_value());
        QVERIFY(!w.timelines()[0]->highlight().has_value());

        // The button, then ←: back to exactly the frame before, decided again from the start.
        panel->nextButton()->click();
        QTRY_VERIFY(!dock->player()->busy() && dock->player()->frame() == 3);
        QCOMPARE(panel->sayText(), frames[3].say);
        QVERIFY(!panel->nextButton()->isEnabled());
        QTest::keyClick(&w, Qt::Key_Left);
        QTRY_VERIFY(!dock->player()->busy() && dock->player()->frame() == 2);
        QCOMPARE(panel->answerText(), frames[2].answer);
        QCOMPARE(w.lastSnapshot().limiters[0].bucketAccepted,
                 frames[2].run.limiters[0].bucketAccepted);
        QCOMPARE(w.lastSnapshot().limiters[1].bucketRejected,
                 frames[2].run.limiters[1].bucketRejected);

        // Presentation mode (F11): the words grow with the window's font.
        const QLabel* say = panel->findChild<QLabel*>(QStringLiteral("lessonAnswer"));
        const qreal before = say->font().pointSizeF();
        QTest::keyClick(&w, Qt::Key_F11);
        QTRY_VERIFY(w.presentation());
        QVERIFY2(say->font().pointSizeF() > before,
                 qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(say->font().pointSizeF())));
        w.setPresentation(false);

        // File → Export lesson…: lesson.html, the whole lesson played again for it.
        const QString out = dir_.filePath(QStringLiteral("exported"));
        dock->setChooser([out](bool folder) { return folder ? out : QString(); });
        QSignalSpy exported(dock, &LessonDock::exported);
        QVERIFY(dock->exportAction()->isEnabled());
        dock->exportAction()->trigger();
        QTRY_COMPARE(exported.size(), 1);
        QFile page(exported.first().first().toString());
        QVERIFY(page.open(QIODevice::ReadOnly));
        QVERIFY(page.readAll().contains(QStringLiteral("All ten: 20 in all.").toUtf8()));
        // The frame shown is decided again afterwards (the recording deleted the keys).
        QTRY_VERIFY(!dock->player()->busy());
        QCOMPARE(w.lastSnapshot().limiters[0].accepted, qint64(20));

        // Closing the lesson: the dock goes, the keys are the window's again.
        panel->findChild<QPushButton*>(QStringLiteral("lessonClose"))->click();
        QVERIFY(!dock->isVisible());
        QVERIFY(!dock->player()->active());
        QTest::keyClick(&w, Qt::Key_Right);
        QCOMPARE(dock->player()->frame(), -1);
        QVERIFY(!w.timelines()[1]->highlight().has_value());
        QVERIFY(!dock->exportAction()->isEnabled());
    }

    void badLessonSaysWhy() {
        MainWindow w;
        const QString path = dir_.filePath(QStringLiteral("bad.json"));
        writeTestFile(path,
                      R"({"title": "t", "scenario": "nowhere.json", "beats": [{"say": "x"}]})");
        QVERIFY(!w.lessons()->openLesson(path));
        const QString problem =
            w.lessons()->panel()->findChild<QLabel*>(QStringLiteral("lessonProblem"))->text();
        QVERIFY2(problem.contains(QStringLiteral("$.scenario")), qPrintable(problem));
        QVERIFY(!w.lessons()->player()->active());
    }
};

QTEST_MAIN(TestLessonWindow)
#include "tst_lesson_window.moc"
