#include "window/redisson_watch_view.h"

#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "charts/nice_axis.h"
#include "charts/nice_scale.h"
#include "input_error.h"
#include "live/redisson_watcher.h"
#include "style/inline_error.h"
#include "style/palette_colors.h"
#include "style/series_style.h"

namespace ratelab {
namespace {

constexpr int kPollMs = 50;  // the watcher's thread: 20 Hz
constexpr int kDrawMs = 50;  // this view's timer: 20 Hz

// A grant's mark grows with its permits (by area: a grant of 4 reads twice as wide as one of 1).
double grantMarkSize(qint64 permits) {
    return std::clamp(6.0 + 4.0 * std::sqrt(double(std::max<qint64>(permits, 1))), 10.0, 30.0);
}

QString scopeLabel(const QString& clientId) {
    return clientId.isEmpty() ? QObject::tr("available permits")
                              : QObject::tr("available · client %1").arg(clientId.left(12));
}

}  // namespace

RedissonWatchView::RedissonWatchView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Redisson RRateLimiter name:"), this));
    name_ = new QLineEdit(this);
    name_->setObjectName(QStringLiteral("redissonName"));
    name_->setPlaceholderText(tr("the name given to getRateLimiter(…)"));
    row->addWidget(name_, 1);
    attach_ = new QPushButton(tr("Attach"), this);
    attach_->setObjectName(QStringLiteral("redissonAttach"));
    row->addWidget(attach_);
    layout->addLayout(row);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("redissonStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(status_);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("redissonSummary"));
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);

    view_ = new QChartView(this);
    view_->setRenderHint(QPainter::Antialiasing);
    QChart* chart = view_->chart();  // owned by the view
    chart->setTitle(tr("Read-only: nothing is written to Redis"));
    axisX_ = new QValueAxis(chart);
    axisX_->setTitleText(tr("seconds since attaching"));
    axisY_ = new QValueAxis(chart);
    axisY_->setTitleText(tr("available permits"));
    // Ticks every 5 s at multiples of 5 while the window scrolls.
    axisX_->setTickType(QValueAxis::TicksDynamic);
    axisX_->setTickAnchor(0);
    axisX_->setTickInterval(niceStep(kWindowSeconds, 6));
    axisX_->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(axisX_, Qt::AlignBottom);
    chart->addAxis(axisY_, Qt::AlignLeft);
    // Grants: one mark each where the permits line took it, sized by its permits.
    grants_ = new QScatterSeries(chart);
    grants_->setName(tr("grants (mark size: permits)"));
    grants_->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    grants_->setMarkerSize(grantMarkSize(1));
    chart->addSeries(grants_);
    grants_->attachAxis(axisX_);
    grants_->attachAxis(axisY_);
    // Before data: the first half minute after attaching, permits from 0.
    axisX_->setRange(0, kWindowSeconds);
    axisY_->setRange(0, 10);
    layout->addWidget(view_, 1);
    applyPalette();

    timer_ = new QTimer(this);
    timer_->setInterval(kDrawMs);
    connect(timer_, &QTimer::timeout, this, &RedissonWatchView::tick);
    connect(attach_, &QPushButton::clicked, this, [this] { attached() ? detach() : attach(); });
    connect(name_, &QLineEdit::returnPressed, this, &RedissonWatchView::attach);
    setStatus(tr("Connect to the Redis your application uses, then attach by name."), true);
}

RedissonWatchView::~RedissonWatchView() = default;

void RedissonWatchView::setLimiterName(const QString& name) {
    name_->setText(name);
}

QString RedissonWatchView::limiterName() const {
    return name_->text();
}

QString RedissonWatchView::statusText() const {
    return status_->text();
}

QString RedissonWatchView::summaryText() const {
    return summary_->text();
}

void RedissonWatchView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        if (status_->property("invalid").toBool())
            InlineError::markInvalid(status_, true, palette());  // readable on the new theme
    }
    QWidget::changeEvent(event);
}

// The chart follows the palette (dark too): background, text, the permits lines in the
// timelines' permits colour, the grants in their accepted colour with an outline of the text's.
void RedissonWatchView::applyPalette() {
    const QPalette pal = palette();
    const bool dark = style::isDark(pal);
    const style::SeriesColors colors = style::seriesColors(dark);
    QChart* chart = view_->chart();
    chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setBackgroundBrush(pal.color(QPalette::Base));
    chart->setBackgroundRoundness(0);
    chart->setDropShadowEnabled(false);
    view_->setBackgroundBrush(pal.color(QPalette::Base));
    QColor grant = colors.accepted;
    grants_->setColor(grant);
    grants_->setBorderColor(pal.color(QPalette::Text));
    for (QLineSeries* series : std::as_const(lines_)) {
        styleLine(series);
    }
}

void RedissonWatchView::styleLine(QLineSeries* series) const {
    const style::SeriesColors colors = style::seriesColors(style::isDark(palette()));
    // The first scope in the permits colour, further clients in lighter/darker shades of it.
    const int index = int(lines_.keys().indexOf(lines_.key(series)));
    const QColor color = index <= 0 ? colors.tokens : colors.tokens.lighter(100 + 25 * index);
    series->setPen(style::seriesPen(color, 2.0));
}

QLineSeries* RedissonWatchView::availableSeries(const QString& clientId) const {
    return lines_.value(clientId, nullptr);
}

void RedissonWatchView::setStatus(const QString& text, bool ok) {
    status_->setText(text);
    InlineError::markInvalid(status_, !ok);
}

void RedissonWatchView::setRedisUrl(const RedisUrl& url) {
    const bool changed = !url_ || !(*url_ == url);
    url_ = url;
    if (changed && attached()) {
        attach();
    }
}

void RedissonWatchView::attach() {
    detach();
    if (!url_) {
        setStatus(tr("Not connected: connect the bar above to a Redis first."), false);
        return;
    }
    try {
        watcher_ = std::make_unique<RedissonWatcher>(*url_, name_->text().trimmed(), kPollMs);
    } catch (const InputError& e) {
        setStatus(e.problem(), false);
        return;
    }
    originMs_ = QDateTime::currentMSecsSinceEpoch();
    seenPolls_ = 0;
    setStatus(tr("attaching to \"%1\" on %2…").arg(watcher_->name(), url_->toDisplayString()),
              true);
    attach_->setText(tr("Detach"));
    timer_->start();
}

void RedissonWatchView::detach() {
    timer_->stop();
    watcher_.reset();  // joins the polling thread (at most one poll)
    last_.reset();
    for (QLineSeries* series : std::as_const(lines_)) {
        view_->chart()->removeSeries(series);
        delete series;
    }
    lines_.clear();
    history_.clear();
    grantMarks_.clear();
    grants_->clear();
    axisX_->setRange(0, kWindowSeconds);
    summary_->clear();
    attach_->setText(tr("Attach"));
}

void RedissonWatchView::tick() {
    if (!watcher_) {
        return;
    }
    const RedissonWatcher::Status status = watcher_->status();
    if (status.polls == seenPolls_) {
        return;
    }
    seenPolls_ = status.polls;
    if (!status.error.isEmpty()) {
        setStatus(status.error, false);
        if (!status.snapshot) {
            last_.reset();
            summary_->clear();
        }
        return;  // a failed poll draws nothing new
    }
    if (status.snapshot) {
        const RedissonSnapshot& s = *status.snapshot;
        setStatus(tr("attached to \"%1\" on %2 · read-only · %3 permits per %4 ms · %5")
                      .arg(s.name, url_->toDisplayString())
                      .arg(s.rate)
                      .arg(s.intervalMs)
                      .arg(s.perClient ? tr("PER_CLIENT") : tr("OVERALL")),
                  true);
        draw(s);
        last_ = s;
    }
}

void RedissonWatchView::draw(const RedissonSnapshot& s) {
    QChart* chart = view_->chart();
    const double now = double(s.nowMs - originMs_) / 1000.0;
    const double from = now - kWindowSeconds;
    double top = double(s.rate);

    // Lines: available permits per scope (the first kMaxLines scopes), as steps: a reading
    // holds until the next one.
    int drawn = 0;
    for (const RedissonScope& scope : s.scopes) {
        if (drawn++ >= kMaxLines) {
            break;
        }
        QLineSeries*& series = lines_[scope.clientId];
        if (series == nullptr) {
            series = new QLineSeries(chart);
            series->setName(scopeLabel(scope.clientId));
            chart->addSeries(series);
            series->attachAxis(axisX_);
            series->attachAxis(axisY_);
            styleLine(series);
        }
        QVector<QPointF>& points = history_[scope.clientId];
        const double y = double(scope.available);
        if (!points.isEmpty() && points.last().y() != y) {
            points.push_back(QPointF(now, points.last().y()));
        }
        points.push_back(QPointF(now, y));
        const auto firstKept = std::find_if(points.begin(), points.end(),
                                            [from](const QPointF& p) { return p.x() >= from; });
        // Keep one point left of the window so the line enters it from the edge.
        points.erase(points.begin(), firstKept == points.begin() ? firstKept : firstKept - 1);
        if (points.size() > kMaxPointsPerSeries) {
            points.remove(0, points.size() - kMaxPointsPerSeries);
        }
        series->replace(points);
        top = std::max(top, y);
    }

    // Marks: every grant record seen, at the level of the reading that first listed it.
    grantMarks_.add(s, originMs_, from);
    QList<QPointF> marks;
    QHash<int, QHash<QXYSeries::PointConfiguration, QVariant>> sizes;
    for (const RedissonGrantMarks::Mark& g : grantMarks_.marks(kMaxPointsPerSeries)) {
        sizes[int(marks.size())][QXYSeries::PointConfiguration::Size] = grantMarkSize(g.permits);
        marks.push_back(QPointF(g.x, g.y));
    }
    grants_->replace(marks);
    grants_->setPointsConfiguration(sizes);

    // The window starts at attaching and scrolls once it is full.
    axisX_->setRange(std::max(0.0, from), std::max(kWindowSeconds, now));
    setNiceRange(axisY_, std::max(1.0, top * 1.1));

    // The text line: the first scope, and how many clients there are.
    if (!s.scopes.isEmpty()) {
        const RedissonScope& first = s.scopes.first();
        QString text = tr("available %1/%2 · %3 grant(s) holding %4 permit(s) in the last %5 ms")
                           .arg(first.available)
                           .arg(s.rate)
                           .arg(first.grantsInWindow)
                           .arg(first.permitsInWindow)
                           .arg(s.intervalMs);
        if (first.nextReleaseMs >= 0) {
            text += tr(" · next release in %1 ms").arg(first.nextReleaseMs - s.nowMs);
        }
        if (s.perClient) {
            text = tr("%1 client(s) · client %2: ").arg(s.totalScopes).arg(first.clientId) + text;
        }
        summary_->setText(text);
    } else {
        summary_->setText(tr("%1 client(s): no bucket yet (every client starts at %2)")
                              .arg(s.totalScopes)
                              .arg(s.rate));
    }
}

}  // namespace ratelab
