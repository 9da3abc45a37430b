#pragma once

#include <QHash>
#include <QMap>
#include <QPointF>
#include <QVector>
#include <QWidget>
#include <memory>
#include <optional>

#include "redisson/redisson_snapshot.h"
#include "url/redis_url.h"
#include "window/redisson_grant_marks.h"

QT_BEGIN_NAMESPACE
class QChartView;
class QLabel;
class QLineEdit;
class QLineSeries;
class QPushButton;
class QScatterSeries;
class QTimer;
class QValueAxis;
QT_END_NAMESPACE

namespace ratelab {

class RedissonWatcher;

// "Attach to a Redisson limiter": watches a live Redisson RRateLimiter (or a ratelab token
// bucket, same layout) on the connection bar's Redis, read-only. engine/live's RedissonWatcher
// polls it on its own thread at 20 Hz; a 20 Hz timer here draws the latest snapshot on a scrolling
// timeline: the available permits as a line (one per client for PER_CLIENT, the first kMaxLines of
// them) as steps from attaching on, the grants as marks on that line where it took them, sized by
// their permits; colours follow the palette. Errors show inline under the name field.
class RedissonWatchView : public QWidget {
    Q_OBJECT

public:
    explicit RedissonWatchView(QWidget* parent = nullptr);
    ~RedissonWatchView() override;

    static constexpr int kMaxLines = 6;
    static constexpr int kMaxPointsPerSeries = 2000;
    static constexpr double kWindowSeconds = 30;

    void setLimiterName(const QString& name);
    QString limiterName() const;
    bool attached() const { return watcher_ != nullptr; }
    const std::optional<RedissonSnapshot>& lastSnapshot() const { return last_; }
    QString statusText() const;
    QString summaryText() const;

    // For tests: the available-permits line of a scope ("" for OVERALL), the grant marks (in
    // time order).
    QLineSeries* availableSeries(const QString& clientId = QString()) const;
    QScatterSeries* grantSeries() const { return grants_; }

protected:
    void changeEvent(QEvent* event) override;

public slots:
    // The Redis to watch on (the connection bar's target). Re-attaches when attached.
    void setRedisUrl(const ratelab::RedisUrl& url);
    void attach();
    void detach();

private:
    void tick();
    void draw(const RedissonSnapshot& snapshot);
    void setStatus(const QString& text, bool ok);
    void applyPalette();
    void styleLine(QLineSeries* series) const;

    QLineEdit* name_ = nullptr;
    QPushButton* attach_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* summary_ = nullptr;
    QChartView* view_ = nullptr;
    QValueAxis* axisX_ = nullptr;
    QValueAxis* axisY_ = nullptr;
    QScatterSeries* grants_ = nullptr;
    QTimer* timer_ = nullptr;

    std::optional<RedisUrl> url_;
    std::unique_ptr<RedissonWatcher> watcher_;
    qint64 originMs_ = 0;  // x = (time - originMs_) / 1000
    quint64 seenPolls_ = 0;
    std::optional<RedissonSnapshot> last_;
    QMap<QString, QLineSeries*> lines_;        // client id -> series
    QMap<QString, QVector<QPointF>> history_;  // client id -> points drawn
    RedissonGrantMarks grantMarks_;
};

}  // namespace ratelab
