#pragma once

#include <QWidget>

#include "run/step_session.h"

QT_BEGIN_NAMESPACE
class QSplitter;
class QTableWidget;
QT_END_NAMESPACE

namespace ratelab {

class ExplanationView;

// The last decisions Step made, newest first: one row per request and limiter with the
// limiter's answer (allowed, retry_after_ms, remaining), the time, client and permits, and beside
// (or, narrow, below) the table the selected decision explained (ExplanationView: why, Redis before
// and after, the headers, what would have let it through). A new step selects its first decision.
// Replaces the status bar message, which had no room for three limiters; cleared when a run starts.
class DecisionPanel : public QWidget {
    Q_OBJECT

public:
    static constexpr int kMaxRequests = 50;  // older requests drop off the end

    explicit DecisionPanel(QWidget* parent = nullptr);

    void addStep(const StepSession::Step& step, const QStringList& names);
    void clear();

    // For tests: how many requests are listed, and one cell's text (row 0 is the newest).
    int requestCount() const { return requests_; }
    QString cellText(int row, int column) const;
    QTableWidget* table() const { return table_; }
    ExplanationView* explanation() const { return explanation_; }

    // The limiter's answer first: where the table is cut, it is the request's details that go.
    enum Column { kLimiter, kAllowed, kRetryAfter, kRemaining, kTime, kClient, kPermits };
    // The least width the explanation keeps beside the table; narrower, it goes below it.
    static constexpr int kExplanationMinWidth = 320;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void showSelected();
    // Side by side while the table's answer columns and the explanation fit across, else the
    // table above the explanation (the Runs list beside the dock, a small window).
    void fitLayout();
    int answerColumnsWidth() const;  // the table's width up to its Remaining column

    QTableWidget* table_ = nullptr;
    ExplanationView* explanation_ = nullptr;
    QSplitter* split_ = nullptr;
    QVector<std::optional<Explanation>> explanations_;  // per table row
    int requests_ = 0;
    QVector<int> rowsPerRequest_;  // newest first
};

}  // namespace ratelab
