#include "charts/timeline_chart.h"
#include "charts/nice_axis.h"
#include "charts/nice_scale.h"

#include <QAreaSeries>
#include <QChart>
#include <QEvent>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QHash>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMap>
#include <QMouseEvent>
#include <QValueAxis>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <utility>

#include "limiters/calendar_window.h"
#include "limiters/limit_geometry.h"

namespace ratelab {

namespace {

// Series colours, as in the offscreen report (report_renderer.cpp).
constexpr QRgb kAcceptedColor = 0x2ca02c;
constexpr QRgb kRejectedColor = 0xd62728;
constexpr QRgb kErrorsColorLight = 0x7f7f7f;
constexpr QRgb kErrorsColorDark = 0xb0b0b0;
constexpr QRgb kLimitColorLight = 0x1f2f5f;
constexpr QRgb kLimitColorDark = 0xaab4e8;
constexpr QRgb kTokensColorLight = 0x1f77b4;
constexpr QRgb kTokensColorDark = 0x6baed6;
constexpr QRgb kMarkerColor = 0xff7f0e;
constexpr QRgb kSpanColor = 0x1f77b4;

// A step has two points per plotted group of buckets.
constexpr qint64 kMaxGroups = TimelineChart::kMaxPointsPerSeries / 2;
// Aligning the groups to multiples of their size and the margin on both sides add up to this
// many groups to those the visible range needs.
constexpr qint64 kGroupSlack = 4;
// More calendar windows than this in view would paint the chart solid: no bands then.
constexpr int kMaxBands = 240;
constexpr int kMaxTokenHistory = 4000;
constexpr int kMaxRememberedWindows = 20000;
constexpr int kMaxMarkers = 1000;
// Zoom limits of the paused view, in seconds.
constexpr double kMinViewSpan = 0.01;
constexpr double kMaxViewSpan = 366.0 * 24 * 3600;

// Stacking of the overlays among the chart's own items: the bands and spans above the plot
// background but under the grid and the series, the labels and markers over everything in the
// plot area.
constexpr qreal kUnderZ = 0.5;
constexpr qreal kOverZ = 20;

qint64 floorDiv(qint64 a, qint64 b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// "200 ms", "1 s", "5 min".
QString durationText(qint64 ms) {
    if (ms >= 60000 && ms % 60000 == 0)
        return QStringLiteral("%1 min").arg(ms / 60000);
    if (ms >= 1000 && ms % 1000 == 0)
        return QStringLiteral("%1 s").arg(ms / 1000);
    return QStringLiteral("%1 ms").arg(ms);
}

QString configText(const LimiterSpec& spec) {
    QString text;
    switch (spec.type) {
        case LimiterType::TokenBucket:
            text = QStringLiteral("%1 per %2 ms").arg(spec.rate).arg(spec.intervalMs);
            break;
        case LimiterType::FixedWindow:
            text = QStringLiteral("%1 per %2 %3")
                       .arg(spec.rate)
                       .arg(spec.interval)
                       .arg(calendarUnitName(spec.unit));
            if (!spec.timezone.isEmpty())
                text += QStringLiteral(" (%1)").arg(QString::fromUtf8(spec.timezone));
            break;
        case LimiterType::SlidingWindow: {
            QStringList rules;
            for (const SlidingRule& rule : spec.rules)
                rules << QStringLiteral("%1 per %2 ms").arg(rule.limit).arg(rule.windowMs);
            text = rules.join(QStringLiteral(", "));
            break;
        }
    }
    if (spec.scope == Scope::PerClient)
        text += QStringLiteral(" per client");
    return text;
}

QPen seriesPen(QRgb color, qreal width, Qt::PenStyle style = Qt::SolidLine) {
    QPen pen{QColor(color)};
    pen.setWidthF(width);
    pen.setStyle(style);
    pen.setCapStyle(Qt::FlatCap);
    pen.setJoinStyle(Qt::MiterJoin);
    return pen;
}

QColor withAlpha(QColor color, int alpha) {
    color.setAlpha(alpha);
    return color;
}

// The buckets [from, to) summed into groups of `group` as a step outline: each group a flat
// segment over its time span, the last one clipped to the run time reached.
QList<QPointF> stepPoints(const QVector<qint64>& buckets, qint64 from, qint64 to, qint64 group,
                          qint64 bucketMs, double elapsedMs, double* maxValue) {
    QList<QPointF> points;
    const qint64 end = std::min<qint64>(to, buckets.size());
    for (qint64 first = from; first < end; first += group) {
        const qint64 last = std::min(first + group, end);
        qint64 sum = 0;
        for (qint64 i = first; i < last; ++i)
            sum += buckets[int(i)];
        const double x0 = double(first * bucketMs) / 1000.0;
        const double x1 = std::min(double(last * bucketMs), elapsedMs) / 1000.0;
        points << QPointF(x0, double(sum)) << QPointF(x1, double(sum));
        *maxValue = std::max(*maxValue, double(sum));
    }
    return points;
}

// Calls back when the watched widget's palette changes (the header declares no changeEvent).
class PaletteWatcher : public QObject {
public:
    PaletteWatcher(QObject* parent, std::function<void()> changed)
        : QObject(parent), changed_(std::move(changed)) {}

    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::PaletteChange ||
            event->type() == QEvent::ApplicationPaletteChange) {
            changed_();
        }
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<void()> changed_;
};

// A text on a translucent background, so it stays readable over the series.
struct Label {
    QGraphicsRectItem* background = nullptr;
    QGraphicsSimpleTextItem* text = nullptr;

    static Label create(QGraphicsItem* parent) {
        Label label;
        label.background = new QGraphicsRectItem(parent);
        label.background->setPen(Qt::NoPen);
        label.text = new QGraphicsSimpleTextItem(label.background);
        label.text->setPos(3, 1);
        return label;
    }
    // Sets the text and returns the label's size.
    QSizeF set(const QString& content, const QFont& font, const QColor& color, const QColor& back) {
        if (text->font() != font)
            text->setFont(font);  // no check inside: it would lay the text out again
        text->setText(content);
        text->setBrush(color);
        background->setBrush(back);
        const QSizeF size = text->boundingRect().size() + QSizeF(6, 2);
        background->setRect(QRectF(QPointF(0, 0), size));
        return size;
    }
    void showAt(const QPointF& topLeft) {
        background->setPos(topLeft);
        background->setVisible(true);
    }
    void hide() { background->setVisible(false); }
};

// Grows a pool of graphics items to hold index i and returns that item.
template <typename T, typename Make>
T& pooled(QVector<T>& pool, int i, Make make) {
    while (pool.size() <= i)
        pool.append(make());
    return pool[i];
}

}  // namespace

struct TimelineChart::Private {
    // What the overlays show, in run seconds (laid out in pixels by layoutOverlays()).
    struct Band {
        double x0 = 0;
        double x1 = 0;
        bool odd = false;
        QString label;  // empty: no count known for this window
    };
    struct Span {
        double x0 = 0;
        double x1 = 0;
        QString label;
    };
    struct Marker {
        double x = 0;
        QString label;
    };
    TimelineChart* q = nullptr;
    QChart* chart = nullptr;
    QValueAxis* axisX = nullptr;
    QValueAxis* axisY = nullptr;
    QValueAxis* axisTokens = nullptr;
    QAreaSeries* acceptedArea = nullptr;
    QAreaSeries* rejectedArea = nullptr;
    QLineSeries* errors = nullptr;
    // Clip containers holding the overlays, each the size of the plot area.
    QGraphicsRectItem* under = nullptr;
    QGraphicsRectItem* over = nullptr;

    // The limiter.
    bool configured = false;  // setLimiter was called
    LimiterSpec spec;
    int clients = 1;
    qint64 startEpochMs = 0;
    std::optional<CalendarWindows> calendar;

    // The last snapshot's counts (implicitly shared copies, cheap).
    QVector<qint64> bucketAccepted;
    QVector<qint64> bucketRejected;
    QVector<qint64> bucketErrors;
    qint64 bucketMs = 100;
    qint64 elapsedUs = 0;
    bool hasRun = false;
    bool hasErrors = false;
    int runClients = 0;

    // History read from the limiter's state.
    QList<QPointF> tokenHistory;            // run seconds, permits available
    QMap<qint64, qint64> windowCounts;      // count by window start (epoch ms), last seen
    QHash<qint64, bool> windowParity;       // by window start: which band shade it got
    QVector<LimiterState::RuleSpan> spans;  // of the latest state
    qint64 spansNowMs = 0;
    QVector<Marker> markers;

    // The visible x range (seconds); while following it is derived from the run time.
    double viewMin = 0;
    double viewMax = 30;
    bool dragging = false;
    double dragStartX = 0;
    double dragMin = 0;
    double dragMax = 0;

    // What is drawn now.
    QVector<Band> bands;
    QVector<Span> drawnSpans;
    // Item pools (owned by the chart through under/over).
    QVector<QGraphicsRectItem*> bandRects;
    QVector<QGraphicsRectItem*> spanRects;
    QVector<QGraphicsLineItem*> markerLines;
    QVector<Label> bandLabels;
    QVector<Label> spanLabelItems;
    QVector<Label> markerLabels;
    bool dark = false;

    double elapsedSec() const { return double(elapsedUs) / 1e6; }
    int effectiveClients() const { return std::max({clients, runClients, 1}); }

    QValueAxis* addAxis(Qt::Alignment alignment, const QString& title) {
        auto* axis = new QValueAxis(chart);
        axis->setTitleText(title);
        chart->addAxis(axis, alignment);
        return axis;
    }

    QAreaSeries* addArea(const QString& name, QLineSeries** upper) {
        auto* area = new QAreaSeries(chart);
        *upper = new QLineSeries(area);
        area->setUpperSeries(*upper);
        area->setName(name);
        chart->addSeries(area);
        return area;
    }

    QLineSeries* addLine(const QString& name) {
        auto* line = new QLineSeries(chart);
        line->setName(name);
        chart->addSeries(line);
        return line;
    }

    void build() {
        chart = q->chart();  // QChartView made one and owns it
        chart->setMargins(QMargins(6, 2, 6, 2));
        chart->legend()->setAlignment(Qt::AlignBottom);

        axisX = addAxis(Qt::AlignBottom, QStringLiteral("run time (s)"));
        axisY = addAxis(Qt::AlignLeft, QStringLiteral("requests"));
        axisTokens = addAxis(Qt::AlignRight, QStringLiteral("permits available"));
        acceptedArea = addArea(QStringLiteral("accepted"), &q->accepted_);
        rejectedArea = addArea(QStringLiteral("rejected"), &q->rejected_);
        errors = addLine(QStringLiteral("errors"));
        q->limit_ = addLine(QStringLiteral("limit (steady state)"));
        q->tokens_ = addLine(QStringLiteral("available permits"));
        for (QAbstractSeries* s : chart->series()) {
            s->attachAxis(axisX);
            s->attachAxis(s == q->tokens_ ? axisTokens : axisY);
        }
        axisX->setTickType(QValueAxis::TicksDynamic);
        axisX->setTickAnchor(0);

        under = new QGraphicsRectItem(chart);
        over = new QGraphicsRectItem(chart);
        for (QGraphicsRectItem* box : {under, over}) {
            box->setPen(Qt::NoPen);
            box->setBrush(Qt::NoBrush);
            box->setFlag(QGraphicsItem::ItemClipsChildrenToShape);
        }
        under->setZValue(kUnderZ);
        over->setZValue(kOverZ);
    }

    // Shows or hides a series with its legend entry (only when that changes: a legend change
    // lays the chart out again).
    void setShown(QAbstractSeries* series, bool shown) {
        if (series->isVisible() != shown)
            series->setVisible(shown);
        for (QLegendMarker* marker : chart->legend()->markers(series)) {
            if (marker->isVisible() != shown)
                marker->setVisible(shown);
        }
    }

    // Colours and fonts; the chart theme follows the application palette.
    void applyTheme() {
        const QPalette palette = q->palette();
        dark = palette.color(QPalette::Window).lightness() < 128;
        chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
        // The theme resets what follows.
        chart->setBackgroundBrush(palette.color(QPalette::Base));
        chart->setBackgroundRoundness(0);
        chart->setDropShadowEnabled(false);
        QFont titleFont = chart->titleFont();
        titleFont.setPointSizeF(10);
        chart->setTitleFont(titleFont);
        q->setBackgroundBrush(palette.color(QPalette::Base));

        for (QAreaSeries* area : {acceptedArea, rejectedArea}) {
            const QRgb color = area == acceptedArea ? kAcceptedColor : kRejectedColor;
            area->setPen(seriesPen(color, 1.5));
            area->setBrush(withAlpha(QColor(color), dark ? 110 : 80));
        }
        errors->setPen(seriesPen(dark ? kErrorsColorDark : kErrorsColorLight, 1.5));
        q->limit_->setPen(seriesPen(dark ? kLimitColorDark : kLimitColorLight, 1.5, Qt::DashLine));
        q->tokens_->setPen(seriesPen(dark ? kTokensColorDark : kTokensColorLight, 1.5));
        for (QValueAxis* axis : {axisX, axisY, axisTokens}) {
            QFont font = axis->titleFont();
            font.setPointSizeF(9);
            font.setBold(false);
            axis->setTitleFont(font);
            if (!dark)
                axis->setGridLineColor(QColor(0xe0e0e0));
        }
        axisTokens->setGridLineVisible(false);
        refresh();  // hides the legend entries of hidden series again
    }

    void setTitle() {
        if (spec.name.isEmpty()) {
            chart->setTitle(QString());
            return;
        }
        chart->setTitle(QStringLiteral("<b>%1</b> · %2 · %3")
                            .arg(spec.name.toHtmlEscaped(), limiterTypeName(spec.type),
                                 configText(spec).toHtmlEscaped()));
    }

    // A new spec (setLimiter, or a config change during the run).
    void useSpec(const LimiterSpec& newSpec) {
        spec = newSpec;
        calendar.reset();
        if (spec.type == LimiterType::FixedWindow && spec.interval > 0)
            calendar.emplace(spec.interval, spec.unit, zoneForId(spec.timezone));
        configured = true;
        setTitle();
    }

    void clearStateHistory() {
        tokenHistory.clear();
        windowCounts.clear();
        windowParity.clear();
        spans.clear();
        spansNowMs = 0;
    }

    // What the limiter's Redis state adds to the history.
    void ingest(const LimiterState& state) {
        switch (spec.type) {
            case LimiterType::TokenBucket: {
                qint64 available = 0;
                for (const auto& scopeKey : state.tokensAvailable)
                    available += scopeKey.second;
                const double x = double(state.nowMs - startEpochMs) / 1000.0;
                // A reading from before the newest one (a restarted clock) replaces what follows.
                while (!tokenHistory.isEmpty() && tokenHistory.last().x() > x)
                    tokenHistory.removeLast();
                if (!tokenHistory.isEmpty() && tokenHistory.last().x() == x)
                    tokenHistory.last().setY(double(available));
                else
                    tokenHistory.append(QPointF(x, double(available)));
                if (tokenHistory.size() > kMaxTokenHistory)
                    tokenHistory.erase(tokenHistory.begin(), tokenHistory.end() - kMaxTokenHistory);
                break;
            }
            case LimiterType::FixedWindow: {
                QMap<qint64, qint64> seen;  // per_client: summed over the clients
                for (const LimiterState::WindowCount& w : state.windows)
                    seen[w.startMs] += w.count;
                for (auto it = seen.cbegin(); it != seen.cend(); ++it)
                    windowCounts[it.key()] = it.value();
                // The window of `now` has no counter yet (or it was reset): it holds 0. Older
                // windows missing from Redis have expired and keep their last seen count.
                if (calendar) {
                    const qint64 current = calendar->windowAt(state.nowMs).startMs;
                    if (!seen.contains(current))
                        windowCounts[current] = 0;
                }
                while (windowCounts.size() > kMaxRememberedWindows)
                    windowCounts.erase(windowCounts.begin());
                break;
            }
            case LimiterType::SlidingWindow:
                spans = state.spans;
                spansNowMs = state.nowMs;
                break;
        }
    }

    // Redraws everything for the current view.
    void refresh() {
        if (q->following_) {
            const double elapsed = elapsedSec();
            if (!hasRun) {
                viewMin = 0;
                viewMax = q->windowSeconds_;
            } else {
                viewMin = std::max(0.0, elapsed - q->windowSeconds_);
                viewMax = std::max(elapsed, viewMin + double(bucketMs) / 1000.0);
            }
        }
        const double span = viewMax - viewMin;
        const double step = niceStep(span, 8);
        axisX->setRange(viewMin, viewMax);
        if (axisX->tickInterval() != step)
            axisX->setTickInterval(step);
        const QString format = step >= 1      ? QStringLiteral("%.0f")
                               : step >= 0.1  ? QStringLiteral("%.1f")
                               : step >= 0.01 ? QStringLiteral("%.2f")
                                              : QStringLiteral("%.3f");
        if (axisX->labelFormat() != format)
            axisX->setLabelFormat(format);
        updateCounts();
        updateTokens();
        updateBands();
        updateSpans();
        layoutOverlays();
    }

    // Accepted, rejected, errors and the limit for the visible buckets (plus a margin of one
    // group on each side), summed into groups when there are too many.
    void updateCounts() {
        const qint64 firstVisible = qint64(std::floor(viewMin * 1000.0 / double(bucketMs)));
        const qint64 endVisible = qint64(std::ceil(viewMax * 1000.0 / double(bucketMs)));
        const qint64 visible = std::max<qint64>(endVisible - firstVisible, 1);
        const qint64 perGroup =
            (visible + kMaxGroups - kGroupSlack - 1) / (kMaxGroups - kGroupSlack);
        const qint64 group = niceAtLeast(std::max<qint64>(perGroup, 1));
        // Groups aligned to multiples of their size do not shift as the view scrolls.
        const qint64 from = std::max<qint64>(0, (floorDiv(firstVisible, group) - 1) * group);
        const qint64 reached = (elapsedUs + bucketMs * 1000 - 1) / (bucketMs * 1000);
        const qint64 to = std::min((floorDiv(endVisible + group - 1, group) + 1) * group, reached);
        const double elapsedMs = double(elapsedUs) / 1000.0;

        double yMax = 0;
        q->accepted_->replace(
            stepPoints(bucketAccepted, from, to, group, bucketMs, elapsedMs, &yMax));
        q->rejected_->replace(
            stepPoints(bucketRejected, from, to, group, bucketMs, elapsedMs, &yMax));
        errors->replace(hasErrors
                            ? stepPoints(bucketErrors, from, to, group, bucketMs, elapsedMs, &yMax)
                            : QList<QPointF>());
        setShown(errors, hasErrors);

        const qint64 groupMs = group * bucketMs;
        const double limit = limitPerBucket(spec, groupMs, effectiveClients());
        q->limit_->replace(limit > 0 ? QList<QPointF>{{viewMin, limit}, {viewMax, limit}}
                                     : QList<QPointF>());
        setShown(q->limit_, limit > 0);

        const QString title = QStringLiteral("requests per %1").arg(durationText(groupMs));
        if (axisY->titleText() != title)
            axisY->setTitleText(title);
        setNiceRange(axisY, std::max(yMax, limit) * 1.1);
    }

    // The token history in view (and one point on each side), thinned out when too long.
    void updateTokens() {
        const bool tokenBucket = configured && spec.type == LimiterType::TokenBucket;
        setShown(q->tokens_, tokenBucket);
        if (axisTokens->isVisible() != tokenBucket)
            axisTokens->setVisible(tokenBucket);
        if (!tokenBucket) {
            q->tokens_->clear();
            return;
        }
        auto first = std::lower_bound(tokenHistory.cbegin(), tokenHistory.cend(), viewMin,
                                      [](const QPointF& p, double x) { return p.x() < x; });
        auto last = std::upper_bound(first, tokenHistory.cend(), viewMax,
                                     [](double x, const QPointF& p) { return x < p.x(); });
        if (first != tokenHistory.cbegin())
            --first;
        if (last != tokenHistory.cend())
            ++last;
        // Every stride-th point and always the newest one.
        const qint64 count = last - first;
        const qint64 maxPoints = TimelineChart::kMaxPointsPerSeries;
        const qint64 stride = std::max<qint64>(1, (count - 1 + maxPoints - 2) / (maxPoints - 1));
        QList<QPointF> points;
        for (qint64 i = 0; i < count - 1; i += stride)
            points << first[i];
        if (count > 0)
            points << first[count - 1];
        double yMax = 0;
        for (const QPointF& p : points)
            yMax = std::max(yMax, p.y());
        q->tokens_->replace(points);
        const double capacity =
            double(spec.rate) * (spec.scope == Scope::PerClient ? effectiveClients() : 1);
        setNiceRange(axisTokens, std::max(capacity, yMax) * 1.05);
    }

    // The calendar windows overlapping the view, with their remembered counts.
    void updateBands() {
        bands.clear();
        if (spec.type != LimiterType::FixedWindow || !calendar)
            return;
        const qint64 fromMs = startEpochMs + qint64(std::floor(viewMin * 1000.0));
        const qint64 toMs = startEpochMs + qint64(std::ceil(viewMax * 1000.0));
        QVector<CalendarWindow> windows;
        for (CalendarWindow w = calendar->windowAt(fromMs); w.startMs < toMs;) {
            if (windows.size() == kMaxBands)
                return;
            windows.append(w);
            const CalendarWindow next = calendar->windowAt(w.endMs);
            if (next.startMs <= w.startMs)
                break;  // windows always move forward; never loop if they did not
            w = next;
        }
        if (windows.isEmpty())
            return;

        // Shades alternate; a window keeps its shade as the view scrolls.
        int known = -1;
        for (int i = 0; i < windows.size() && known < 0; ++i) {
            if (windowParity.contains(windows[i].startMs))
                known = i;
        }
        bool firstOdd = false;
        if (known >= 0) {
            firstOdd = windowParity.value(windows[known].startMs) != (known % 2 == 1);
        } else {
            const qint64 previous = calendar->windowAt(windows.first().startMs - 1).startMs;
            firstOdd = windowParity.contains(previous) && !windowParity.value(previous);
        }
        if (windowParity.size() > kMaxRememberedWindows)
            windowParity.clear();

        const qint64 capacity =
            spec.rate * (spec.scope == Scope::PerClient ? effectiveClients() : 1);
        for (int i = 0; i < windows.size(); ++i) {
            Band band;
            band.x0 = double(windows[i].startMs - startEpochMs) / 1000.0;
            band.x1 = double(windows[i].endMs - startEpochMs) / 1000.0;
            band.odd = firstOdd != (i % 2 == 1);
            windowParity.insert(windows[i].startMs, band.odd);
            const auto record = windowCounts.constFind(windows[i].startMs);
            if (record != windowCounts.cend())
                band.label = QStringLiteral("%1/%2").arg(*record).arg(capacity);
            bands.append(band);
        }
    }

    void updateSpans() {
        drawnSpans.clear();
        if (spec.type != LimiterType::SlidingWindow)
            return;
        const double now = double(spansNowMs - startEpochMs) / 1000.0;
        for (const LimiterState::RuleSpan& rule : spans) {
            Span span;
            span.x0 = now - double(rule.windowMs) / 1000.0;
            span.x1 = now;
            span.label = QStringLiteral("%1/%2 ms: ").arg(rule.limit).arg(rule.windowMs);
            if (spec.scope == Scope::PerClient) {
                span.label += QStringLiteral("%1 of %2 (busiest client %3) · %4 in all")
                                  .arg(rule.busiest)
                                  .arg(rule.limit)
                                  .arg(rule.busiestClient.isEmpty() ? QStringLiteral("–")
                                                                    : rule.busiestClient)
                                  .arg(rule.total);
            } else {
                span.label += QStringLiteral("%1 of %2").arg(rule.total).arg(rule.limit);
            }
            drawnSpans.append(span);
        }
    }

    double toPixelX(double seconds) const {
        return chart->mapToPosition(QPointF(seconds, 0), acceptedArea).x();
    }

    // Places the overlay items for the current plot area and x range.
    void layoutOverlays() {
        const QRectF plot = chart->plotArea();
        under->setRect(plot);
        over->setRect(plot);
        const QPalette palette = q->palette();
        const QColor textColor = palette.color(QPalette::Text);
        const QColor labelBack = withAlpha(palette.color(QPalette::Base), 190);
        QFont font = q->font();
        font.setPointSizeF(8.5);
        const auto makeRect = [this] {
            auto* rect = new QGraphicsRectItem(under);
            rect->setPen(Qt::NoPen);
            return rect;
        };
        const auto makeLabel = [this] { return Label::create(over); };

        // Fixed-window bands with their counts.
        for (int i = 0; i < bands.size(); ++i) {
            const Band& band = bands[i];
            const QRectF rect(QPointF(toPixelX(band.x0), plot.top()),
                              QPointF(toPixelX(band.x1), plot.bottom()));
            QGraphicsRectItem* item = pooled(bandRects, i, makeRect);
            item->setRect(rect);
            item->setBrush(withAlpha(textColor, band.odd ? (dark ? 40 : 28) : (dark ? 16 : 10)));
            item->setVisible(true);
            // The label is centred in the visible part of the band, left out if it does not fit.
            Label& label = pooled(bandLabels, i, makeLabel);
            const QRectF inView = rect.intersected(plot);
            const QSizeF size = label.set(band.label, font, textColor, labelBack);
            if (band.label.isEmpty() || size.width() + 4 > inView.width())
                label.hide();
            else
                label.showAt(QPointF(inView.center().x() - size.width() / 2, plot.top() + 3));
        }
        for (int i = bands.size(); i < bandRects.size(); ++i)
            bandRects[i]->setVisible(false);
        for (int i = bands.size(); i < bandLabels.size(); ++i)
            bandLabels[i].hide();

        // Sliding-window spans: nested translucent bands ending at the state's now, their
        // labels stacked at the top, left of now.
        double labelY = plot.top() + 3;
        for (int i = 0; i < drawnSpans.size(); ++i) {
            const Span& span = drawnSpans[i];
            const double right = toPixelX(span.x1);
            QGraphicsRectItem* item = pooled(spanRects, i, makeRect);
            item->setRect(
                QRectF(QPointF(toPixelX(span.x0), plot.top()), QPointF(right, plot.bottom())));
            item->setBrush(withAlpha(QColor(kSpanColor), dark ? 50 : 32));
            item->setVisible(true);
            Label& label = pooled(spanLabelItems, i, makeLabel);
            const QSizeF size = label.set(span.label, font, textColor, labelBack);
            const double x =
                std::max(plot.left() + 2, std::min(right, plot.right()) - size.width() - 4);
            label.showAt(QPointF(x, labelY));
            labelY += size.height() + 2;
        }
        for (int i = drawnSpans.size(); i < spanRects.size(); ++i)
            spanRects[i]->setVisible(false);
        for (int i = drawnSpans.size(); i < spanLabelItems.size(); ++i)
            spanLabelItems[i].hide();

        // Markers in view: dashed vertical lines, labels near the bottom (staggered in three
        // rows so that close markers stay readable).
        const QPen markerPen = seriesPen(kMarkerColor, 1.5, Qt::DashLine);
        const auto makeLine = [this] { return new QGraphicsLineItem(over); };
        int drawn = 0;
        for (const Marker& marker : markers) {
            if (marker.x < viewMin || marker.x > viewMax)
                continue;
            const double x = toPixelX(marker.x);
            QGraphicsLineItem* line = pooled(markerLines, drawn, makeLine);
            line->setPen(markerPen);
            line->setLine(QLineF(x, plot.top(), x, plot.bottom()));
            line->setVisible(true);
            Label& label = pooled(markerLabels, drawn, makeLabel);
            const QSizeF size = label.set(marker.label, font, QColor(kMarkerColor), labelBack);
            const double left = x + size.width() + 2 > plot.right() ? x - size.width() - 2 : x + 2;
            const double top = plot.bottom() - (size.height() + 2) * (1 + drawn % 3) - 2;
            label.showAt(QPointF(left, top));
            ++drawn;
        }
        for (int i = drawn; i < markerLines.size(); ++i)
            markerLines[i]->setVisible(false);
        for (int i = drawn; i < markerLabels.size(); ++i)
            markerLabels[i].hide();
    }

    // How wide the paused view may be (seconds).
    double clampSpan(double span) const {
        const double widest =
            std::min(kMaxViewSpan, std::max({elapsedSec(), q->windowSeconds_, 1.0}) * 1.5);
        return std::clamp(span, kMinViewSpan, widest);
    }

    // The paused view: [lo, lo + span], kept at or after run time 0 and showing some data.
    void setView(double lo, double span) {
        lo = std::min(lo, std::max(0.0, elapsedSec() - span * 0.1));
        lo = std::max(lo, 0.0);
        viewMin = lo;
        viewMax = lo + span;
        refresh();
    }

    // The x value (seconds) under a viewport position.
    double valueAt(const QPointF& viewportPos) const {
        const QPointF inChart = chart->mapFromScene(q->mapToScene(viewportPos.toPoint()));
        return chart->mapToValue(inChart, acceptedArea).x();
    }
};

TimelineChart::TimelineChart(QWidget* parent)
    : QChartView(parent), d_(std::make_unique<Private>()) {
    d_->q = this;
    d_->build();
    setRenderHint(QPainter::Antialiasing);
    // Items move on every redraw: a BSP index would be rebuilt each time for nothing.
    scene()->setItemIndexMethod(QGraphicsScene::NoIndex);
    d_->applyTheme();
    installEventFilter(new PaletteWatcher(this, [this] { d_->applyTheme(); }));
    connect(d_->chart, &QChart::plotAreaChanged, this, [this] { d_->layoutOverlays(); });
}

TimelineChart::~TimelineChart() = default;

void TimelineChart::setLimiter(const LimiterSpec& spec, int clients, qint64 bucketMs,
                               qint64 startEpochMs) {
    Private& d = *d_;
    d.clients = std::max(clients, 1);
    d.bucketMs = std::max<qint64>(bucketMs, 1);
    d.startEpochMs = startEpochMs;
    d.bucketAccepted.clear();
    d.bucketRejected.clear();
    d.bucketErrors.clear();
    d.elapsedUs = 0;
    d.hasRun = false;
    d.hasErrors = false;
    d.runClients = 0;
    d.clearStateHistory();
    d.markers.clear();
    d.useSpec(spec);
    d.refresh();
}

void TimelineChart::updateFrom(const RunSnapshot& run, int index, const LimiterState* state) {
    if (index < 0 || index >= run.limiters.size())
        return;
    Private& d = *d_;
    const LimiterSnapshot& limiter = run.limiters[index];
    if (d.startEpochMs == 0)
        d.startEpochMs = run.startEpochMs;  // set up before the run's clock was known
    // The snapshot carries the live spec: a config changed during the run shows at once.
    if (!d.configured || (limiter.spec.name == d.spec.name && limiter.spec != d.spec)) {
        const LimiterSpec& next = limiter.spec;
        // Another limiter type, or other calendar windows: the history no longer applies.
        if (next.type != d.spec.type || next.interval != d.spec.interval ||
            next.unit != d.spec.unit || next.timezone != d.spec.timezone) {
            d.clearStateHistory();
        }
        d.useSpec(limiter.spec);
    }
    d.bucketAccepted = limiter.bucketAccepted;
    d.bucketRejected = limiter.bucketRejected;
    d.bucketErrors = limiter.bucketErrors;
    d.bucketMs = std::max<qint64>(run.bucketMs, 1);
    d.elapsedUs = std::max<qint64>(run.elapsedUs, 0);
    d.hasRun = true;
    d.hasErrors = limiter.errors > 0 ||
                  std::any_of(limiter.bucketErrors.cbegin(), limiter.bucketErrors.cend(),
                              [](qint64 n) { return n > 0; });
    d.runClients = int(limiter.clients.size());
    if (state)
        d.ingest(*state);
    d.refresh();
}

void TimelineChart::addMarker(double runSeconds, const QString& label) {
    d_->markers.append({runSeconds, label});
    if (d_->markers.size() > kMaxMarkers)
        d_->markers.removeFirst();
    d_->layoutOverlays();
}

void TimelineChart::setWindowSeconds(double seconds) {
    if (!(seconds > 0))
        return;
    windowSeconds_ = seconds;
    if (following_)
        d_->refresh();
}

void TimelineChart::setFollowing(bool following) {
    following_ = following;
    d_->dragging = false;
    if (following)
        viewport()->unsetCursor();
    else
        viewport()->setCursor(Qt::OpenHandCursor);
    d_->refresh();  // following again snaps back to the last windowSeconds
}

int TimelineChart::windowBandCount() const {
    return d_->bands.size();
}

QStringList TimelineChart::windowLabels() const {
    QStringList labels;
    for (const Private::Band& band : d_->bands) {
        if (!band.label.isEmpty())
            labels << band.label;
    }
    return labels;
}

QStringList TimelineChart::spanLabels() const {
    QStringList labels;
    for (const Private::Span& span : d_->drawnSpans)
        labels << span.label;
    return labels;
}

void TimelineChart::wheelEvent(QWheelEvent* event) {
    if (following_) {
        event->ignore();  // let an enclosing scroll area scroll
        return;
    }
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0) {
        Private& d = *d_;
        // Zoom around the value under the cursor: it keeps its place on the axis.
        const double oldSpan = d.viewMax - d.viewMin;
        const double span = d.clampSpan(oldSpan * std::pow(0.8, steps));  // forward zooms in
        const double anchor = std::clamp(d.valueAt(event->position()), d.viewMin, d.viewMax);
        const double ratio = oldSpan > 0 ? (anchor - d.viewMin) / oldSpan : 0.5;
        d.setView(anchor - ratio * span, span);
    }
    event->accept();
}

void TimelineChart::mousePressEvent(QMouseEvent* event) {
    if (following_ || event->button() != Qt::LeftButton) {
        QChartView::mousePressEvent(event);
        return;
    }
    Private& d = *d_;
    d.dragging = true;
    d.dragStartX = event->position().x();
    d.dragMin = d.viewMin;
    d.dragMax = d.viewMax;
    viewport()->setCursor(Qt::ClosedHandCursor);
    event->accept();
}

void TimelineChart::mouseMoveEvent(QMouseEvent* event) {
    Private& d = *d_;
    if (following_ || !d.dragging) {
        QChartView::mouseMoveEvent(event);
        return;
    }
    const double width = std::max(d.chart->plotArea().width(), 1.0);
    const double shift = (event->position().x() - d.dragStartX) / width * (d.dragMax - d.dragMin);
    d.setView(d.dragMin - shift, d.dragMax - d.dragMin);
    event->accept();
}

void TimelineChart::mouseReleaseEvent(QMouseEvent* event) {
    Private& d = *d_;
    if (following_ || !d.dragging) {
        QChartView::mouseReleaseEvent(event);
        return;
    }
    d.dragging = false;
    viewport()->setCursor(Qt::OpenHandCursor);
    event->accept();
}

}  // namespace ratelab
