#pragma once

#include <QWidget>

#include "lessons/lesson_run.h"

class QLabel;
class QPushButton;

namespace ratelab {

class InlineError;

// What a lesson's frame says, large enough to read from the back of a room: the beat's words with
// their figures, its question and, once the run has moved, the answer, the claims as checked
// (✓ held, ✗ not, with the figure measured), and Back / Next. Its text scales with the window's
// font (presentation mode's too). The keys are the dock's (LessonDock).
class LessonPanel : public QWidget {
    Q_OBJECT

public:
    explicit LessonPanel(QWidget* parent = nullptr);

    void setLesson(const QString& title, int beats);
    void showFrame(const LessonFrame& frame, bool first, bool last);
    void setBusy(bool busy);
    void showProblem(const QString& message);  // empty hides it

    // For tests: the texts as shown.
    QString progressText() const;
    QString sayText() const;
    QString askText() const;     // empty when the frame asks nothing
    QString answerText() const;  // empty until answered
    QString claimsText() const;
    QPushButton* nextButton() const { return next_; }
    QPushButton* backButton() const { return back_; }

signals:
    void nextClicked();
    void backClicked();
    void closeClicked();

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyFonts();

    QLabel* title_ = nullptr;
    QLabel* progress_ = nullptr;
    QLabel* say_ = nullptr;
    QLabel* askLabel_ = nullptr;
    QLabel* ask_ = nullptr;
    QLabel* answerLabel_ = nullptr;
    QLabel* answer_ = nullptr;
    QLabel* claims_ = nullptr;
    InlineError* problem_ = nullptr;
    QPushButton* back_ = nullptr;
    QPushButton* next_ = nullptr;
    int beats_ = 0;
    bool answered_ = false;
};

}  // namespace ratelab
