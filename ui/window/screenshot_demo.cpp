#include "window/screenshot_demo.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QTabWidget>
#include <QTimer>
#include <cstdio>

#include "window/connection_bar.h"
#include "window/main_window.h"

namespace ratelab {
namespace {

void save(QWidget* widget, const QString& path) {
    if (!widget->grab().save(path, "PNG")) {
        std::fprintf(stderr, "screenshot: cannot write %s\n", qPrintable(path));
    } else {
        std::printf("screenshot: %s\n", qPrintable(path));
    }
    std::fflush(stdout);
}

}  // namespace

void startScreenshotDemo(MainWindow& window, const QString& scenarioPath, const QString& dir,
                         int runSeconds) {
    QDir().mkpath(dir);
    if (!window.openScenario(scenarioPath)) {
        std::fprintf(stderr, "screenshot: %s\n", qPrintable(window.bannerText()));
        QTimer::singleShot(0, qApp, [] { QApplication::exit(2); });
        return;
    }
    auto* poll = new QTimer(&window);
    poll->setInterval(100);
    QObject::connect(poll, &QTimer::timeout, &window, [&window, poll, dir, runSeconds] {
        if (!window.connectionBar()->connected() || !window.startAction()->isEnabled()) {
            return;  // wait for Redis
        }
        poll->stop();
        poll->deleteLater();
        window.startAction()->trigger();
        QTimer::singleShot(runSeconds * 1000, &window, [&window, dir] {
            QTabWidget* views = window.views();
            views->setCurrentIndex(0);
            save(&window, QDir(dir).filePath(QStringLiteral("main.png")));
            views->setCurrentIndex(1);
            QTimer::singleShot(300, &window, [&window, dir] {
                save(&window, QDir(dir).filePath(QStringLiteral("comparison.png")));
                window.views()->setCurrentIndex(2);
                QTimer::singleShot(300, &window, [&window, dir] {
                    save(&window, QDir(dir).filePath(QStringLiteral("state.png")));
                    window.close();
                    QApplication::quit();
                });
            });
        });
    });
    poll->start();
}

}  // namespace ratelab
