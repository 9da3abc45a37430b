#include "tools/screenshot_demo.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QTabWidget>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

#include "lessons/lesson_dock.h"
#include "lessons/lesson_paths.h"
#include "lessons/lesson_player.h"
#include "run/run_controller.h"
#include "scenario/example_paths.h"
#include "scenario/scenario.h"
#include "tune/tune_view.h"
#include "window/connection_bar.h"
#include "window/main_window.h"
#include "window/redisson_watch_view.h"

namespace ratelab {
namespace {

void write(const QImage& image, const QString& path) {
    if (!image.save(path, "PNG")) {
        std::fprintf(stderr, "screenshot: cannot write %s\n", qPrintable(path));
    } else {
        std::printf("screenshot: %s\n", qPrintable(path));
    }
    std::fflush(stdout);
}

// Runs steps one after another, each `delayMs` after the previous one and, when it has a
// `ready` condition, once that holds (looked at every 200 ms).
struct Step {
    int delayMs;
    std::function<void()> run;
    std::function<bool()> ready = {};
};
void runSteps(QObject* context, std::shared_ptr<std::vector<Step>> steps, size_t next = 0) {
    if (next >= steps->size()) {
        return;
    }
    QTimer::singleShot((*steps)[next].delayMs, context, [context, steps, next] {
        Step& step = (*steps)[next];
        if (step.ready && !step.ready()) {
            step.delayMs = 200;
            runSteps(context, steps, next);  // not yet: look again
            return;
        }
        step.run();
        runSteps(context, steps, next + 1);
    });
}

// A shipped example scenario's path (empty when none is found).
QString example(const QString& file) {
    for (const QString& dir : exampleScenarioDirs()) {
        if (QFile::exists(QDir(dir).filePath(file)))
            return QDir(dir).filePath(file);
    }
    return QString();
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
    const bool redisson = watch != nullptr && !bucket.isEmpty();
    // Each shot is the whole window; `gray` also writes a grayscale copy (a printed handout).
    auto shot = [&window, dir](const char* name, const char* gray = nullptr) {
        const QImage image = window.grab().toImage();
        write(image, QDir(dir).filePath(QString::fromLatin1(name)));
        if (gray != nullptr) {
            write(image.convertToFormat(QImage::Format_Grayscale8),
                  QDir(dir).filePath(QString::fromLatin1(gray)));
        }
    };
    auto tab = [&window](int index) { window.views()->setCurrentIndex(index); };
    constexpr int kTimelines = 0;
    constexpr int kComparison = 1;
    constexpr int kState = 2;
    auto decided = std::make_shared<int>(0);  // steps decided since the stepping began
    auto steps = std::make_shared<std::vector<Step>>(std::vector<Step>{
        {runSeconds * 1000,
         [shot, tab] {
             tab(kTimelines);
             shot("main.png", "main-gray.png");  // the run under way
             tab(kState);
         }},
        {300,
         [&window, shot, watch, bucket, redisson] {
             shot("state.png");
             if (redisson) {
                 window.views()->setCurrentWidget(watch);
                 watch->setLimiterName(bucket);
                 watch->attach();
             }
         }},
        {3000,
         [shot, tab, redisson] {
             if (redisson) {
                 shot("redisson.png");
             }
             tab(kComparison);
         }},
        // The comparison once the run is over: its admitted bursts are measured then. The run's
        // output folder too (scripts/screenshot.sh shows its report.html in a browser).
        {300,
         [&window, shot, dir] {
             shot("comparison.png");
             const QString folder = QDir(dir).filePath(QStringLiteral("run"));
             if (window.saveRunFolder(1, folder))
                 std::printf("screenshot: %s\n", qPrintable(folder));
         },
         [&window] { return !window.controller()->running(); }},
        {500,
         [&window, tab] {
             // The smallest size the layout is made for.
             tab(kTimelines);
             window.resize(1024, 700);
         }},
        {500,
         [shot, tab] {
             shot("small-1024x700.png");
             tab(kComparison);
         }},
        {500,
         [&window, shot, tab] {
             shot("comparison-1024x700.png");
             window.resize(1600, 1000);
             tab(kTimelines);
             window.setPresentation(true);
         }},
        {500,
         [shot, tab] {
             shot("presentation.png");
             tab(kComparison);
         }},
        {500,
         [&window, shot, tab] {
             shot("presentation-comparison.png");
             tab(kTimelines);
             window.setPresentation(false);
         }},
        {500,
         [&window, shot] {
             shot("after-presentation.png");  // the normal look again, as before
             // The Tune tab: a sweep of the first limiter's first two fields.
             TuneView* tune = window.tuneView();
             window.views()->setCurrentWidget(tune);
             tune->yField()->setCurrentIndex(std::min(2, tune->yField()->count() - 1));
             tune->startSweep();
         }},
        {500,
         [&window, shot, tab] {
             shot("tune.png");
             // View → Theme → Dark, as a person chooses it: every chart follows the palette.
             window.themeAction(style::Theme::Dark)->trigger();
             tab(kTimelines);
         },
         [&window] { return !window.tuneView()->running(); }},
        {500,
         [shot, tab] {
             shot("main-dark.png");
             tab(kComparison);
         }},
        {500,
         [&window, shot, watch, redisson] {
             shot("comparison-dark.png");
             if (redisson) {
                 window.views()->setCurrentWidget(watch);
             }
         }},
        {500,
         [&window, shot, redisson, tab] {
             if (redisson) {
                 shot("redisson-dark.png");
             }
             // The concurrency example: requests in flight against the in-flight limit.
             window.themeAction(style::Theme::Light)->trigger();
             window.setWindowModified(false);  // a demo: nothing of the user's to keep
             if (window.openScenario(example(QStringLiteral("concurrency-leaks.json"))))
                 window.startAction()->trigger();
             tab(kTimelines);
         }},
        {500,
         [&window, shot] {
             shot("concurrency.png", "concurrency-gray.png");
             window.resize(1024, 700);
         },
         [&window] { return !window.controller()->running(); }},
        {500,
         [&window, shot] {
             shot("concurrency-1024x700.png");
             window.resize(1600, 1000);
             window.themeAction(style::Theme::Dark)->trigger();
         }},
        {500,
         [&window, shot, tab] {
             shot("concurrency-dark.png");
             window.themeAction(style::Theme::Light)->trigger();
             // The gateways example: three node-local gateways admit three times the limit.
             window.setWindowModified(false);
             if (window.openScenario(example(QStringLiteral("gateways-local-and-cached.json"))))
                 window.startAction()->trigger();
             tab(kComparison);
         }},
        {500,
         [&window, shot] {
             shot("gateways.png", "gateways-gray.png");
             window.resize(1024, 700);
         },
         [&window] { return !window.controller()->running(); }},
        {500,
         [&window, shot] {
             shot("gateways-1024x700.png");
             window.resize(1600, 1000);
             // A lesson, its panel beside the timelines, two beats in.
             window.setWindowModified(false);
             // The concurrency lesson's in-flight view, else the first lesson.
             const QStringList lessons = shippedLessons();
             const auto found =
                 std::find_if(lessons.begin(), lessons.end(), [](const QString& path) {
                     return path.contains(QLatin1String("concurrency"));
                 });
             if (!lessons.isEmpty())
                 window.lessons()->openLesson(found != lessons.end() ? *found : lessons.first());
         }},
        {3000, [&window] { window.lessons()->player()->next(); }},
        {3000,
         [&window, shot] {
             shot("lesson.png", "lesson-gray.png");
             window.resize(1024, 700);
         }},
        {500,
         [&window, shot, tab, decided] {
             shot("lesson-1024x700.png");
             window.lessons()->closeLesson();
             window.setWindowModified(false);
             // Stepping through the boundary example, as a teacher does in front of a class:
             // twelve steps, ten requests at run time 0 and two in the next window.
             if (window.openScenario(example(QStringLiteral("fixed-window-boundary-burst.json"))))
                 tab(kTimelines);
             *decided = 0;
         }},
        {2000,
         [&window, shot] {
             shot("step-1024x700.png", "step-gray.png");
             window.setWindowModified(false);
             window.close();
             QApplication::quit();
         }},
    });
    // The twelve steps, each once the one before has been decided, before the last shot.
    QObject::connect(window.controller(), &RunController::decided, &window,
                     [decided] { ++*decided; });
    for (int k = 0; k < 12; ++k) {
        steps->insert(steps->end() - 1, Step{300, [&window] { window.stepAction()->trigger(); },
                                             [decided, k] { return *decided >= k; }});
    }
    steps->back().ready = [decided] { return *decided >= 12; };
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
