#pragma once

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QMap>
#include <QPointF>
#include <QString>
#include <QVector>
#include <optional>

#include "limiters/calendar_window.h"
#include "limiters/limiter_state.h"
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

    struct Counts {
        QList<QPointF> accepted;
        QList<QPointF> rejected;
        QList<QPointF> errors;  // empty unless the run had errors
        bool showErrors = false;
        QList<QPointF> limit;  // empty when the limiter has no steady-state limit per group
        double yMax = 0;       // the largest value drawn (counts and limit)
        qint64 groupMs = 0;    // the time one step of the series sums
    };
    struct Tokens {
        bool shown = false;  // a token bucket
        QList<QPointF> points;
        double axisTop = 0;  // the capacity, or more if more was seen
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

    // Starts over for a limiter (clears history and markers).
    void setLimiter(const LimiterSpec& spec, int clients, qint64 bucketMs, qint64 startEpochMs);
    // Takes a snapshot's limiter `index` and the limiter's Redis state read at state->nowMs
    // (null when none was read yet). False when the snapshot has no such limiter.
    bool update(const RunSnapshot& run, int index, const LimiterState* state);
    void addMarker(double runSeconds, const QString& label);

    const LimiterSpec& spec() const { return spec_; }
    bool hasRun() const { return hasRun_; }
    qint64 bucketMs() const { return bucketMs_; }
    double elapsedSeconds() const { return double(elapsedUs_) / 1e6; }
    // The chart title: "<b>name</b> · type · config" (HTML), empty without a limiter name.
    QString title() const;

    // The x range that shows the last `windowSeconds` of the run.
    std::pair<double, double> followRange(double windowSeconds) const;

    // The series for the view [viewMin, viewMax].
    Counts counts(double viewMin, double viewMax) const;
    Tokens tokens(double viewMin, double viewMax) const;
    // Remembers each window's shade, so that a window keeps it as the view scrolls.
    QVector<Band> bands(double viewMin, double viewMax);
    QVector<Span> spans() const;
    const QVector<Marker>& markers() const { return markers_; }

private:
    void useSpec(const LimiterSpec& spec);
    void clearStateHistory();
    void ingest(const LimiterState& state);
    void ingestLevels(const LimiterState& state);
    int effectiveClients() const;
    qint64 capacity() const;  // the spec's capacity, times the clients when per client

    bool configured_ = false;  // setLimiter or update was called
    LimiterSpec spec_;
    int clients_ = 1;
    qint64 startEpochMs_ = 0;
    std::optional<CalendarWindows> calendar_;

    // The last snapshot's counts (implicitly shared copies, cheap).
    QVector<qint64> bucketAccepted_;
    QVector<qint64> bucketRejected_;
    QVector<qint64> bucketErrors_;
    qint64 bucketMs_ = 100;
    qint64 elapsedUs_ = 0;
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
};

}  // namespace ratelab
