#pragma once

#include <QObject>
#include <QTimer>
#include <optional>

#include "lessons/lesson_run.h"

namespace ratelab {

class RunController;
class RunView;

// Plays a lesson in the window: each frame decided on the I/O thread by the RunController (a
// LessonRun: the run's own decisions in virtual time), its run shown by the views as a step's,
// the beat's highlight drawn on its limiter's timeline. Next moves the run in slow motion (a few
// approaches toward the frame, each drawn) and then shows the frame; Back plays the lesson again
// from the start to the frame before, so that it is exactly that frame. The lesson panel shows
// what it says.
class LessonPlayer : public QObject {
    Q_OBJECT

public:
    LessonPlayer(RunController* controller, RunView* view, QObject* parent = nullptr);

    // Starts `lesson` at its first frame (the window shows its scenario first).
    void start(const Lesson& lesson);
    void next();
    void back();
    // Ends the lesson: the highlight goes, the run stays as it is.
    void stop();
    // The frame shown, decided again from the start (its keys were deleted meanwhile).
    void replay();

    bool active() const { return lesson_.has_value(); }
    const Lesson& lesson() const { return *lesson_; }
    int frameCount() const { return int(places_.size()); }
    // The frame shown (-1 before the first), and whether another is being decided.
    int frame() const { return frame_; }
    bool busy() const { return wanted_ >= 0; }
    const std::optional<LessonFrame>& shown() const { return shown_; }

    // Slow motion between two frames: this many approaches, this far apart.
    static constexpr int kSlowMotionSteps = 8;
    static constexpr int kSlowMotionIntervalMs = 60;
    // Off (tests, a class in a hurry): Next shows the frame at once.
    void setSlowMotion(bool on) { slowMotion_ = on; }

signals:
    void frameShown(const ratelab::LessonFrame& frame);
    void busyChanged(bool busy);
    void failed(const QString& message);

private:
    void request(int frame);
    void approachStep();
    void highlight(const LessonFrame& frame);

    RunController* controller_;
    RunView* view_;
    std::optional<Lesson> lesson_;
    QVector<LessonPlace> places_;
    std::optional<LessonFrame> shown_;
    int frame_ = -1;
    int wanted_ = -1;  // the frame asked for and not shown yet
    qint64 nextTargetUs_ = -1;
    bool slowMotion_ = true;
    // Slow motion: from the run's time to the next frame's, in steps.
    QTimer motion_;
    int motionStep_ = 0;
    qint64 motionFromUs_ = 0;
};

}  // namespace ratelab
