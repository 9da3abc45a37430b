// View → Theme, driven as a person does, offscreen against the fixture Redis: Dark turns the
// application dark (the timelines with it), the next window opens dark, System gives the
// system's palette back, and a run saved as an output folder from a dark window has a dark
// report.png and a report.html that is dark whatever the browser prefers.
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "charts/timeline_chart.h"
#include "run/run_controller.h"
#include "style/palette_colors.h"
#include "support/test_redis.h"
#include "support/window_driving.h"
#include "window/main_window.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// View → Theme → `name`, as the menus show it; null when there is no such entry.
QAction* themeEntry(MainWindow& w, const QString& name) {
    for (QAction* top : w.menuBar()->actions()) {
        if (top->menu() == nullptr || top->text().remove(u'&') != QStringLiteral("View"))
            continue;
        for (QAction* a : top->menu()->actions()) {
            if (a->menu() == nullptr || a->text().remove(u'&') != QStringLiteral("Theme"))
                continue;
            for (QAction* entry : a->menu()->actions()) {
                if (entry->text().remove(u'&') == name)
                    return entry;
            }
        }
    }
    return nullptr;
}

}  // namespace

class TestWindowTheme : public QObject {
    Q_OBJECT

    QPalette system_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ratelab-test-theme"));
        QSettings().clear();
        qRegisterMetaType<RunSnapshot>();
        system_ = QApplication::palette();
        QVERIFY(!style::isDark(system_));  // the test's platform is light
    }

    void darkIsChosenAndRemembered() {
        {
            MainWindow w;
            w.show();
            QAction* dark = themeEntry(w, QStringLiteral("Dark"));
            QVERIFY(dark != nullptr);
            dark->trigger();
            QVERIFY(style::isDark(QApplication::palette()));
            QTRY_VERIFY(style::isDark(w.palette()));
            QVERIFY(!w.timelines().isEmpty());
            QTRY_VERIFY(w.timelines().first()->chart()->backgroundBrush().color().lightness() <
                        128);
            QCOMPARE(QSettings().value(QStringLiteral("view/theme")).toString(),
                     QStringLiteral("dark"));
            w.setWindowModified(false);
        }
        QApplication::setPalette(system_);  // a fresh start: the next window reads the setting
        MainWindow next;
        QAction* dark = themeEntry(next, QStringLiteral("Dark"));
        QVERIFY(dark != nullptr && dark->isChecked());
        QVERIFY(style::isDark(QApplication::palette()));
        // System: the palette the application had, light here.
        themeEntry(next, QStringLiteral("System"))->trigger();
        QCOMPARE(QApplication::palette().color(QPalette::Window), system_.color(QPalette::Window));
        QCOMPARE(QSettings().value(QStringLiteral("view/theme")).toString(),
                 QStringLiteral("system"));
        next.setWindowModified(false);
    }

    // A run saved from a dark window: its report.png dark, its report.html dark too.
    void savedReportsFollowTheTheme() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        MainWindow w;
        w.show();
        connectToFixture(w);
        const Scenario s = quickBucketScenario(QStringLiteral("theme"));
        ScopedLimiter forget(s.limiters.first());
        themeEntry(w, QStringLiteral("Dark"))->trigger();
        w.setScenario(s);
        QSignalSpy finished(w.controller(), &RunController::finished);
        clickToolButton(w, w.startAction());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY(w.saveRunFolder(1, dir.path()));
        const QImage png(QDir(dir.path()).filePath(QStringLiteral("report.png")));
        QVERIFY(!png.isNull());
        QVERIFY2(png.pixelColor(2, 2).lightness() < 128, qPrintable(png.pixelColor(2, 2).name()));
        QFile html(QDir(dir.path()).filePath(QStringLiteral("report.html")));
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QByteArray page = html.readAll();
        QVERIFY(page.contains("<html lang=\"en\" class=\"dark\">"));
        QVERIFY(page.contains("<meta name=\"color-scheme\" content=\"dark\"/>"));
        themeEntry(w, QStringLiteral("System"))->trigger();
        w.setWindowModified(false);
    }
};

QTEST_MAIN(TestWindowTheme)
#include "tst_window_theme.moc"
