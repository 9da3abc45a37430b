#pragma once

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QMap>
#include <QPointF>
#include <QString>
#include <QVector>
#include <functional>
#include <memory>
#include <optional>

#include "limiters/calendar_window.h"
#include "limiters/limiter_state.h"
#include "output/run_baseline.h"
#include "stats/admitted_burst.h"
#include "stats/run_snapshot.h"

namespace ratelab {

// What the live timeline of one limiter shows, as plain data (no view, no pixels): the run's
// counts per time bucket as step series, the limit line, and the history read from the
// limiter's Redis state (token bucket: permits available over time; fixed window: each calendar
// window's count, remembered after its key expires; sliding window: the current spans), plus
// the markers added during the run. X values are run time in seconds.
class TimelineModel {
    Q_DECLARE_TR_FUNCTIONS(TimelineModel)

public:
    static constexpr int kMaxPointsPerSeries = 2000;
    static constexpr int kMaxTokenHistory = 4000;
    static constexpr int kMaxRememberedWindows = 20000;
    static constexpr int kMaxMarkers = 1000;
    // More calendar windows than this in view would paint the chart solid: no bands then.
    static constexpr int kMaxBands = 240;
    static constexpr double kLimitHeadroom = 4.0;

    // Each series a step outline. The stacked ones are what the chart draws: accepted at the
    // bottom, rejected on top of it, errors on top of both, so that the top edge is the fired
    // count of each step.
    struct Counts {
        QList<QPointF> accepted;
        QList<QPointF> rejected;
        QList<QPointF> errors;       // empty unless the run had errors
        QList<QPointF> rejectedTop;  // accepted + rejected
        QList<QPointF> errorsTop;    // accepted + rejected + errors (fired); empty w/o errors
        bool showErrors = false;
        QList<QPointF> limit;  // a step over time (limit changes); empty without a limit
        double yMax = 0;       // the largest value drawn (fired and limit)
        // A limit more than kLimitHeadroom times every count (a per-client limit times many
        // clients) is not in yMax: the counts would lie at the plot's foot. It is said instead.
        bool limitAbove = false;
        qint64 groupMs = 0;  // the time one step of the series sums
        // The baseline's accepted and rejected per group (not stacked: each its own count),
        // empty without a baseline for this limiter. Its groups are whole baseline buckets:
        // baselineGroupMs is groupMs unless the baseline ran with other buckets.
        QList<QPointF> baselineAccepted;
        QList<QPointF> baselineRejected;
        qint64 baselineGroupMs = 0;
        // Traffic groups: each group's accepted per step (not stacked), in the traffic's order,
        // named by groupNames; empty without groups.
        QVector<QList<QPointF>> groupAccepted;
        QStringList groupNames;
    };
    struct Tokens {
        bool shown = false;     // a token bucket
        QList<QPointF> points;  // all segments, in order
        // The line in pieces: it breaks where the run's decisions failed (Redis unreachable:
        // the state could not be read either, so nothing is known there).
        QVector<QList<QPointF>> segments;
        double axisTop = 0;  // the capacity, or more if more was seen
    };
    // A limiter whose limit is on requests in flight (Algorithm::limitsInFlight), from the
    // run's own counts: grants add a slot, releases give it back, a leaked grant's slot comes
    // back when its lease runs out (at the end of the bucket by which it surely has). Per step:
    // the most in flight at a bucket's end in it, the releases, and the leaked grants.
    struct InFlight {
        bool shown = false;
        QList<QPointF> inFlight;  // step outline, the most in flight in each step
        QList<QPointF> limit;     // the in-flight limit (times the clients when per client)
        QList<QPointF> released;  // releases per step, a step outline
        QList<QPointF> leaked;    // one mark per step with leaked grants: (its middle, in flight)
        QVector<qint64> leakedCounts;  // the leaked grants of each mark
        double axisTop = 0;            // the limit, or more if more was in flight
    };
    // A limit in force from run time `x` (seconds) on.
    struct LimitChange {
        double x = 0;
        LimiterSpec spec;
    };
    // A calendar window in view, shaded alternately; `label` is its count ("7/10"), empty if
    // none is known.
    struct Band {
        double x0 = 0;
        double x1 = 0;
        bool odd = false;
        QString label;
    };
    // A sliding-window rule's span ending at the state's now.
    struct Span {
        double x0 = 0;
        double x1 = 0;
        QString label;
    };
    struct Marker {
        double x = 0;
        QString label;
    };
    // The admitted burst drawn: the busiest interval [x0, x1) of the shortest window the
    // limiter's config names, and the first and last accepted decision inside it (run seconds).
    struct Burst {
        double x0 = 0;
        double x1 = 0;
        double first = 0;
        double last = 0;
        QString label;    // "20 accepted in 1000 ms here" (" · 23 on the run's clock")
        QString toolTip;  // every window's figure (HTML)
    };

    // Starts over for a limiter (clears history and markers).
    void setLimiter(const LimiterSpec& spec, int clients, qint64 bucketMs, qint64 startEpochMs);
    // Takes a snapshot's limiter `index` and the limiter's Redis state read at state->nowMs
    // (null when none was read yet). False when the snapshot has no such limiter.
    bool update(const RunSnapshot& run, int index, const LimiterState* state);
    // A marker; one added less than kMarkerMergeSeconds from the one before joins its label.
    void addMarker(double runSeconds, const QString& label);
    static constexpr double kMarkerMergeSeconds = 1.0;
    // The run's planned duration: the axis shows [0, duration] from before the start to after
    // the end (0: unknown, the last windowSeconds are shown). Snapshots set it too.
    void setDurationSeconds(double seconds);
    double durationSeconds() const { return durationSeconds_; }

    const LimiterSpec& spec() const { return spec_; }
    bool hasRun() const { return hasRun_; }
    qint64 bucketMs() const { return bucketMs_; }
    double elapsedSeconds() const { return double(elapsedUs_) / 1e6; }
    // The chart title: "<b>name</b> · type · config" (HTML), empty without a limiter name.
    QString title() const;

    // The x range while following: the whole planned run [0, duration] (wider if the run went
    // past it), or the last `windowSeconds` when the duration is unknown.
    std::pair<double, double> followRange(double windowSeconds) const;
    // The limits in force, oldest first (one per live edit of the spec).
    const QVector<LimitChange>& limitHistory() const { return limitHistory_; }
    // "rate 10 → 30, interval 1000 → 2000 ms": what differs between two specs.
    static QString describeChange(const LimiterSpec& from, const LimiterSpec& to);

    // The series for the view [viewMin, viewMax] drawn `columns` pixels wide (0: not known):
    // the counts summed into groups of buckets at least a pixel wide each (a group's step is
    // the sum of its buckets), the permits line thinned to each column's first, lowest, highest
    // and last reading. Neither has more than kMaxPointsPerSeries points.
    Counts counts(double viewMin, double viewMax, int columns = 0) const;
    Tokens tokens(double viewMin, double viewMax, int columns = 0) const;
    // In steps of `groupMs` (Counts::groupMs) over the view; not shown for a rate limiter.
    InFlight inFlight(double viewMin, double viewMax, qint64 groupMs) const;
    // Remembers each window's shade, so that a window keeps it as the view scrolls.
    QVector<Band> bands(double viewMin, double viewMax);
    QVector<Span> spans() const;
    const QVector<Marker>& markers() const { return markers_; }

    // The run's admitted-burst figures for this limiter, one per window length, times in epoch
    // ms like LimiterState::nowMs: on the time the limiter decided at (the summary's
    // max_accepted_in_any_<N>ms, what the timeline marks) and, when given, on the run's own clock
    // (max_admitted_in_any_<N>ms_run_clock, named beside it where it differs); empty clears
    // them. A new limiter or run (setLimiter) clears them too.
    void setBusiestIntervals(const QVector<BusiestInterval>& intervals,
                             const QVector<BusiestInterval>& runClock = {});
    const QVector<BusiestInterval>& busiestIntervals() const { return busiest_; }
    // What the timeline marks: the busiest interval of the shortest config window (of the
    // shortest window given when none is a config window); none without accepted permits.
    std::optional<Burst> burst() const;
    // That interval among `intervals` (any order) for `spec`; null when there is none.
    static const BusiestInterval* markedInterval(const LimiterSpec& spec,
                                                 const QVector<BusiestInterval>& intervals);

    // Where this limiter and `other` decided the same requests differently: the count per time
    // bucket of the run (LimiterDisagreement::bucketDisagreed); empty clears them. A new
    // limiter or run (setLimiter) clears them too.
    void setDisagreements(const QVector<qint64>& perBucket, const QString& other);
    const QString& disagreementOther() const { return disagreeWith_; }
    // The groups of `groupMs` (multiples of the bucket) in [lo, hi] with any: (middle in run
    // seconds, count), and the count of the group holding `seconds` (0 for none).
    QList<QPointF> disagreements(double lo, double hi, qint64 groupMs) const;
    qint64 disagreementsAt(double seconds, qint64 groupMs) const;
    // The window lengths the spec names (ms), ascending: the token bucket's interval, the fixed
    // window's length (a month as 30 days), each sliding rule's window, GCRA's and the leaky
    // bucket's period, the counter's window.
    static QVector<qint64> configWindowsMs(const LimiterSpec& spec);

    // "Compare with…": a baseline run, drawn under this limiter's name (null removes it). Kept
    // by setLimiter: a new run keeps comparing with it.
    void setBaseline(std::shared_ptr<const RunBaseline> baseline);
    const RunBaseline* baseline() const { return baseline_.get(); }
    // This limiter's figures in the baseline; null without one or when it has no such limiter.
    const LimiterSummary* baselineLimiter() const;
    // A baseline that has no limiter of this name: the chart says so ("not in baseline #3").
    bool baselineMissing() const { return baseline_ && !baselineLimiter(); }
    QString baselineNote() const;  // empty unless baselineMissing()

private:
    void addBaseline(Counts& counts, double viewMin, double viewMax) const;
    void useSpec(const LimiterSpec& spec);
    void clearStateHistory();
    void ingest(const LimiterState& state);
    void ingestLevels(const LimiterState& state);
    int effectiveClients() const;
    qint64 capacity() const;  // the spec's capacity, times the clients when per client
    // The value `limitOf` gives each limit in force over [viewMin, viewMax], a step at each
    // change (none where it is not above 0).
    QList<QPointF> limitSteps(double viewMin, double viewMax,
                              const std::function<double(const LimiterSpec&)>& limitOf) const;
    bool errorsBetween(double x0, double x1) const;

    bool configured_ = false;  // setLimiter or update was called
    LimiterSpec spec_;
    int clients_ = 1;
    qint64 startEpochMs_ = 0;
    std::optional<CalendarWindows> calendar_;

    // The last snapshot's counts (implicitly shared copies, cheap).
    QVector<qint64> bucketAccepted_;
    QVector<qint64> bucketRejected_;
    QVector<qint64> bucketErrors_;
    QVector<qint64> bucketReleased_;  // traffic with a hold; empty otherwise
    QVector<qint64> bucketLeaked_;
    QStringList groupNames_;                  // traffic groups; empty without
    QVector<QVector<qint64>> groupAccepted_;  // per group, per bucket
    QVector<qint64> errorPrefix_;             // errorPrefix_[i]: errors in buckets [0, i)
    qint64 bucketMs_ = 100;
    qint64 elapsedUs_ = 0;
    double durationSeconds_ = 0;
    bool hasRun_ = false;
    bool hasErrors_ = false;
    int runClients_ = 0;

    // History read from the limiter's state.
    QList<QPointF> tokenHistory_;            // run seconds, permits available
    QMap<qint64, qint64> windowCounts_;      // count by window start (epoch ms), last seen
    QHash<qint64, bool> windowParity_;       // by window start: which band shade it got
    QVector<LimiterState::RuleSpan> spans_;  // of the latest state
    qint64 spansNowMs_ = 0;
    QVector<Span> levelSpans_;  // gcra, sliding_counter, leaky_bucket: of the latest state
    QVector<Marker> markers_;
    QVector<LimitChange> limitHistory_;
    QVector<BusiestInterval> busiest_;
    QVector<BusiestInterval> busiestRunClock_;
    QVector<qint64> disagreed_;  // per bucket, with disagreeWith_
    QString disagreeWith_;
    std::shared_ptr<const RunBaseline> baseline_;
};

}  // namespace ratelab
