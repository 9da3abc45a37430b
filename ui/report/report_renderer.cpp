#include "report/report_renderer.h"
#include "algorithms/algorithm_view.h"
#include "charts/nice_scale.h"
#include "charts/timeline_readout.h"

#include <QAreaSeries>
#include <QBuffer>
#include <QChart>
#include <QCoreApplication>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <memory>

#include "limiters/limit_geometry.h"
#include "report/report_chart_parts.h"
#include "report/report_in_flight.h"
#include "style/palette_colors.h"
#include "style/series_style.h"

namespace ratelab {

namespace {

using report_chart::addAxis;
using report_chart::addLine;

QString tr(const char* text) {
    return QCoreApplication::translate("ratelab::ReportRenderer", text);
}

// The report is printed on white with the light series colours (deep blue / orange / hatched
// grey, the colour-blind-safe set of the window, apart in grayscale too), or on the dark
// palette's background with its colours when the window saving it is dark.
const style::SeriesColors& colors(bool dark) {
    static const style::SeriesColors light = style::seriesColors(false);
    static const style::SeriesColors darkColors = style::seriesColors(true);
    return dark ? darkColors : light;
}
QColor background(bool dark) {
    return dark ? QColor(0x1e, 0x1e, 0x1e) : QColor(Qt::white);
}

// A step series has two points per plotted group, so this keeps each series near 2000 points.
constexpr qint64 kMaxGroups = 1000;
// More calendar windows than this would paint the chart solid; they are left out instead.
constexpr int kMaxBoundaryLines = 300;

// The run's time axis and how buckets are summed into plotted groups (the same for every
// limiter, so the stacked charts share one x axis and one y unit).
struct Timeline {
    qint64 bucketMs = 100;
    double durationMs = 0;
    qint64 groupBuckets = 1;  // buckets summed into one plotted step
    bool dark = false;        // drawn in the dark palette's colours
    qint64 groupMs() const { return groupBuckets * bucketMs; }
    double xMaxSec() const { return durationMs / 1000.0; }
};

Timeline timelineOf(const RunSnapshot& run) {
    Timeline timeline;
    timeline.bucketMs = std::max<qint64>(run.bucketMs, 1);
    qint64 longest = 0;
    for (const LimiterSnapshot& limiter : run.limiters) {
        longest = std::max<qint64>({longest, limiter.bucketAccepted.size(),
                                    limiter.bucketRejected.size(), limiter.bucketErrors.size()});
    }
    timeline.durationMs = double(run.durationUs) / 1000.0;
    if (timeline.durationMs <= 0)
        timeline.durationMs = double(run.elapsedUs) / 1000.0;
    if (timeline.durationMs <= 0)
        timeline.durationMs = double(longest * timeline.bucketMs);
    if (timeline.durationMs <= 0)
        timeline.durationMs = 1000;  // an empty run still gets a sensible axis

    const qint64 buckets =
        std::max(longest, qint64(std::ceil(timeline.durationMs / double(timeline.bucketMs))));
    timeline.groupBuckets = niceAtLeast((buckets + kMaxGroups - 1) / kMaxGroups);
    return timeline;
}

// Sums buckets into groups and returns a step outline: each group is a flat segment over its
// time span, clipped to the run's duration.
QList<QPointF> stepPoints(const QVector<qint64>& buckets, const Timeline& timeline,
                          double* maxValue) {
    QList<QPointF> points;
    const double xMax = timeline.xMaxSec();
    for (qint64 first = 0; first < buckets.size(); first += timeline.groupBuckets) {
        const double x0 = double(first * timeline.bucketMs) / 1000.0;
        if (x0 >= xMax)
            break;
        const qint64 last = std::min<qint64>(first + timeline.groupBuckets, buckets.size());
        qint64 sum = 0;
        for (qint64 i = first; i < last; ++i)
            sum += buckets[int(i)];
        const double x1 = std::min(double(last * timeline.bucketMs) / 1000.0, xMax);
        points << QPointF(x0, double(sum)) << QPointF(x1, double(sum));
        *maxValue = std::max(*maxValue, double(sum));
    }
    return points;
}

qint64 total(const QVector<qint64>& values) {
    qint64 sum = 0;
    for (qint64 value : values)
        sum += value;
    return sum;
}

QString configText(const LimiterSpec& spec, int clients) {
    QString text = algorithmView(spec).configText(spec);
    if (spec.scope == Scope::PerClient)
        text += tr(" per client, %1 clients").arg(clients);
    return text;
}

// `lower` + `upper`, point by point (both step outlines over the same groups: same x values).
QList<QPointF> stackedOn(const QList<QPointF>& lower, const QList<QPointF>& upper,
                         double* maxValue) {
    QList<QPointF> points = upper;
    for (int i = 0; i < points.size() && i < lower.size(); ++i) {
        points[i].ry() += lower[i].y();
        *maxValue = std::max(*maxValue, points[i].y());
    }
    return points;
}

// A step-shaped filled area between `lower` (empty: the axis) and `upper`.
QAreaSeries* addArea(QChart* chart, const QString& name, const QList<QPointF>& upperPoints,
                     const QList<QPointF>& lowerPoints, const QColor& color, bool hatched = false) {
    auto* area = new QAreaSeries(chart);
    auto* upper = new QLineSeries(area);
    upper->replace(upperPoints);
    area->setUpperSeries(upper);
    if (!lowerPoints.isEmpty()) {
        auto* lower = new QLineSeries(area);
        lower->replace(lowerPoints);
        area->setLowerSeries(lower);
    }
    area->setName(name);
    area->setPen(style::seriesPen(color.darker(120), 1.0));
    area->setBrush(style::areaBrush(color, hatched));
    chart->addSeries(area);
    // Filled, as the window's legend draws an area: the series' own shape is a hollow square
    // (and its label was cut to "accep…").
    for (QLegendMarker* marker : chart->legend()->markers(area))
        marker->setShape(QLegend::MarkerShapeRectangle);
    return area;
}

QChart* newChart(bool dark) {
    auto chart = std::make_unique<QChart>();
    chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setBackgroundBrush(background(dark));
    chart->setBackgroundRoundness(0);
    chart->setDropShadowEnabled(false);
    chart->setMargins(QMargins(6, 2, 10, 2));
    chart->legend()->setAlignment(Qt::AlignBottom);
    // Each legend swatch drawn as its series is: a line as a line with its dash, an area as a
    // square (Qt's default draws every series as a square, so two black lines looked alike).
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    QFont titleFont = chart->titleFont();
    titleFont.setPointSizeF(11);
    chart->setTitleFont(titleFont);
    return chart.release();  // the caller hands it to a QGraphicsScene at once
}

// Rich-text title: the limiter and its totals, then a smaller grey line of details.
QString chartTitle(const QString& headline, const QStringList& details, bool dark) {
    QString title = QStringLiteral("<b>%1</b>").arg(headline.toHtmlEscaped());
    if (!details.isEmpty()) {
        title += QStringLiteral("<br><span style=\"color:#%1; font-size:small\">%2</span>")
                     .arg((dark ? QColor(0xaaaaaa) : colors(false).subtitle).name().mid(1),
                          details.join(QStringLiteral(" · ")).toHtmlEscaped());
    }
    return title;
}

void setXAxis(QValueAxis* axis, const Timeline& timeline) {
    const double xMax = timeline.xMaxSec();
    const double step = niceStep(xMax, 10);
    axis->setRange(0, xMax);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    axis->setLabelFormat(step >= 1     ? QStringLiteral("%.0f")
                         : step >= 0.1 ? QStringLiteral("%.1f")
                                       : QStringLiteral("%.2f"));
}

QChart* limiterChart(const RunSnapshot& run, int index, const Timeline& timeline) {
    const LimiterSnapshot& limiter = run.limiters[index];
    const bool first = index == 0;
    QChart* chart = newChart(timeline.dark);
    const style::SeriesColors& c = colors(timeline.dark);
    const LimiterSpec& spec = limiter.spec;
    const int clients = int(limiter.clients.size());
    const double xMax = timeline.xMaxSec();

    // Stacked: rejected on accepted, errors on both; the top edge is the fired count.
    double yMax = 0;
    const QList<QPointF> accepted = stepPoints(limiter.bucketAccepted, timeline, &yMax);
    const QList<QPointF> rejectedTop =
        stackedOn(accepted, stepPoints(limiter.bucketRejected, timeline, &yMax), &yMax);
    const bool withErrors = limiter.errors > 0 || total(limiter.bucketErrors) > 0;
    const QList<QPointF> firedTop =
        withErrors
            ? stackedOn(rejectedTop, stepPoints(limiter.bucketErrors, timeline, &yMax), &yMax)
            : QList<QPointF>();
    // A limit on requests in flight is drawn as such (report_in_flight), not as a rate.
    const TimelineModel::InFlight inFlight =
        report_in_flight::viewOf(run, index, clients, timeline.groupMs(), xMax);
    const double limit = inFlight.shown ? 0 : limitPerBucket(spec, timeline.groupMs(), clients);
    yMax = std::max({yMax * 1.08, limit * 1.15, report_in_flight::releasedTop(inFlight), 1.0});

    QStringList details;
    if (first && !run.scenarioName.isEmpty())
        details << tr("scenario %1").arg(run.scenarioName);
    details << configText(spec, clients);
    if (limiter.hasReference) {
        details << tr("%1 of %2 decided otherwise by its reference")
                       .arg(limiter.reference.disagreed)
                       .arg(limiter.reference.compared);
    }

    auto* axisX = addAxis(chart, Qt::AlignBottom, tr("run time (s)"), timeline.dark);
    setXAxis(axisX, timeline);
    auto* axisY =
        addAxis(chart, Qt::AlignLeft,
                tr("requests per %1").arg(TimelineReadout::durationText(timeline.groupMs())),
                timeline.dark);
    axisY->setRange(0, yMax);
    axisY->applyNiceNumbers();
    axisY->setLabelFormat(axisY->max() >= 5 ? QStringLiteral("%.0f") : QStringLiteral("%.1f"));
    const double yTop = axisY->max();

    QList<QAbstractSeries*> series;
    series << addArea(chart, tr("accepted"), accepted, {}, c.accepted);
    series << addArea(chart, tr("rejected"), rejectedTop, accepted, c.rejected);
    if (withErrors)
        series << addArea(chart, tr("errors"), firedTop, rejectedTop, c.errors, true);
    // Window boundaries over the areas, under the limit line.
    {  // only calendar windows have boundaries (windowBoundaries)
        const qint64 from = run.startEpochMs;
        const qint64 to = from + qint64(std::ceil(timeline.durationMs));
        const QVector<qint64> starts = windowBoundaries(spec, from, to, kMaxBoundaryLines + 1);
        if (starts.size() > kMaxBoundaryLines) {
            details << tr("window boundaries not drawn (more than %1)").arg(kMaxBoundaryLines);
        } else {
            for (int i = 0; i < starts.size(); ++i) {
                const double x = double(starts[i] - from) / 1000.0;
                QLineSeries* line = addLine(chart, tr("window start"), {{x, 0}, {x, yTop}},
                                            style::seriesPen(c.boundary, 1, Qt::DashLine));
                series << line;
                if (i > 0) {  // one legend entry for all boundaries
                    for (QLegendMarker* marker : chart->legend()->markers(line))
                        marker->setVisible(false);
                }
            }
        }
    }
    // Each traffic group's accepted requests, a line over the areas: who got the accepted ones
    // (the window's group pens).
    for (int g = 0; g < limiter.groups.size(); ++g) {
        double unused = 0;  // a group's accepted are part of the limiter's: the scale holds them
        series << addLine(chart, tr("group %1 accepted").arg(limiter.groups[g].group),
                          stepPoints(limiter.groups[g].bucketAccepted, timeline, &unused),
                          style::groupPen(g, timeline.dark));
    }
    if (limit > 0) {
        series << addLine(chart, algorithmView(spec).limitLineLabel(spec),
                          {{0, limit}, {xMax, limit}},
                          style::seriesPen(c.limit, 1.5, Qt::DashLine));
    }
    for (QAbstractSeries* s : series) {
        s->attachAxis(axisX);
        s->attachAxis(axisY);
    }
    if (inFlight.shown)
        report_in_flight::draw(chart, inFlight, axisX, axisY, timeline.dark);

    const QString headline = tr("%1 — %2 · accepted %3 · rejected %4 · errors %5")
                                 .arg(spec.name, limiterTypeName(spec.type))
                                 .arg(limiter.accepted)
                                 .arg(limiter.rejected)
                                 .arg(limiter.errors);
    chart->setTitle(chartTitle(headline, details, timeline.dark));
    return chart;
}

QChart* emptyChart(const RunSnapshot& run, const Timeline& timeline) {
    QChart* chart = newChart(timeline.dark);
    const QString name = run.scenarioName.isEmpty() ? tr("run") : run.scenarioName;
    chart->setTitle(chartTitle(tr("%1 — no limiters").arg(name), {}, timeline.dark));
    // An axis needs a series to show; an empty one draws nothing.
    auto* placeholder = addLine(chart, QString(), {}, QPen(Qt::NoPen));
    chart->legend()->setVisible(false);
    auto* axisX = addAxis(chart, Qt::AlignBottom, tr("run time (s)"), timeline.dark);
    setXAxis(axisX, timeline);
    auto* axisY = addAxis(chart, Qt::AlignLeft, tr("requests"), timeline.dark);
    axisY->setRange(0, 1);
    placeholder->attachAxis(axisX);
    placeholder->attachAxis(axisY);
    return chart;
}

}  // namespace

QImage renderReport(const RunSnapshot& run, int width, int heightPerLimiter, bool dark) {
    // Below these sizes titles, legends and axes no longer fit.
    width = std::max(width, 320);
    heightPerLimiter = std::max(heightPerLimiter, 200);
    Timeline timeline = timelineOf(run);
    timeline.dark = dark;

    // The scene owns the charts, each chart its series and axes. No view: nothing is shown.
    QGraphicsScene scene;
    QVector<QChart*> charts;
    for (int i = 0; i < run.limiters.size(); ++i) {
        charts << limiterChart(run, i, timeline);
        scene.addItem(charts.last());
    }
    if (charts.isEmpty()) {
        charts << emptyChart(run, timeline);
        scene.addItem(charts.last());
    }
    for (int i = 0; i < charts.size(); ++i) {
        charts[i]->setGeometry(QRectF(0, qreal(i) * heightPerLimiter, width, heightPerLimiter));
        charts[i]->layout()->activate();
    }

    // Line the plot areas up so the stacked charts share one run-time axis even when their y
    // labels differ in width: widen the margins of the charts whose plot area is wider.
    if (charts.size() > 1) {
        qreal left = 0;
        qreal right = width;
        for (const QChart* chart : charts) {
            left = std::max(left, chart->plotArea().left());
            right = std::min(right, chart->plotArea().right());
        }
        for (QChart* chart : charts) {
            const QRectF area = chart->plotArea();
            QMargins margins = chart->margins();
            margins.setLeft(margins.left() + qRound(left - area.left()));
            margins.setRight(margins.right() + qRound(area.right() - right));
            chart->setMargins(margins);
            chart->layout()->activate();
        }
    }

    const QRectF bounds(0, 0, width, qreal(heightPerLimiter) * charts.size());
    scene.setSceneRect(bounds);
    QImage image(bounds.size().toSize(), QImage::Format_ARGB32_Premultiplied);
    image.fill(background(dark));
    QPainter painter(&image);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    scene.render(&painter, bounds, bounds);
    painter.end();
    return image;
}

QByteArray reportPng(const RunSnapshot& run, bool dark) {
    const QImage image = renderReport(run, 1200, 360, dark);
    QByteArray png;
    QBuffer buffer(&png);
    if (image.isNull() || !buffer.open(QIODevice::WriteOnly) || !image.save(&buffer, "PNG"))
        return {};
    return png;
}

}  // namespace ratelab
