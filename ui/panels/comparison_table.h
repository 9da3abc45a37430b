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
// there were errors), accepted %, p50 and p99 latency (ms), Jain fairness, the decisions that
// called Redis (shown when a limiter has its own gateway use or the run several gateways) and,
// once the run is over, the admitted burst in the limiter's window ("Max in 1000 ms": bold in
// the palette's error colour above what the limit admits there), a script limiter's
// disagreements with its reference (shown when one has a reference), every row shown and the
// columns as wide as their texts; and above it the exact-accounting line
// "fired N = accepted A + rejected R + errors E" per limiter (red if it ever does not hold),
// followed by "(errors X let through, Y refused by on_error P)" when the policy acted.
// A run with traffic groups has a row per group under each limiter ("  users"; setShowGroups
// hides them): its counts, accepted share, fairness and admitted burst.
// With a baseline (setBaseline: "compare with…"), each limiter's and group's row is followed by
// the baseline's row: every metric's baseline value and its difference, "118 (Δ +2)" (this run
// minus the baseline; the cell's tooltip spells it out), or "not in baseline #3" ("no groups in
// baseline #3" when its summary has none).
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
    // The traffic groups' rows under each limiter (shown by default, when the run has groups).
    void setShowGroups(bool show);
    bool showsGroups() const { return showGroups_; }
    // The cells' texts, for tests; empty for a row not shown.
    QStringList row(int limiter) const;
    // A baseline's figures under each limiter's row (null removes them). Shown from the next
    // updateFrom.
    void setBaseline(std::shared_ptr<const RunBaseline> baseline);
    const RunBaseline* baseline() const { return baseline_.get(); }
    QStringList baselineRow(int limiter) const;  // empty without a baseline
    QStringList groupRow(int limiter, int group) const;
    QStringList groupBaselineRow(int limiter, int group) const;
    // The figure past the limit (bold, in the error colour): for tests.
    bool alerted(int limiter, int column) const;

protected:
    void changeEvent(QEvent* event) override;

private:
    // A row of the table: a limiter's (group -1) or one of its groups', or the baseline's row
    // under either.
    struct RowRef {
        int limiter = 0;
        int group = -1;
        bool baseline = false;
        bool operator==(const RowRef& o) const {
            return limiter == o.limiter && group == o.group && baseline == o.baseline;
        }
    };
    QString accountingLine(const LimiterSnapshot& s, bool holds, bool brokeEarlier) const;
    void renderAccounting();
    void renderTable();
    QStringList rowTexts(const RowRef& ref) const;

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
    // The lines carry figures the table has not (leases; the gateways' Redis calls are its
    // column): shown even when only a broken identity would show them.
    bool figuresBeyondTable_ = false;
    bool showGroups_ = true;
    RunSnapshot run_;         // the last one, to lay the rows out again (groups, palette)
    QVector<RowRef> layout_;  // what each row of the table shows
    std::shared_ptr<const RunBaseline> baseline_;
};

}  // namespace ratelab
