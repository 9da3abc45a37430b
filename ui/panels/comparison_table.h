#pragma once

#include <QStringList>
#include <QVector>
#include <QWidget>
#include <memory>

#include "output/run_baseline.h"
#include "stats/run_snapshot.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QTableWidget;
QT_END_NAMESPACE

namespace ratelab {

// Side-by-side comparison: one row per limiter with fired, accepted, rejected, errors, the
// errors let through / refused by its on_error policy (the three error columns shown when
// there were errors), accepted %, p50 and p99 latency (ms), Jain fairness, every row shown and
// the columns as wide as their texts; and above it the exact-accounting line
// "fired N = accepted A + rejected R + errors E" per limiter (red if it ever does not hold),
// followed by "(errors X let through, Y refused by on_error P)" when the policy acted.
// With a baseline (setBaseline: "compare with…"), each limiter's row is followed by the
// baseline's row: every metric's baseline value and its difference, "118 (Δ +2)" (this run
// minus the baseline; the cell's tooltip spells it out), or "not in baseline #3".
class ComparisonTable : public QWidget {
    Q_OBJECT

public:
    explicit ComparisonTable(QWidget* parent = nullptr);
    void updateFrom(const RunSnapshot& run);
    QString accountingText() const;  // for tests
    // Shows the accounting line only while it does not hold (red): where the status bar says it
    // already (the window's comparison tab), its rows go to the table.
    void setAccountingOnlyWhenBroken(bool only);
    bool accountingShown() const;
    QStringList row(int limiter) const;  // the cells' texts, for tests
    // A baseline's figures under each limiter's row (null removes them). Shown from the next
    // updateFrom.
    void setBaseline(std::shared_ptr<const RunBaseline> baseline);
    const RunBaseline* baseline() const { return baseline_.get(); }
    QStringList baselineRow(int limiter) const;  // empty without a baseline

protected:
    void changeEvent(QEvent* event) override;

private:
    QString accountingLine(const LimiterSnapshot& s, bool holds, bool brokeEarlier) const;
    void renderAccounting();
    int rowOf(int limiter) const { return baseline_ ? 2 * limiter : limiter; }
    void showBaselineRow(int row, const LimiterSnapshot& s);

    QLabel* accounting_ = nullptr;
    QTableWidget* table_ = nullptr;
    QString plainText_;  // accountingText()
    // A limiter whose identity failed once stays red for the rest of its run: a transient
    // failure is still a bug worth seeing.
    QString runId_;
    QVector<bool> everBroken_;
    QStringList lines_;
    QVector<bool> red_;
    bool accountingOnlyWhenBroken_ = false;
    // The lines carry figures the table has not (gateways' Redis calls, leases): shown even
    // when only a broken identity would show them.
    bool figuresBeyondTable_ = false;
    std::shared_ptr<const RunBaseline> baseline_;
};

}  // namespace ratelab
