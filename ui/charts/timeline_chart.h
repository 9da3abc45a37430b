#pragma once

#include <QChartView>
#include <QVector>
#include <memory>

#include "charts/timeline_group_lines.h"
#include "charts/timeline_in_flight.h"
#include "charts/timeline_model.h"
#include "charts/timeline_navigation.h"
#include "charts/timeline_overlay.h"
#include "charts/timeline_readout.h"
#include "charts/timeline_token_line.h"
#include "limiters/limiter_state.h"
#include "stats/run_snapshot.h"

QT_BEGIN_NAMESPACE
class QAreaSeries;
class QLineSeries;
class QScatterSeries;
class QValueAxis;
class QXYSeries;
QT_END_NAMESPACE

namespace ratelab {

class TimeAxis;

// The live timeline of one limiter (Qt Charts): accepted, rejected and errors per time bucket
// (from the run's counts) stacked in that order, so that the top edge is the fired count; the
// limit as a dashed step over time (live edits change it, each with a marker saying what
// changed), and the limiter's state as read from Redis:
// fixed-window boundaries as alternating vertical bands with each window's count (the Redis
// counter, remembered after it expires) written inside, the token bucket's available permits as
// a line on a second axis, the sliding window's current span shaded with the count per rule.
// X is run time in seconds. While following, the axis shows the whole planned run [0, duration]
// from before the start to after the end (the last `windowSeconds` only when the duration is
// unknown); when not following (paused), the mouse wheel zooms and dragging pans, and the
// timelines bound to one TimeAxis zoom, pan and pause together; their plots line up (one second
// at one x, with a permits axis on the right or without). Redraws use QXYSeries::replace with a
// bounded number of points per series.
//
// The parts, one job each: the data lives in a TimelineModel; the bands, spans and markers are a
// TimelineOverlay; where the chart looks (follow or pause, zoom, pan, the shared TimeAxis and
// the plot alignment) is its TimelineNavigation; the traffic groups' lines are
// TimelineGroupLines; the hover readout's text is TimelineReadout's. This view owns the series,
// follows the palette, lays the chart out and redraws.
class TimelineChart : public QChartView {
    Q_OBJECT

public:
    explicit TimelineChart(QWidget* parent = nullptr);

    // Starts over for a limiter (clears history).
    void setLimiter(const LimiterSpec& spec, int clients, qint64 bucketMs, qint64 startEpochMs);
    // Redraws from a snapshot (its limiter `index`) and the limiter's Redis state read at
    // state->nowMs (may be null when no state was read yet).
    void updateFrom(const RunSnapshot& run, int index, const LimiterState* state);
    // The run's admitted-burst figures for this limiter (one per window length, from the run's
    // summary): the busiest interval of its shortest config window is marked on the timeline
    // ("20 accepted in 1000 ms here"), its tooltip lists them all. Empty clears the mark.
    void setBusiestIntervals(const QVector<BusiestInterval>& intervals,
                             const QVector<BusiestInterval>& runClock = {});
    // A span of run time this chart points at, boxed as the admitted burst is, with `label` at
    // the plot's foot (a lesson's beat); kept until cleared.
    void setHighlight(double fromSeconds, double toSeconds, const QString& label = {});
    void clearHighlight();
    const std::optional<TimelineModel::Burst>& highlight() const { return highlight_; }
    // A vertical marker with a label (e.g. "config changed: counters reset").
    void addMarker(double runSeconds, const QString& label);
    // "Compare with…": the baseline run's accepted and rejected per bucket of this limiter as
    // thin dashed lines on the same time axis ("baseline #3 accepted/rejected" in the legend
    // and the tooltip); a baseline without this limiter says so in the title. Null removes
    // it. Kept by setLimiter (a new run).
    void setBaseline(std::shared_ptr<const RunBaseline> baseline);

    // Marks where this limiter and `other` decided the same requests differently: a triangle
    // at the top of each step with any (per bucket of the run; empty clears), the count in the
    // tooltip ("3 decided differently from sliding").
    void setDisagreements(const QVector<qint64>& perBucket, const QString& other);
    QScatterSeries* disagreementSeries() const { return disagree_; }

    // For a projector: thicker lines, larger title, axis labels and notes in the chart (window
    // counts, the admitted burst, markers), no titles on the time and request axes (the right
    // axis keeps its own); false goes back to the normal look, fonts and all.
    void setPresentation(bool on);
    bool presentation() const { return presentation_; }

    void setWindowSeconds(double seconds);  // default 30
    // The planned run's duration, known before the first snapshot (snapshots carry it too).
    void setDurationSeconds(double seconds);
    // The time axis this chart shares with others (zoom, pan, pause): it shows the axis's
    // paused range and writes its own zoom and pan there. Null (and the axis's destruction)
    // goes back to an axis of its own. Not owned.
    void setTimeAxis(TimeAxis* axis);
    TimeAxis* timeAxis() const { return navigation_->timeAxis(); }
    // The paused view [lo, hi]; through the axis also every chart bound to it.
    void setViewRange(double lo, double hi);
    std::pair<double, double> viewRange() const { return navigation_->range(); }
    // A virtual-clock run's chart: a click on the plot (not a drag) asks for the explanation
    // of the request nearest that time (explainRequested).
    void setExplainable(bool on);
    bool explainable() const { return explainable_; }
    // False: zoom and pan. Set on the axis: every chart bound to it follows or pauses.
    void setFollowing(bool following);
    bool following() const { return navigation_->following(); }

    static constexpr int kMaxPointsPerSeries = TimelineModel::kMaxPointsPerSeries;
    // The least width a timeline asks for (its axes, legend and a readable plot).
    static constexpr int kMinimumWidth = 320;

    // For tests and exports.
    const TimelineModel& model() const { return model_; }
    QLineSeries* acceptedSeries() const { return accepted_; }
    QLineSeries* rejectedSeries() const { return rejected_; }  // stacked: accepted + rejected
    QLineSeries* errorsSeries() const { return errors_; }      // stacked: fired
    QAreaSeries* acceptedArea() const { return acceptedArea_; }
    QAreaSeries* rejectedArea() const { return rejectedArea_; }
    QAreaSeries* errorsArea() const { return errorsArea_; }
    // The token line's pieces (broken where decisions failed); tokenSeries() is the first.
    QVector<QLineSeries*> tokenSegments() const;
    QLineSeries* limitSeries() const { return limit_; }
    // The baseline's counts per step (not stacked); hidden and empty without a baseline.
    QLineSeries* baselineAcceptedSeries() const { return baselineAccepted_; }
    QLineSeries* baselineRejectedSeries() const { return baselineRejected_; }
    QString titleText() const { return chart_->title(); }  // as shown (HTML)
    // The tooltip at run time `seconds` (HTML): the step's fired = accepted + rejected + errors,
    // the limit and the permits read there; empty outside the data.
    QString toolTipAt(double seconds) const;
    QLineSeries* tokenSeries() const { return tokens_; }
    // A limiter whose limit is on requests in flight: its in-flight view (hidden otherwise).
    const TimelineInFlight& inFlight() const { return *inFlight_; }
    // Traffic groups: group i's accepted line (shown while the run has that group).
    QLineSeries* groupSeries(int i) const { return groupLines_->line(i); }
    int windowBandCount() const;
    QStringList windowLabels() const;  // the counts written in the bands, oldest first
    QStringList spanLabels() const;    // "5/1000 ms: 3 of 5", one per rule

signals:
    // A click on an explainable chart's plot: run time `seconds`.
    void explainRequested(double seconds);

protected:
    bool viewportEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    QValueAxis* addAxis(Qt::Alignment alignment, const QString& title);
    QLineSeries* addLine(const QString& name);
    QAreaSeries* addArea(const QString& name, QLineSeries** upper, QLineSeries** lower);
    void applyTheme();
    void refresh();
    bool offScreen() const;
    static int plotColumns(const QRectF& plot);
    void updateSeries();
    void updateTokens();
    // `plotResized`: called for a new plot area alone (the labels' rows may grow, not shrink).
    void layoutOverlay(bool plotResized = false);
    double toPixelX(double seconds) const;

    TimelineModel model_;
    std::optional<TimelineModel::Burst> highlight_;  // setHighlight
    bool dark_ = false;
    bool presentation_ = false;
    // The chart theme's fonts, which the normal look goes back to (setTheme with the theme in
    // use changes nothing, so leaving presentation mode cannot count on it).
    struct {
        QFont legend;
        QFont labels;
    } themeFonts_;

    QChart* chart_ = nullptr;  // made and owned by QChartView
    QValueAxis* axisX_ = nullptr;
    QValueAxis* axisY_ = nullptr;
    QValueAxis* axisTokens_ = nullptr;
    QAreaSeries* acceptedArea_ = nullptr;
    QAreaSeries* rejectedArea_ = nullptr;
    QAreaSeries* errorsArea_ = nullptr;
    QLineSeries* accepted_ = nullptr;
    QLineSeries* rejected_ = nullptr;
    QLineSeries* rejectedBase_ = nullptr;  // = accepted_
    QLineSeries* errors_ = nullptr;
    QLineSeries* errorsBase_ = nullptr;  // = rejected_
    QLineSeries* limit_ = nullptr;
    QLineSeries* tokens_ = nullptr;
    QLineSeries* baselineAccepted_ = nullptr;
    QLineSeries* baselineRejected_ = nullptr;
    QScatterSeries* disagree_ = nullptr;
    int columns_ = 0;     // the plot's width in pixels when the series were made
    int labelRows_ = 0;   // the rows of labels the left axis leaves room for
    bool stale_ = false;  // the model changed while the chart was off screen
    bool refreshing_ = false;
    bool explainable_ = false;
    TimelineOverlay overlay_;
    std::unique_ptr<TimelineGroupLines> groupLines_;  // made with the axes
    std::unique_ptr<TimelineTokenLine> tokenLine_;    // tokens_ and its pieces
    std::unique_ptr<TimelineInFlight> inFlight_;      // an in-flight limiter's view
    TimelineNavigation* navigation_ = nullptr;        // a child
    TimelineDrawing drawing_;                         // what the series and the overlay show now
};

}  // namespace ratelab
