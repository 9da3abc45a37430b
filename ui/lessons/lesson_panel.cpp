#include "lessons/lesson_panel.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>
#include <cmath>

#include "style/inline_error.h"

namespace ratelab {
namespace {

// The beat's words against the window's font: large, for a room.
constexpr double kSayScale = 1.3;
constexpr double kTitleScale = 1.2;

QLabel* wrapped(QWidget* parent, const QString& name) {
    auto* label = new QLabel(parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    return label;
}

QFont scaled(QFont font, double factor) {
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else
        font.setPixelSize(int(font.pixelSize() * factor));
    return font;
}

}  // namespace

LessonPanel::LessonPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* head = new QHBoxLayout;
    title_ = wrapped(this, QStringLiteral("lessonTitle"));
    progress_ = new QLabel(this);
    progress_->setObjectName(QStringLiteral("lessonProgress"));
    head->addWidget(title_, 1);
    head->addWidget(progress_);
    layout->addLayout(head);
    // The words scroll when they need more room than the window has (1024 x 700, presentation
    // mode's fonts): the dock never makes the window taller.
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* words = new QWidget(scroll);
    auto* column = new QVBoxLayout(words);
    column->setContentsMargins(0, 0, 0, 0);
    say_ = wrapped(words, QStringLiteral("lessonSay"));
    askLabel_ = new QLabel(tr("Question"), words);
    ask_ = wrapped(words, QStringLiteral("lessonAsk"));
    answerLabel_ = new QLabel(tr("Answer"), words);
    answer_ = wrapped(words, QStringLiteral("lessonAnswer"));
    claims_ = wrapped(words, QStringLiteral("lessonClaims"));
    problem_ = new InlineError(words);
    problem_->setObjectName(QStringLiteral("lessonProblem"));
    for (QWidget* w : {static_cast<QWidget*>(say_), static_cast<QWidget*>(askLabel_),
                       static_cast<QWidget*>(ask_), static_cast<QWidget*>(answerLabel_),
                       static_cast<QWidget*>(answer_), static_cast<QWidget*>(claims_),
                       static_cast<QWidget*>(problem_)}) {
        column->addWidget(w);
    }
    column->addStretch(1);
    scroll->setWidget(words);
    layout->addWidget(scroll, 1);
    auto* buttons = new QHBoxLayout;
    auto* close = new QPushButton(tr("Close lesson"), this);
    close->setObjectName(QStringLiteral("lessonClose"));
    back_ = new QPushButton(tr("← Back"), this);
    back_->setObjectName(QStringLiteral("lessonBack"));
    back_->setToolTip(tr("The beat before, decided again from the start (←)"));
    next_ = new QPushButton(tr("Next →"), this);
    next_->setObjectName(QStringLiteral("lessonNext"));
    next_->setToolTip(tr("The next beat, or the question's answer (→ or Space)"));
    next_->setDefault(true);
    buttons->addWidget(close);
    buttons->addStretch(1);
    buttons->addWidget(back_);
    buttons->addWidget(next_);
    layout->addLayout(buttons);
    connect(next_, &QPushButton::clicked, this, &LessonPanel::nextClicked);
    connect(back_, &QPushButton::clicked, this, &LessonPanel::backClicked);
    connect(close, &QPushButton::clicked, this, &LessonPanel::closeClicked);
    // Keys go to the window's shortcuts, not to a focused button.
    for (QPushButton* b : {close, back_, next_}) {
        b->setFocusPolicy(Qt::NoFocus);
    }
    applyFonts();
    setLesson(QString(), 0);
}

void LessonPanel::applyFonts() {
    const QFont base = font();
    say_->setFont(scaled(base, kSayScale));
    ask_->setFont([&] {
        QFont f = scaled(base, kSayScale);
        f.setItalic(true);
        return f;
    }());
    answer_->setFont(scaled(base, kSayScale));
    QFont bold = scaled(base, kTitleScale);
    bold.setBold(true);
    title_->setFont(bold);
    QFont label = base;
    label.setBold(true);
    askLabel_->setFont(label);
    answerLabel_->setFont(label);
}

void LessonPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange) {
        applyFonts();  // presentation mode: the window's font grew, the beat's words with it
    }
    QWidget::changeEvent(event);
}

void LessonPanel::setLesson(const QString& title, int beats) {
    beats_ = beats;
    title_->setText(title);
    progress_->clear();
    say_->clear();
    for (QWidget* w : {static_cast<QWidget*>(askLabel_), static_cast<QWidget*>(ask_),
                       static_cast<QWidget*>(answerLabel_), static_cast<QWidget*>(answer_),
                       static_cast<QWidget*>(claims_)}) {
        w->hide();
    }
    problem_->showMessage(QString());
    back_->setEnabled(false);
    next_->setEnabled(false);
}

void LessonPanel::showFrame(const LessonFrame& frame, bool first, bool last) {
    progress_->setText(tr("Beat %1 of %2").arg(frame.beat + 1).arg(beats_));
    say_->setText(frame.say);
    say_->setVisible(!frame.say.isEmpty());
    const bool asks = !frame.ask.isEmpty();
    askLabel_->setVisible(asks);
    ask_->setText(frame.ask);
    ask_->setVisible(asks);
    answered_ = asks && !frame.question;
    answerLabel_->setVisible(asks);
    answer_->setText(frame.question ? tr("Next reveals the answer.") : frame.answer);
    answer_->setEnabled(!frame.question);  // the placeholder reads as a hint, greyed
    answer_->setVisible(asks);
    QStringList claims;
    for (const ExpectationResult& r : frame.checks) {
        claims << tr("%1 %2: %3 (measured %4)")
                      .arg(r.held ? QStringLiteral("✓") : QStringLiteral("✗"), r.limiter,
                           r.expectation.text(),
                           std::isnan(r.measured) ? tr("nothing")
                                                  : LessonText::formatFigure(r.measured));
    }
    claims_->setText(claims.join(QLatin1Char('\n')));
    claims_->setVisible(!claims.isEmpty());
    problem_->showMessage(QString());
    back_->setEnabled(!first);
    next_->setEnabled(!last);
}

void LessonPanel::setBusy(bool busy) {
    setCursor(busy ? Qt::BusyCursor : Qt::ArrowCursor);
}

void LessonPanel::showProblem(const QString& message) {
    problem_->showMessage(message);
}

QString LessonPanel::progressText() const {
    return progress_->text();
}
QString LessonPanel::sayText() const {
    return say_->isVisibleTo(this) ? say_->text() : QString();
}
QString LessonPanel::askText() const {
    return ask_->isVisibleTo(this) ? ask_->text() : QString();
}
QString LessonPanel::answerText() const {
    return answered_ ? answer_->text() : QString();
}
QString LessonPanel::claimsText() const {
    return claims_->isVisibleTo(this) ? claims_->text() : QString();
}

}  // namespace ratelab
