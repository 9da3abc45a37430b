#include "lessons/lesson_dock.h"

#include <QAction>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QShortcut>

#include "input_error.h"
#include "lessons/lesson_page.h"
#include "lessons/lesson_panel.h"
#include "lessons/lesson_paths.h"
#include "lessons/lesson_player.h"
#include "output/output_folder.h"
#include "run/run_controller.h"
#include "style/palette_colors.h"
#include "window/main_window.h"

namespace ratelab {

LessonDock::LessonDock(MainWindow* window) : QDockWidget(tr("Lesson"), window), window_(window) {
    setObjectName(QStringLiteral("lessonDock"));
    panel_ = new LessonPanel(this);
    setWidget(panel_);
    player_ = new LessonPlayer(window->controller(), window->runView(), this);
    window->addDockWidget(Qt::RightDockWidgetArea, this);
    hide();

    connect(panel_, &LessonPanel::nextClicked, player_, &LessonPlayer::next);
    connect(panel_, &LessonPanel::backClicked, player_, &LessonPlayer::back);
    connect(panel_, &LessonPanel::closeClicked, this, &LessonDock::closeLesson);
    connect(player_, &LessonPlayer::frameShown, this, &LessonDock::showFrame);
    connect(player_, &LessonPlayer::busyChanged, panel_, &LessonPanel::setBusy);
    connect(player_, &LessonPlayer::failed, panel_, &LessonPanel::showProblem);
    connect(window->controller(), &RunController::lessonRecorded, this,
            [this](const QVector<LessonFrame>& frames) {
                if (!exportDir_.isEmpty())
                    writePage(frames, std::exchange(exportDir_, QString()));
            });
    connect(window->controller(), &RunController::failed, this,
            [this] { exportDir_.clear(); });  // an export that failed: the banner says why
    // → and Space go on, ← back, while a lesson is open (a field that takes the key keeps it).
    const std::pair<QKeySequence, void (LessonPlayer::*)()> keys[] = {
        {QKeySequence(Qt::Key_Right), &LessonPlayer::next},
        {QKeySequence(Qt::Key_Space), &LessonPlayer::next},
        {QKeySequence(Qt::Key_Left), &LessonPlayer::back}};
    for (const auto& [key, move] : keys) {
        auto* shortcut = new QShortcut(key, window);
        shortcut->setContext(Qt::WindowShortcut);
        shortcut->setEnabled(false);
        connect(shortcut, &QShortcut::activated, player_, move);
        keys_ << shortcut;
    }
    choose_ = [this](bool folder) {
        return folder ? QFileDialog::getExistingDirectory(window_, tr("Export lesson to"))
                      : QFileDialog::getOpenFileName(window_, tr("Open lesson"),
                                                     shippedLessonsDir(), tr("Lessons (*.json)"));
    };
}

void LessonDock::addMenus(QMenu* file) {
    QMenu* lessons = file->addMenu(tr("&Lessons"));
    lessons->setObjectName(QStringLiteral("lessonsMenu"));
    for (const QString& path : shippedLessons()) {
        QString title = QFileInfo(path).completeBaseName();
        try {
            title = loadLessonFile(path).title;
        } catch (const InputError&) {
            // Listed by its file name: opening it says what is wrong.
        }
        lessons->addAction(title, this, [this, path] { openLesson(path); });
    }
    if (!lessons->isEmpty())
        lessons->addSeparator();
    lessons->addAction(tr("Open lesson &file…"), this, [this] {
        const QString path = choose_(false);
        if (!path.isEmpty())
            openLesson(path);
    });
    export_ = file->addAction(tr("Export &lesson…"), this, [this] {
        const QString dir = choose_(true);
        if (!dir.isEmpty())
            exportLesson(dir);
    });
    export_->setEnabled(false);
}

bool LessonDock::openLesson(const QString& path) {
    Lesson lesson;
    try {
        lesson = loadLessonFile(path);
    } catch (const InputError& e) {
        panel_->setLesson(tr("The lesson cannot be opened"), 0);
        panel_->showProblem(e.message());
        show();
        raise();
        return false;
    }
    // The lesson's scenario in the window: its file, or the inline one as a new scenario.
    const bool shown = lesson.scenarioFile.isEmpty()
                           ? window_->document()->newScenario()
                           : window_->document()->replaceWith(lesson.scenarioFile);
    if (!shown)
        return false;
    if (lesson.scenarioFile.isEmpty()) {
        window_->setScenario(lesson.scenario);
    }
    panel_->setLesson(lesson.title, lesson.beats.size());
    show();
    raise();
    for (QShortcut* key : std::as_const(keys_))
        key->setEnabled(true);
    export_->setEnabled(true);
    player_->start(lesson);
    return true;
}

void LessonDock::closeEvent(QCloseEvent* event) {
    closeLesson();
    QDockWidget::closeEvent(event);
}

void LessonDock::closeLesson() {
    if (player_->active()) {
        // Its limiters' keys go, as an abandoned step session's do.
        for (const LimiterSpec& spec : player_->lesson().scenario.limiters)
            window_->controller()->deleteLimiterKeys(spec);
    }
    player_->stop();
    for (QShortcut* key : std::as_const(keys_))
        key->setEnabled(false);
    export_->setEnabled(false);
    hide();
}

bool LessonDock::exportLesson(const QString& dir) {
    if (!player_->active())
        return false;
    exportDir_ = dir;
    window_->controller()->recordLesson(player_->lesson());
    return true;
}

void LessonDock::writePage(const QVector<LessonFrame>& frames, const QString& dir) {
    const page_kit::Scheme scheme =
        style::isDark(palette()) ? page_kit::Scheme::Dark : page_kit::Scheme::Light;
    const QString path = QDir(dir).filePath(QStringLiteral("lesson.html"));
    try {
        if (!QDir().mkpath(dir))
            throw InputError(dir, tr("cannot make the folder"));
        writeFileAtomically(path, lessonHtml(player_->lesson(), frames, scheme));
    } catch (const InputError& e) {
        panel_->showProblem(e.message());
        return;
    }
    // The recording deleted the lesson's keys: the frame shown is decided again.
    player_->replay();
    emit exported(path);
}

void LessonDock::showFrame(const LessonFrame& frame) {
    panel_->showFrame(frame, player_->frame() == 0, player_->frame() + 1 >= player_->frameCount());
}

}  // namespace ratelab
