#include "window/redisson_watch_view.h"

#include <QChart>
#include <QChartView>
#include <QDateTime>
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

#include "charts/nice_axis.h"
#include "charts/nice_scale.h"
#include "input_error.h"
#include "live/redisson_watcher.h"

namespace ratelab {
namespace {

constexpr int kPollMs = 50;  // the watcher's thread: 20 Hz
constexpr int kDrawMs = 50;  // this view's timer: 20 Hz

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
    axisY_->setTitleText(tr("permits"));
    // Ticks every 5 s at multiples of 5 while the window scrolls.
    axisX_->setTickType(QValueAxis::TicksDynamic);
    axisX_->setTickAnchor(0);
    axisX_->setTickInterval(niceStep(kWindowSeconds, 6));
    axisX_->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(axisX_, Qt::AlignBottom);
    chart->addAxis(axisY_, Qt::AlignLeft);
    grants_ = new QScatterSeries(chart);
    grants_->setName(tr("grants (permits each)"));
    grants_->setMarkerSize(7);
    chart->addSeries(grants_);
    grants_->attachAxis(axisX_);
    grants_->attachAxis(axisY_);
    axisX_->setRange(-kWindowSeconds, 0);
    axisY_->setRange(0, 1);
    layout->addWidget(view_, 1);

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

QLineSeries* RedissonWatchView::availableSeries(const QString& clientId) const {
    return lines_.value(clientId, nullptr);
}

void RedissonWatchView::setStatus(const QString& text, bool ok) {
    status_->setText(text);
    status_->setStyleSheet(ok ? QString() : QStringLiteral("color: #d62728;"));
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
    grantPoints_.clear();
    grants_->clear();
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

    // Lines: available permits per scope (the first kMaxLines scopes).
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
        }
        QVector<QPointF>& points = history_[scope.clientId];
        points.push_back(QPointF(now, double(scope.available)));
        const auto firstKept = std::find_if(points.begin(), points.end(),
                                            [from](const QPointF& p) { return p.x() >= from; });
        // Keep one point left of the window so the line enters it from the edge.
        points.erase(points.begin(), firstKept == points.begin() ? firstKept : firstKept - 1);
        if (points.size() > kMaxPointsPerSeries) {
            points.remove(0, points.size() - kMaxPointsPerSeries);
        }
        series->replace(points);
        top = std::max(top, double(scope.available));
    }

    // Points: every grant record seen (records leave the zset once released, the points stay
    // until they scroll out).
    for (const RedissonScope& scope : s.scopes) {
        for (const RedissonGrant& g : scope.grants) {
            const double x = double(g.timeMs - originMs_) / 1000.0;
            if (x < from) {
                continue;
            }
            grantPoints_.insert(g.idHex + QLatin1Char('@') + QString::number(g.timeMs),
                                QPointF(x, double(g.permits)));
            top = std::max(top, double(g.permits));
        }
    }
    for (auto it = grantPoints_.begin(); it != grantPoints_.end();) {
        it = it->x() < from ? grantPoints_.erase(it) : std::next(it);
    }
    QList<QPointF> grantList = grantPoints_.values();
    std::sort(grantList.begin(), grantList.end(),
              [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    if (grantList.size() > kMaxPointsPerSeries) {
        grantList.remove(0, grantList.size() - kMaxPointsPerSeries);
    }
    grants_->replace(grantList);

    axisX_->setRange(from, now);
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
