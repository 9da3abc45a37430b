#pragma once

#include <QDockWidget>
#include <functional>

class QAction;
class QMenu;
class QShortcut;

namespace ratelab {

class LessonPanel;
class LessonPlayer;
class MainWindow;
struct LessonFrame;

// The window's lessons: File → Lessons (the shipped lessons by title, and any lesson file),
// File → Export lesson…, and the dock that plays one: its panel (LessonPanel) beside the
// timelines, the player (LessonPlayer) moving the run, and the keys → / Space (next) and ←
// (back) while a lesson is open. Opening a lesson shows its scenario in the window (asking about
// unsaved changes first). The window adds it with `new LessonDock(this)` and addMenus.
class LessonDock : public QDockWidget {
    Q_OBJECT

public:
    explicit LessonDock(MainWindow* window);

    // File → Lessons and File → Export lesson…, appended to `file`.
    void addMenus(QMenu* file);
    // Opens the lesson at `path` and shows its first frame; a bad lesson's message goes to the
    // window's banner (false).
    bool openLesson(const QString& path);
    // Plays the whole lesson again (on the I/O thread) and writes DIR/lesson.html in the
    // window's light or dark theme: exported(path) or the banner follows. False when no lesson
    // is open.
    bool exportLesson(const QString& dir);
    void closeLesson();

    // Where Open lesson and Export ask (file dialogs unless a test sets them): a lesson file, or
    // a folder for the page.
    using Chooser = std::function<QString(bool folder)>;
    void setChooser(Chooser chooser) { choose_ = std::move(chooser); }

    LessonPanel* panel() const { return panel_; }
    LessonPlayer* player() const { return player_; }
    QAction* exportAction() const { return export_; }

signals:
    void exported(const QString& path);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void showFrame(const LessonFrame& frame);
    void writePage(const QVector<LessonFrame>& frames, const QString& dir);

    MainWindow* window_;
    LessonPanel* panel_ = nullptr;
    LessonPlayer* player_ = nullptr;
    QAction* export_ = nullptr;
    QVector<QShortcut*> keys_;
    Chooser choose_;
    QString exportDir_;  // an export under way: where its page goes
};

}  // namespace ratelab
