#include <QApplication>
#include <QDateTime>
#include <QImage>
#include <QJsonArray>
#include <QJsonObject>
#include <QTimeZone>
#include <QtTest>

#include <cmath>

#include "limiters/calendar_window.h"
#include "limiters/limit_geometry.h"
#include "output/buckets_csv.h"
#include "output/run_report.h"
#include "output/summary_json.h"
#include "report/report_renderer.h"
#include "stats/run_snapshot.h"
#include "style/palette_colors.h"
#include "style/series_style.h"

using ratelab::CalendarUnit;
using ratelab::LimiterSnapshot;
using ratelab::LimiterSpec;
using ratelab::LimiterType;
using ratelab::RunSnapshot;
using ratelab::Scope;
using ratelab::SlidingRule;
namespace style = ratelab::style;

Q_DECLARE_METATYPE(ratelab::LimiterSpec)

namespace {

constexpr qint64 kSecondMs = 1000;
constexpr qint64 kMinuteMs = 60 * kSecondMs;
constexpr qint64 kHourMs = 60 * kMinuteMs;

// The renderer's series colours (the light set of ui/style, opaque fills): accepted, rejected.
const QColor kAcceptedColor = style::seriesColors(false).accepted;
const QColor kRejectedColor = style::seriesColors(false).rejected;

LimiterSpec tokenBucket(qint64 rate, qint64 intervalMs, Scope scope = Scope::Global) {
    LimiterSpec spec;
    spec.type = LimiterType::TokenBucket;
    spec.name = QStringLiteral("api");
    spec.scope = scope;
    spec.rate = rate;
    spec.intervalMs = intervalMs;
    return spec;
}

LimiterSpec fixedWindow(qint64 rate, qint64 interval, CalendarUnit unit,
                        const QByteArray& zone = QByteArrayLiteral("UTC"),
                        Scope scope = Scope::Global) {
    LimiterSpec spec;
    spec.type = LimiterType::FixedWindow;
    spec.name = QStringLiteral("quota");
    spec.scope = scope;
    spec.rate = rate;
    spec.interval = interval;
    spec.unit = unit;
    spec.timezone = zone;
    return spec;
}

LimiterSpec slidingWindow(const QVector<SlidingRule>& rules, Scope scope = Scope::Global) {
    LimiterSpec spec;
    spec.type = LimiterType::SlidingWindow;
    spec.name = QStringLiteral("login");
    spec.scope = scope;
    spec.rules = rules;
    return spec;
}

// "2024-03-10T01:00:00-05:00" -> epoch ms (the text must carry its offset).
qint64 parseIso(const QString& text) {
    const QDateTime dt = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!dt.isValid() || dt.timeSpec() == Qt::LocalTime)
        qFatal("bad ISO instant %s", qPrintable(text));
    return dt.toMSecsSinceEpoch();
}

// Instants as ISO text in a zone: readable in failure messages, equal exactly when equal.
QStringList isoIn(const QVector<qint64>& instants, const QTimeZone& zone) {
    QStringList texts;
    for (qint64 ms : instants)
        texts << QDateTime::fromMSecsSinceEpoch(ms, zone).toString(Qt::ISODateWithMs);
    return texts;
}

// Pixels whose every channel is within `tolerance` of `color`.
int countNear(const QImage& image, const QColor& color, int tolerance = 40) {
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QRgb p = image.pixel(x, y);
            if (std::abs(qRed(p) - color.red()) <= tolerance &&
                std::abs(qGreen(p) - color.green()) <= tolerance &&
                std::abs(qBlue(p) - color.blue()) <= tolerance)
                ++count;
        }
    }
    return count;
}

// A token bucket's run of 10 s: 4 accepted and 4 rejected in every 100 ms bucket.
RunSnapshot fourAndFour() {
    RunSnapshot run;
    run.startEpochMs = parseIso(QStringLiteral("2024-01-01T10:00:00Z"));
    run.bucketMs = 100;
    run.durationUs = 10 * 1000 * 1000;
    LimiterSnapshot limiter;
    limiter.spec = tokenBucket(40, 1000);
    for (int i = 0; i < 100; ++i) {
        limiter.bucketAccepted << 4;
        limiter.bucketRejected << 4;
        limiter.bucketErrors << 0;
    }
    limiter.accepted = limiter.rejected = 400;
    limiter.fired = 800;
    run.limiters = {limiter};
    return run;
}

int countNotWhite(const QImage& image) {
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            if ((image.pixel(x, y) & 0xffffff) != 0xffffff)
                ++count;
        }
    }
    return count;
}

// A two-minute run with 100 ms buckets: a token bucket that rejects the peaks of a sine-shaped
// load, and a per-client fixed window of 15 s (8 windows) that rejects the rest of each window
// once its quota is used, with a few errors.
RunSnapshot syntheticRun() {
    RunSnapshot run;
    run.scenarioName = QStringLiteral("synthetic");
    run.startEpochMs = parseIso(QStringLiteral("2024-01-01T10:00:00Z"));
    run.bucketMs = 100;
    run.durationUs = 120 * 1000 * 1000;
    run.elapsedUs = run.durationUs;
    run.finished = true;
    const int buckets = 1200;

    LimiterSnapshot api;
    api.spec = tokenBucket(50, 1000);
    LimiterSnapshot quota;
    quota.spec =
        fixedWindow(300, 15, CalendarUnit::Seconds, QByteArrayLiteral("UTC"), Scope::PerClient);
    for (const QString& name : {QStringLiteral("a"), QStringLiteral("b")}) {
        ratelab::ClientTotals client;
        client.client = name;
        quota.clients.append(client);
    }
    qint64 windowCount = 0;
    for (int i = 0; i < buckets; ++i) {
        const qint64 offered = qint64(6 + 4 * std::sin(i / 40.0));
        const qint64 apiAccepted = std::min<qint64>(offered, 5);
        api.bucketAccepted << apiAccepted;
        api.bucketRejected << offered - apiAccepted;
        api.bucketErrors << 0;

        if (i % 150 == 0)
            windowCount = 0;
        const qint64 quotaOffered = 8;
        const qint64 quotaErrors = i % 97 == 0 ? 1 : 0;
        const qint64 quotaAccepted = std::min(quotaOffered - quotaErrors, 600 - windowCount);
        windowCount += quotaAccepted;
        quota.bucketAccepted << quotaAccepted;
        quota.bucketRejected << quotaOffered - quotaErrors - quotaAccepted;
        quota.bucketErrors << quotaErrors;
    }
    for (LimiterSnapshot* limiter : {&api, &quota}) {
        for (int i = 0; i < buckets; ++i) {
            limiter->accepted += limiter->bucketAccepted[i];
            limiter->rejected += limiter->bucketRejected[i];
            limiter->errors += limiter->bucketErrors[i];
        }
        limiter->fired = limiter->accepted + limiter->rejected + limiter->errors;
    }
    run.scheduled = api.fired;
    run.limiters = {api, quota};
    return run;
}

}  // namespace

class TestReport : public QObject {
    Q_OBJECT

private slots:
    void limitPerBucket_data();
    void limitPerBucket();
    void windowBoundaries_data();
    void windowBoundaries();

    void renderShowsBothLimiters();
    void renderWithoutLimitersOrWithManyWindows();
    void renderStacksDecisions();
    void reportPngDecodes();
    void renderDrawsGroupLines();
    void acceptedAndRejectedApartInGrayscale();
    void summaryCarriesFailurePolicy_data();
    void summaryCarriesFailurePolicy();
};

void TestReport::limitPerBucket_data() {
    QTest::addColumn<LimiterSpec>("spec");
    QTest::addColumn<qint64>("bucketMs");
    QTest::addColumn<int>("clients");
    QTest::addColumn<double>("expected");

    QTest::newRow("token bucket") << tokenBucket(10, 1000) << qint64(100) << 1 << 1.0;
    QTest::newRow("token bucket, wider bucket") << tokenBucket(10, 1000) << qint64(250) << 1 << 2.5;
    QTest::newRow("token bucket, global ignores clients")
        << tokenBucket(10, 1000) << qint64(100) << 7 << 1.0;
    QTest::newRow("token bucket, per client")
        << tokenBucket(10, 1000, Scope::PerClient) << qint64(100) << 3 << 3.0;
    QTest::newRow("token bucket, per client, no client yet counts one")
        << tokenBucket(10, 1000, Scope::PerClient) << qint64(100) << 0 << 1.0;

    QTest::newRow("fixed window, ms")
        << fixedWindow(5, 500, CalendarUnit::Milliseconds) << qint64(100) << 1 << 1.0;
    QTest::newRow("fixed window, minute")
        << fixedWindow(60, 1, CalendarUnit::Minutes) << qint64(1000) << 1 << 1.0;
    QTest::newRow("fixed window, 2 hours")
        << fixedWindow(30, 2, CalendarUnit::Hours) << qint64(kMinuteMs) << 1 << 0.25;
    QTest::newRow("fixed window, day")
        << fixedWindow(48, 1, CalendarUnit::Days) << qint64(kHourMs) << 1 << 2.0;
    QTest::newRow("fixed window, month is 30 days")
        << fixedWindow(300, 1, CalendarUnit::Months) << qint64(24 * kHourMs) << 1 << 10.0;
    QTest::newRow("fixed window, per client")
        << fixedWindow(6, 2, CalendarUnit::Seconds, QByteArrayLiteral("UTC"), Scope::PerClient)
        << qint64(1000) << 4 << 12.0;

    QTest::newRow("sliding window, one rule")
        << slidingWindow({{5, 1000}}) << qint64(200) << 1 << 1.0;
    QTest::newRow("sliding window, smallest rule wins")
        << slidingWindow({{5, 1000}, {20, 60000}}) << qint64(1500) << 1 << 0.5;
    QTest::newRow("sliding window, first rule smallest")
        << slidingWindow({{1, 1000}, {600, 60000}}) << qint64(1000) << 1 << 1.0;
    QTest::newRow("sliding window, per client")
        << slidingWindow({{5, 1000}, {20, 60000}}, Scope::PerClient) << qint64(1500) << 3 << 1.5;

    // GCRA and the leaky bucket sustain rate per period_ms (the burst is on top); the counter
    // limit per window.
    LimiterSpec gcra;
    gcra.type = LimiterType::Gcra;
    gcra.name = QStringLiteral("g");
    gcra.rate = 7;
    gcra.periodMs = 60000;
    gcra.burst = 3;
    QTest::newRow("gcra") << gcra << qint64(kMinuteMs) << 1 << 7.0;
    LimiterSpec leaky = gcra;
    leaky.type = LimiterType::LeakyBucket;
    leaky.scope = Scope::PerClient;
    leaky.rate = 10;
    leaky.periodMs = 1000;
    leaky.burst = 0;
    QTest::newRow("leaky bucket, per client") << leaky << qint64(100) << 2 << 2.0;
    LimiterSpec counter;
    counter.type = LimiterType::SlidingCounter;
    counter.name = QStringLiteral("c");
    counter.limit = 10;
    counter.windowMs = 1000;
    QTest::newRow("sliding counter") << counter << qint64(250) << 1 << 2.5;
}

void TestReport::limitPerBucket() {
    QFETCH(LimiterSpec, spec);
    QFETCH(qint64, bucketMs);
    QFETCH(int, clients);
    QFETCH(double, expected);
    QCOMPARE(ratelab::limitPerBucket(spec, bucketMs, clients), expected);
}

void TestReport::windowBoundaries_data() {
    QTest::addColumn<LimiterSpec>("spec");
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<int>("maxCount");
    QTest::addColumn<QStringList>("expected");  // ISO instants with their offsets

    QTest::newRow("15 minutes over an hour")
        << fixedWindow(1, 15, CalendarUnit::Minutes) << QStringLiteral("2024-05-01T10:00:00Z")
        << QStringLiteral("2024-05-01T11:00:00Z") << 1000
        << QStringList{
               QStringLiteral("2024-05-01T10:00:00Z"), QStringLiteral("2024-05-01T10:15:00Z"),
               QStringLiteral("2024-05-01T10:30:00Z"), QStringLiteral("2024-05-01T10:45:00Z")};
    QTest::newRow("15 minutes, from inside a window, to on a boundary")
        << fixedWindow(1, 15, CalendarUnit::Minutes) << QStringLiteral("2024-05-01T10:05:00Z")
        << QStringLiteral("2024-05-01T11:00:00Z") << 1000
        << QStringList{QStringLiteral("2024-05-01T10:15:00Z"),
                       QStringLiteral("2024-05-01T10:30:00Z"),
                       QStringLiteral("2024-05-01T10:45:00Z")};
    // 10:00Z is 15:30 local; 20-minute windows start at local :00 :20 :40 (10:10Z, ...).
    QTest::newRow("20 minutes, Asia/Kolkata +05:30")
        << fixedWindow(1, 20, CalendarUnit::Minutes, QByteArrayLiteral("Asia/Kolkata"))
        << QStringLiteral("2024-05-01T10:00:00Z") << QStringLiteral("2024-05-01T11:00:00Z") << 1000
        << QStringList{QStringLiteral("2024-05-01T15:40:00+05:30"),
                       QStringLiteral("2024-05-01T16:00:00+05:30"),
                       QStringLiteral("2024-05-01T16:20:00+05:30")};
    QStringList sevens;
    for (int minute = 0; minute < 60; minute += 7)
        sevens << QStringLiteral("2024-05-01T10:%1:00Z").arg(minute, 2, 10, QLatin1Char('0'));
    QTest::newRow("7 minutes, the last one short")
        << fixedWindow(1, 7, CalendarUnit::Minutes) << QStringLiteral("2024-05-01T10:00:00Z")
        << QStringLiteral("2024-05-01T11:00:00Z") << 1000 << sevens;

    QTest::newRow("300 ms, restarting each second")
        << fixedWindow(1, 300, CalendarUnit::Milliseconds)
        << QStringLiteral("2024-05-01T10:00:00.000Z") << QStringLiteral("2024-05-01T10:00:02.000Z")
        << 1000 << QStringList{QStringLiteral("2024-05-01T10:00:00.000Z"),
                               QStringLiteral("2024-05-01T10:00:00.300Z"),
                               QStringLiteral("2024-05-01T10:00:00.600Z"),
                               QStringLiteral("2024-05-01T10:00:00.900Z"),
                               QStringLiteral("2024-05-01T10:00:01.000Z"),
                               QStringLiteral("2024-05-01T10:00:01.300Z"),
                               QStringLiteral("2024-05-01T10:00:01.600Z"),
                               QStringLiteral("2024-05-01T10:00:01.900Z")};

    // New York, 2024-03-10: 02:00 EST jumps to 03:00 EDT, a 23-hour day.
    QStringList springHours;
    for (int hour = 0; hour < 24; ++hour) {
        if (hour == 2)
            continue;
        springHours << QStringLiteral("2024-03-10T%1:00:00%2")
                           .arg(hour, 2, 10, QLatin1Char('0'))
                           .arg(hour < 2 ? QStringLiteral("-05:00") : QStringLiteral("-04:00"));
    }
    QTest::newRow("hours over a 23-hour DST day")
        << fixedWindow(1, 1, CalendarUnit::Hours, QByteArrayLiteral("America/New_York"))
        << QStringLiteral("2024-03-10T00:00:00-05:00")
        << QStringLiteral("2024-03-11T00:00:00-04:00") << 1000 << springHours;
    QCOMPARE(springHours.size(), 23);
    // 3-hour windows count elapsed hours since midnight: 00:00, then 04:00 EDT (3 h later), ...
    QTest::newRow("3 hours over a 23-hour DST day")
        << fixedWindow(1, 3, CalendarUnit::Hours, QByteArrayLiteral("America/New_York"))
        << QStringLiteral("2024-03-10T00:00:00-05:00")
        << QStringLiteral("2024-03-11T00:00:00-04:00") << 1000
        << QStringList{QStringLiteral("2024-03-10T00:00:00-05:00"),
                       QStringLiteral("2024-03-10T04:00:00-04:00"),
                       QStringLiteral("2024-03-10T07:00:00-04:00"),
                       QStringLiteral("2024-03-10T10:00:00-04:00"),
                       QStringLiteral("2024-03-10T13:00:00-04:00"),
                       QStringLiteral("2024-03-10T16:00:00-04:00"),
                       QStringLiteral("2024-03-10T19:00:00-04:00"),
                       QStringLiteral("2024-03-10T22:00:00-04:00")};
    // 2024-11-03: 02:00 EDT falls back to 01:00 EST, a 25-hour day; 01:00 happens twice.
    QStringList fallHours;
    fallHours << QStringLiteral("2024-11-03T00:00:00-04:00")
              << QStringLiteral("2024-11-03T01:00:00-04:00");
    for (int hour = 1; hour < 24; ++hour)
        fallHours << QStringLiteral("2024-11-03T%1:00:00-05:00").arg(hour, 2, 10, QLatin1Char('0'));
    QTest::newRow("hours over a 25-hour DST day")
        << fixedWindow(1, 1, CalendarUnit::Hours, QByteArrayLiteral("America/New_York"))
        << QStringLiteral("2024-11-03T00:00:00-04:00")
        << QStringLiteral("2024-11-04T00:00:00-05:00") << 1000 << fallHours;

    QTest::newRow("2 days across a month end")
        << fixedWindow(1, 2, CalendarUnit::Days, QByteArrayLiteral("Asia/Shanghai"))
        << QStringLiteral("2024-01-30T00:00:00+08:00")
        << QStringLiteral("2024-02-06T00:00:00+08:00") << 1000
        << QStringList{QStringLiteral("2024-01-31T00:00:00+08:00"),
                       QStringLiteral("2024-02-01T00:00:00+08:00"),
                       QStringLiteral("2024-02-03T00:00:00+08:00"),
                       QStringLiteral("2024-02-05T00:00:00+08:00")};
    QTest::newRow("quarters over a year")
        << fixedWindow(1, 3, CalendarUnit::Months, QByteArrayLiteral("Europe/Berlin"))
        << QStringLiteral("2024-01-01T00:00:00+01:00")
        << QStringLiteral("2025-01-01T00:00:00+01:00") << 1000
        << QStringList{QStringLiteral("2024-01-01T00:00:00+01:00"),
                       QStringLiteral("2024-04-01T00:00:00+02:00"),
                       QStringLiteral("2024-07-01T00:00:00+02:00"),
                       QStringLiteral("2024-10-01T00:00:00+02:00")};

    QTest::newRow("maxCount caps the list")
        << fixedWindow(1, 1, CalendarUnit::Seconds) << QStringLiteral("2024-05-01T10:00:00Z")
        << QStringLiteral("2024-05-01T11:00:00Z") << 3
        << QStringList{QStringLiteral("2024-05-01T10:00:00Z"),
                       QStringLiteral("2024-05-01T10:00:01Z"),
                       QStringLiteral("2024-05-01T10:00:02Z")};
    QTest::newRow("maxCount 0") << fixedWindow(1, 1, CalendarUnit::Seconds)
                                << QStringLiteral("2024-05-01T10:00:00Z")
                                << QStringLiteral("2024-05-01T11:00:00Z") << 0 << QStringList();
    QTest::newRow("empty range") << fixedWindow(1, 1, CalendarUnit::Seconds)
                                 << QStringLiteral("2024-05-01T10:00:00Z")
                                 << QStringLiteral("2024-05-01T10:00:00Z") << 1000 << QStringList();
    QTest::newRow("no window starts inside the range")
        << fixedWindow(1, 1, CalendarUnit::Hours) << QStringLiteral("2024-05-01T10:10:00Z")
        << QStringLiteral("2024-05-01T10:50:00Z") << 1000 << QStringList();

    QTest::newRow("token bucket has none")
        << tokenBucket(10, 1000) << QStringLiteral("2024-05-01T10:00:00Z")
        << QStringLiteral("2024-05-01T11:00:00Z") << 1000 << QStringList();
    QTest::newRow("sliding window has none")
        << slidingWindow({{5, 1000}}) << QStringLiteral("2024-05-01T10:00:00Z")
        << QStringLiteral("2024-05-01T11:00:00Z") << 1000 << QStringList();
}

void TestReport::windowBoundaries() {
    QFETCH(LimiterSpec, spec);
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(int, maxCount);
    QFETCH(QStringList, expected);

    const QTimeZone zone = ratelab::zoneForId(spec.timezone);
    QVector<qint64> expectedMs;
    for (const QString& text : expected)
        expectedMs << parseIso(text);
    const QVector<qint64> starts =
        ratelab::windowBoundaries(spec, parseIso(from), parseIso(to), maxCount);
    QCOMPARE(isoIn(starts, zone), isoIn(expectedMs, zone));
}

void TestReport::renderShowsBothLimiters() {
    const RunSnapshot run = syntheticRun();
    const QImage image = ratelab::renderReport(run, 1200, 360);
    QCOMPARE(image.size(), QSize(1200, 720));
    QVERIFY(QApplication::topLevelWidgets().isEmpty());  // rendered offscreen, no window

    // Not blank: a good share of the image is drawn, in more than a handful of colours.
    const int drawn = countNotWhite(image);
    QVERIFY2(drawn > image.width() * image.height() / 20, qPrintable(QString::number(drawn)));

    // Both charts show accepted and rejected requests.
    for (int chart = 0; chart < 2; ++chart) {
        const QImage part = image.copy(0, chart * 360, 1200, 360);
        const int accepted = countNear(part, kAcceptedColor);
        const int rejected = countNear(part, kRejectedColor);
        QVERIFY2(accepted > 0 && rejected > 0,
                 qPrintable(QStringLiteral("chart %1: %2 accepted, %3 rejected pixels")
                                .arg(chart)
                                .arg(accepted)
                                .arg(rejected)));
    }
}

void TestReport::renderWithoutLimitersOrWithManyWindows() {
    RunSnapshot empty;
    empty.scenarioName = QStringLiteral("nothing");
    const QImage blank = ratelab::renderReport(empty, 800, 300);
    QCOMPARE(blank.size(), QSize(800, 300));
    QVERIFY(countNotWhite(blank) > 0);  // title and axes

    // An hour of 100 ms windows (36000 of them, too many to draw) at 100 ms buckets: the
    // series are summed down, the boundaries left out; the data is still drawn.
    RunSnapshot run;
    run.startEpochMs = parseIso(QStringLiteral("2024-01-01T10:00:00Z"));
    run.bucketMs = 100;
    run.durationUs = qint64(kHourMs) * 1000;
    LimiterSnapshot limiter;
    limiter.spec = fixedWindow(1, 100, CalendarUnit::Milliseconds);
    for (int i = 0; i < 36000; ++i) {
        limiter.bucketAccepted << 1;
        limiter.bucketRejected << (i / 3000) % 2;
        limiter.accepted += 1;
        limiter.rejected += (i / 3000) % 2;
    }
    run.limiters = {limiter};
    const QImage image = ratelab::renderReport(run, 1200, 360);
    QCOMPARE(image.size(), QSize(1200, 360));
    QVERIFY(countNear(image, kAcceptedColor) > 0);
    QVERIFY(countNear(image, kRejectedColor) > 0);
}

// Accepted and rejected stack rather than overlap as translucent areas (an unlabelled mix where
// both were, the load unreadable): with as many rejected as accepted in every bucket, each column
// shows the accepted fill at the bottom and as tall a rejected fill on it.
void TestReport::renderStacksDecisions() {
    const QImage image = ratelab::renderReport(fourAndFour(), 1200, 400);
    for (const int x : {400, 600, 800}) {
        int acceptedTop = image.height();
        int acceptedBottom = -1;
        int rejectedTop = image.height();
        int rejectedBottom = -1;
        const QImage column = image.copy(x, 0, 1, image.height());
        for (int y = 0; y < column.height(); ++y) {
            const QImage pixel = column.copy(0, y, 1, 1);
            if (countNear(pixel, kAcceptedColor, 12) == 1) {
                acceptedTop = std::min(acceptedTop, y);
                acceptedBottom = y;
            } else if (countNear(pixel, kRejectedColor, 12) == 1) {
                rejectedTop = std::min(rejectedTop, y);
                rejectedBottom = y;
            }
        }
        const int acceptedHeight = acceptedBottom - acceptedTop;
        const int rejectedHeight = rejectedBottom - rejectedTop;
        const QString where = QStringLiteral("x %1: accepted %2..%3, rejected %4..%5")
                                  .arg(x)
                                  .arg(acceptedTop)
                                  .arg(acceptedBottom)
                                  .arg(rejectedTop)
                                  .arg(rejectedBottom);
        QVERIFY2(acceptedHeight > 20 && rejectedHeight > 20, qPrintable(where));
        QVERIFY2(rejectedBottom <= acceptedTop + 2, qPrintable(where));  // on top of it
        QVERIFY2(std::abs(acceptedHeight - rejectedHeight) <= 4, qPrintable(where));
    }
}

// report.png (and report.html, which shows it) printed in grayscale keeps accepted and rejected
// apart: the two fills of a column, bottom and top, differ in luminance by at least 3:1 (the
// blue and vermillion at alpha 210 were 1.2:1).
void TestReport::acceptedAndRejectedApartInGrayscale() {
    const QImage image = ratelab::renderReport(fourAndFour(), 1200, 400);
    // The runs of one colour longer than 20 pixels in a column, from the bottom: the accepted
    // fill, then the rejected one (the background and the grid lines are white and thin).
    QVector<QColor> fills;
    QColor current;
    int length = 0;
    for (int y = image.height() - 1; y >= 0; --y) {
        const QColor pixel = image.pixelColor(600, y);
        length = pixel == current ? length + 1 : 1;
        current = pixel;
        if (length == 20 && pixel != QColor(Qt::white))
            fills << pixel;
    }
    QVERIFY2(fills.size() >= 2, qPrintable(QString::number(fills.size())));
    const double apart = style::contrastRatio(fills[0], fills[1]);
    QVERIFY2(apart >= style::kDecisionContrast,
             qPrintable(QStringLiteral("%1 / %2: %3:1")
                            .arg(fills[0].name(), fills[1].name())
                            .arg(apart, 0, 'f', 2)));
}

void TestReport::reportPngDecodes() {
    const QByteArray png = ratelab::reportPng(syntheticRun());
    QImage image;
    QVERIFY(image.loadFromData(png, "PNG"));
    QCOMPARE(image.size(), QSize(1200, 720));
    QVERIFY(countNear(image, kAcceptedColor) > 0);
    QVERIFY(countNear(image, kRejectedColor) > 0);
}

// Each traffic group's accepted requests are a line over the limiter's areas in its group pen:
// "users", 3 of the 4 accepted in every bucket, a purple line three quarters up the accepted
// fill. Failed before: report.png drew no group lines.
void TestReport::renderDrawsGroupLines() {
    RunSnapshot run = fourAndFour();
    const QColor purple = style::groupPen(0, false).color();
    QCOMPARE(countNear(ratelab::renderReport(run, 1200, 400), purple, 12), 0);
    ratelab::GroupTotals users;
    users.group = QStringLiteral("users");
    ratelab::GroupTotals attacker;
    attacker.group = QStringLiteral("attacker");
    for (int i = 0; i < 100; ++i) {
        users.bucketAccepted << 3;
        attacker.bucketAccepted << 1;
    }
    run.limiters[0].groups = {users, attacker};
    const QImage image = ratelab::renderReport(run, 1200, 400);
    QVERIFY2(countNear(image, purple, 12) > 1000,
             qPrintable(QString::number(countNear(image, purple, 12))));
    for (const int x : {400, 600, 800}) {
        int acceptedTop = image.height();
        int acceptedBottom = -1;
        QVector<int> line;
        for (int y = 0; y < image.height(); ++y) {
            const QImage pixel = image.copy(x, y, 1, 1);
            if (countNear(pixel, kAcceptedColor, 12) == 1) {
                acceptedTop = std::min(acceptedTop, y);
                acceptedBottom = y;
            } else if (countNear(pixel, purple, 12) == 1) {
                line << y;
            }
        }
        const double wanted = acceptedBottom - 0.75 * (acceptedBottom - acceptedTop);
        const QString where = QStringLiteral("x %1: accepted %2..%3, the line at %4")
                                  .arg(x)
                                  .arg(acceptedTop)
                                  .arg(acceptedBottom)
                                  .arg(line.isEmpty() ? -1 : line.first());
        QVERIFY2(!line.isEmpty() && std::abs(line.first() - wanted) <= 4, qPrintable(where));
    }
}

// summary.json, buckets.csv and the printed summary carry the on_error policy and the errors it
// let through or refused, per limiter, per client and per bucket.
void TestReport::summaryCarriesFailurePolicy_data() {
    QTest::addColumn<int>("policy");
    QTest::addColumn<qint64>("errorsOpen");  // of 7 errors, 4 in bucket 0 and 3 in bucket 1
    QTest::addColumn<qint64>("errorsClosed");
    QTest::addColumn<QString>("line");  // the policy line of the printed summary, or empty

    QTest::newRow("error") << int(ratelab::FailurePolicy::Error) << 0LL << 0LL << QString();
    QTest::newRow("open") << int(ratelab::FailurePolicy::Open) << 7LL << 0LL
                          << QStringLiteral(
                                 "  on_error open: of the errors, 7 let through, 0 "
                                 "refused\n");
    QTest::newRow("closed") << int(ratelab::FailurePolicy::Closed) << 0LL << 7LL
                            << QStringLiteral(
                                   "  on_error closed: of the errors, 0 let through, "
                                   "7 refused\n");
}

void TestReport::summaryCarriesFailurePolicy() {
    QFETCH(int, policy);
    QFETCH(qint64, errorsOpen);
    QFETCH(qint64, errorsClosed);
    QFETCH(QString, line);

    RunSnapshot run;
    run.scenarioName = QStringLiteral("policy");
    run.bucketMs = 100;
    run.durationUs = 200000;
    run.finished = true;
    run.scheduled = 20;
    run.bucketTargetRate = {100, 100};
    LimiterSnapshot l;
    l.spec = tokenBucket(5, 1000);
    l.spec.onError = ratelab::FailurePolicy(policy);
    l.fired = 20;
    l.accepted = 8;
    l.rejected = 5;
    l.errors = 7;
    l.errorsOpen = errorsOpen;
    l.errorsClosed = errorsClosed;
    l.bucketAccepted = {5, 3};
    l.bucketRejected = {1, 4};
    l.bucketErrors = {4, 3};
    l.bucketErrorsOpen = {errorsOpen ? 4 : 0, errorsOpen ? 3 : 0};
    l.bucketErrorsClosed = {errorsClosed ? 4 : 0, errorsClosed ? 3 : 0};
    ratelab::ClientTotals c;
    c.client = QStringLiteral("c1");
    c.fired = 20;
    c.accepted = 8;
    c.rejected = 5;
    c.errors = 7;
    c.errorsOpen = errorsOpen;
    c.errorsClosed = errorsClosed;
    l.clients = {c};
    run.limiters = {l};

    const QJsonObject summary =
        ratelab::summaryJson(run).value(QStringLiteral("limiters")).toArray().at(0).toObject();
    QCOMPARE(summary.value(QStringLiteral("on_error")).toString(),
             ratelab::failurePolicyName(l.spec.onError));
    QCOMPARE(summary.value(QStringLiteral("fired")).toDouble(), 20.0);
    QCOMPARE(summary.value(QStringLiteral("errors")).toDouble(), 7.0);
    QCOMPARE(summary.value(QStringLiteral("errors_open")).toDouble(), double(errorsOpen));
    QCOMPARE(summary.value(QStringLiteral("errors_closed")).toDouble(), double(errorsClosed));
    QCOMPARE(summary.value(QStringLiteral("accounting_exact")).toBool(), true);
    const QJsonObject client = summary.value(QStringLiteral("clients")).toArray().at(0).toObject();
    QCOMPARE(client.value(QStringLiteral("errors_open")).toDouble(), double(errorsOpen));
    QCOMPARE(client.value(QStringLiteral("errors_closed")).toDouble(), double(errorsClosed));

    const QByteArray open = QByteArray::number(errorsOpen ? 4 : 0);
    const QByteArray closed = QByteArray::number(errorsClosed ? 4 : 0);
    const QByteArray open1 = QByteArray::number(errorsOpen ? 3 : 0);
    const QByteArray closed1 = QByteArray::number(errorsClosed ? 3 : 0);
    QCOMPARE(ratelab::bucketsCsv(run),
             "bucket,t_ms,limiter,accepted,rejected,errors,target_rate,errors_open,errors_closed\n"
             "0,0,api,5,1,4,100," +
                 open + "," + closed +
                 "\n"
                 "1,100,api,3,4,3,100," +
                 open1 + "," + closed1 + "\n");

    const QString text = ratelab::summaryText(run);
    QVERIFY2(text.contains(QStringLiteral(
                 "api (token_bucket): fired 20 = accepted 8 + rejected 5 + errors 7\n")),
             qPrintable(text));
    QCOMPARE(text.contains(QStringLiteral("on_error")), !line.isEmpty());
    if (!line.isEmpty()) {
        QVERIFY2(text.contains(line), qPrintable(text));
    }
}

QTEST_MAIN(TestReport)
#include "tst_report.moc"
