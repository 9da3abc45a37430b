#include "lessons/lesson_player.h"

#include "charts/timeline_chart.h"
#include "run/run_controller.h"
#include "run/run_view.h"

namespace ratelab {

LessonPlayer::LessonPlayer(RunController* controller, RunView* view, QObject* parent)
    : QObject(parent), controller_(controller), view_(view) {
    motion_.setInterval(kSlowMotionIntervalMs);
    connect(&motion_, &QTimer::timeout, this, &LessonPlayer::approachStep);
    connect(controller_, &RunController::lessonFramed, this,
            [this](const LessonFrame& frame, qint64 nextTargetUs) {
                if (!lesson_ || wanted_ < 0) {
                    return;  // stopped meanwhile
                }
                frame_ = wanted_;
                wanted_ = -1;
                nextTargetUs_ = nextTargetUs;
                shown_ = frame;
                highlight(frame);
                emit busyChanged(false);
                emit frameShown(frame);
            });
    connect(controller_, &RunController::failed, this, [this](const QString& message) {
        if (!lesson_ || wanted_ < 0) {
            return;  // not the lesson's
        }
        wanted_ = -1;
        motion_.stop();
        emit busyChanged(false);
        emit failed(message);
    });
}

void LessonPlayer::start(const Lesson& lesson) {
    stop();
    lesson_ = lesson;
    places_ = lessonPlaces(lesson);
    controller_->dropLesson();  // a new lesson: its own run from the start
    request(0);
}

void LessonPlayer::stop() {
    motion_.stop();
    if (lesson_) {
        for (TimelineChart* chart : view_->timelines()) {
            chart->clearHighlight();
        }
    }
    lesson_.reset();
    shown_.reset();
    frame_ = -1;
    wanted_ = -1;
    controller_->dropLesson();
}

void LessonPlayer::replay() {
    if (lesson_ && frame_ >= 0 && !busy()) {
        controller_->dropLesson();
        request(frame_);
    }
}

void LessonPlayer::next() {
    if (!lesson_ || frame_ + 1 >= frameCount()) {
        return;
    }
    if (motion_.isActive()) {
        motion_.stop();  // a second Next: no more slow motion, the frame at once
        controller_->showLessonFrame(*lesson_, wanted_);
        return;
    }
    if (busy()) {
        return;
    }
    const qint64 fromUs = shown_ ? shown_->runUs : 0;
    if (slowMotion_ && nextTargetUs_ > fromUs) {
        wanted_ = frame_ + 1;
        emit busyChanged(true);
        motionFromUs_ = fromUs;
        motionStep_ = 0;
        motion_.start();
        return;
    }
    request(frame_ + 1);
}

void LessonPlayer::back() {
    if (!lesson_ || frame_ <= 0) {
        return;
    }
    const int target = (busy() ? wanted_ : frame_) - 1;
    motion_.stop();
    request(std::max(0, std::min(target, frame_ - 1)));
}

void LessonPlayer::request(int frame) {
    wanted_ = frame;
    emit busyChanged(true);
    controller_->showLessonFrame(*lesson_, frame);
}

void LessonPlayer::approachStep() {
    ++motionStep_;
    if (motionStep_ >= kSlowMotionSteps) {
        motion_.stop();
        controller_->showLessonFrame(*lesson_, wanted_);
        return;
    }
    controller_->approachLesson(motionFromUs_ +
                                (nextTargetUs_ - motionFromUs_) * motionStep_ / kSlowMotionSteps);
}

void LessonPlayer::highlight(const LessonFrame& frame) {
    const QVector<TimelineChart*> charts = view_->timelines();
    for (int i = 0; i < charts.size(); ++i) {
        const bool marked = frame.highlight && i < lesson_->scenario.limiters.size() &&
                            lesson_->scenario.limiters[i].name == frame.highlight->limiter;
        if (marked) {
            charts[i]->setHighlight(double(frame.highlight->fromMs) / 1000.0,
                                    double(frame.highlight->toMs) / 1000.0,
                                    tr("beat %1").arg(frame.beat + 1));
        } else {
            charts[i]->clearHighlight();
        }
    }
}

}  // namespace ratelab
