#include "tools/screenshot_demo.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QPalette>
#include <QTabWidget>
#include <QTimer>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

#include "scenario/scenario.h"
#include "window/connection_bar.h"
#include "window/main_window.h"
#include "window/redisson_watch_view.h"

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

// Runs steps one after another, each `delayMs` after the previous one.
struct Step {
    int delayMs;
    std::function<void()> run;
};
void runSteps(QObject* context, std::shared_ptr<std::vector<Step>> steps, size_t next = 0) {
    if (next >= steps->size()) {
        return;
    }
    QTimer::singleShot((*steps)[next].delayMs, context, [context, steps, next] {
        (*steps)[next].run();
        runSteps(context, steps, next + 1);
    });
}

// The scenario's first token bucket: it keeps Redisson's layout, so the Redisson tab can attach
// to it by name, as it would to a live application's limiter.
QString firstTokenBucket(const QString& scenarioPath) {
    for (const LimiterSpec& spec : loadScenarioFile(scenarioPath).limiters) {
        if (spec.type == LimiterType::TokenBucket) {
            return spec.name;
        }
    }
    return QString();
}

// A dark theme's palette, for the dark shots.
QPalette darkPalette() {
    QPalette p;
    const QColor window(0x2b, 0x2b, 0x2b);
    const QColor text(0xe6, 0xe6, 0xe6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Highlight, QColor(0x2a, 0x82, 0xda));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    p.setColor(QPalette::Mid, QColor(0x50, 0x50, 0x50));
    return p;
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
    const QString bucket = firstTokenBucket(scenarioPath);
    RedissonWatchView* watch = window.redissonView();
    auto shot = [&window, dir](const char* name) {
        save(&window, QDir(dir).filePath(QString::fromLatin1(name)));
    };
    auto steps = std::make_shared<std::vector<Step>>(std::vector<Step>{
        {runSeconds * 1000,
         [&window, shot] {
             window.views()->setCurrentIndex(0);
             shot("main.png");
             window.views()->setCurrentIndex(1);
         }},
        {300,
         [&window, shot] {
             shot("comparison.png");
             window.views()->setCurrentIndex(2);
         }},
        {300,
         [&window, shot, watch, bucket] {
             shot("state.png");
             if (watch != nullptr && !bucket.isEmpty()) {
                 window.views()->setCurrentWidget(watch);
                 watch->setLimiterName(bucket);
                 watch->attach();
             }
         }},
        {3000,
         [&window, shot, watch, bucket] {
             if (watch != nullptr && !bucket.isEmpty()) {
                 shot("redisson.png");
             }
             // The smallest size the layout is made for.
             window.views()->setCurrentIndex(0);
             window.resize(1024, 700);
         }},
        {500,
         [&window, shot] {
             shot("small-1024x700.png");
             window.resize(1600, 1000);
             window.setPresentation(true);
         }},
        {500,
         [&window, shot] {
             shot("presentation.png");
             window.setPresentation(false);
             window.setPalette(darkPalette());  // every chart follows the palette
             window.views()->setCurrentIndex(0);
         }},
        {500,
         [&window, shot, watch, bucket] {
             shot("main-dark.png");
             if (watch != nullptr && !bucket.isEmpty()) {
                 window.views()->setCurrentWidget(watch);
             }
         }},
        {500,
         [&window, shot, watch, bucket] {
             if (watch != nullptr && !bucket.isEmpty()) {
                 shot("redisson-dark.png");
             }
             window.setWindowModified(false);  // a demo: nothing of the user's to keep
             window.close();
             QApplication::quit();
         }},
    });
    auto* poll = new QTimer(&window);
    poll->setInterval(100);
    QObject::connect(poll, &QTimer::timeout, &window, [&window, poll, steps] {
        if (!window.connectionBar()->connected() || !window.startAction()->isEnabled()) {
            return;  // wait for Redis
        }
        poll->stop();
        poll->deleteLater();
        window.startAction()->trigger();
        runSteps(&window, steps);
    });
    poll->start();
}

}  // namespace ratelab
