#pragma once

#include <QWidget>

#include "scenario/step_session.h"

QT_BEGIN_NAMESPACE
class QTableWidget;
QT_END_NAMESPACE

namespace ratelab {

// The last decisions Step made, newest first: one row per request and limiter with the time,
// client, permits and the limiter's answer (allowed, retry_after_ms, remaining). Replaces the
// status bar message, which had no room for three limiters; cleared when a run starts.
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

    enum Column { kTime, kClient, kPermits, kLimiter, kAllowed, kRetryAfter, kRemaining };

private:
    QTableWidget* table_ = nullptr;
    int requests_ = 0;
    QVector<int> rowsPerRequest_;  // newest first
};

}  // namespace ratelab
