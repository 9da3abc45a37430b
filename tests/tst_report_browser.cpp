// report.html in a real browser: headless Chromium (Debian's chromium; scripts/lib/deps.sh
// installs it) loads the page with #selftest. The page's self-test (ui/report/page/
// page_selftest.js) records every script error, console error or warning and refused load, reads
// each timeline's columns, limit and admitted burst back from the drawn SVG and the comparison's
// bars and cumulative lines from theirs, hovers and zooms, and writes what it found into <pre
// id="selftest">. This test reads that from the DOM Chromium dumps and checks it against the
// summary the page was written from (the traffic groups' lines too), in a light and a dark
// colour scheme.
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cmath>
#include <numeric>

#include "report/html_report.h"
#include "support/browser_selftest.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// Counts per bucket, a pattern of its own per series.
QVector<qint64> pattern(qint64 buckets, qint64 mul, qint64 mod, qint64 every = 1) {
    QVector<qint64> out;
    for (qint64 b = 0; b < buckets; ++b) {
        out << (b % every == 0 ? (b * mul) % mod : 0);
    }
    return out;
}

qint64 sum(const QVector<qint64>& v) {
    return std::accumulate(v.begin(), v.end(), qint64(0));
}

LimiterSummary limiter(const QString& name, const LimiterSpec& spec, const BucketCounts& buckets) {
    LimiterSummary l;
    l.name = name;
    l.type = limiterTypeName(spec.type);
    l.spec = spec;
    l.buckets = buckets;
    l.counts.accepted = sum(buckets.accepted);
    l.counts.rejected = sum(buckets.rejected);
    l.counts.errors = sum(buckets.errors);
    l.counts.fired = l.counts.accepted + l.counts.rejected + l.counts.errors;
    return l;
}

// Two traffic groups sharing the limiter's requests: "users" a third of its accepted and half of
// its rejected, "at<tacker>" the rest.
void splitIntoGroups(LimiterSummary& l) {
    GroupSummary users, attacker;
    users.group = QStringLiteral("users");
    attacker.group = QStringLiteral("at<tacker>");
    for (int b = 0; b < l.buckets.accepted.size(); ++b) {
        const qint64 a = l.buckets.accepted[b], r = l.buckets.rejected[b];
        users.bucketAccepted << a / 3;
        users.bucketRejected << r / 2;
        attacker.bucketAccepted << a - a / 3;
        attacker.bucketRejected << r - r / 2;
    }
    for (GroupSummary* g : {&users, &attacker}) {
        g->counts.accepted = sum(g->bucketAccepted);
        g->counts.rejected = sum(g->bucketRejected);
        g->counts.fired = g->counts.accepted + g->counts.rejected;
    }
    l.groups = {users, attacker};
}

// Two limiters over `buckets` buckets of 100 ms: a global fixed window of 10 per second with an
// admitted burst of 12 in [2, 3) s; a per-client token bucket of 5 per second over 3 clients
// (15 per second in all) with errors and no burst. With groups: each limiter's requests split
// between two traffic groups (splitIntoGroups).
RunSummary summary(qint64 buckets, bool groups) {
    RunSummary s;
    s.scenario = QStringLiteral("browser <check> & co");
    s.startEpochMs = 1714521600000;  // a whole second (UTC midnight): windows start on seconds
    s.bucketMs = 100;
    s.durationS = double(buckets * s.bucketMs) / 1000;
    s.runS = s.durationS;
    s.finished = true;
    s.bucketTargetRate = QVector<double>(int(buckets), 20);

    LimiterSpec fixed;
    fixed.type = LimiterType::FixedWindow;
    fixed.name = QStringLiteral("fixed <1>");
    fixed.rate = 10;
    fixed.interval = 1;
    fixed.unit = CalendarUnit::Seconds;
    fixed.timezone = "UTC";
    LimiterSummary a = limiter(
        fixed.name, fixed, {pattern(buckets, 7, 4), pattern(buckets, 5, 3), {}, {}, {}, {}, {}});
    a.admittedBurst = {{12, 2000, 1000, 2010, 2990}};
    a.admittedBurstRunClock = a.admittedBurst;

    LimiterSpec bucket;
    bucket.type = LimiterType::TokenBucket;
    bucket.name = QStringLiteral("bucket & errors");
    bucket.scope = Scope::PerClient;
    bucket.rate = 5;
    bucket.intervalMs = 1000;
    LimiterSummary b = limiter(bucket.name, bucket,
                               {pattern(buckets, 3, 5),
                                pattern(buckets, 1, 3),
                                pattern(buckets, 1, 2, 17),
                                {},
                                {},
                                {},
                                {}});
    for (const char* client : {"c0", "c1", "c2"}) {
        ClientSummary c;
        c.client = QLatin1String(client);
        b.clients << c;
    }
    if (groups) {
        splitIntoGroups(a);
        splitIntoGroups(b);
    }
    s.limiters = {a, b};
    s.requests = a.counts.fired;
    return s;
}

// The counts of the buckets in the column [t0, t1) ms: those whose middle is in it (the column's
// ends, read back from drawn coordinates, are a fraction of a pixel off).
qint64 countIn(const QVector<qint64>& counts, qint64 bucketMs, double t0, double t1) {
    qint64 n = 0;
    for (int b = 0; b < counts.size(); ++b) {
        const double t = (double(b) + 0.5) * double(bucketMs);
        if (t >= t0 && t < t1) {
            n += counts[b];
        }
    }
    return n;
}

}  // namespace

class TestReportBrowser : public QObject {
    Q_OBJECT

    QString chromium_;

private slots:
    void initTestCase() {
        QString problem;
        chromium_ = chromiumForTests(&problem);
        QVERIFY2(!chromium_.isEmpty(), qPrintable(problem));
    }

    // A limit on requests in flight is drawn as the window draws it: the most in flight per
    // column on the right axis's scale, the in-flight limit, a mark where grants leaked, and no
    // rate line (it was drawn at the lease's rate). Ten grants in 800 ms of 100 ms buckets: four
    // released, one leaked in the first bucket (its 250 ms lease has run out by bucket 3).
    void drawsRequestsInFlight_data() {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void drawsRequestsInFlight() {
        QFETCH(bool, dark);
        RunSummary s;
        s.scenario = QStringLiteral("in flight");
        s.bucketMs = 100;
        s.durationS = 0.8;
        s.runS = 0.8;
        s.finished = true;
        s.bucketTargetRate = QVector<double>(8, 20);
        LimiterSpec spec;
        spec.type = LimiterType::Concurrency;
        spec.name = QStringLiteral("slots");
        spec.limit = 20;
        spec.leaseMs = 250;
        LimiterSummary l = limiter(spec.name, spec,
                                   {{5, 3, 0, 0, 2, 0, 0, 0},
                                    {0, 4, 1, 0, 0, 0, 0, 0},
                                    QVector<qint64>(8, 0),
                                    {},
                                    {},
                                    {0, 2, 1, 0, 0, 1, 0, 0},
                                    {1, 0, 0, 0, 0, 0, 0, 0}});
        s.limiters = {l};
        s.requests = l.counts.fired;
        QString problem;
        const QJsonObject result =
            selftestOfPage(chromium_, reportHtml(s, QByteArray()), dark, &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const QJsonObject t = result[QLatin1String("timelines")][0].toObject();
        QVERIFY(!t.contains(QLatin1String("limit")));
        const double tolerance = 0.05;  // coordinates to 1/100 px, on a scale of about 1 px each
        QVERIFY2(std::abs(t[QLatin1String("inFlightLimit")].toDouble() - 20) <= tolerance,
                 qPrintable(QString::number(t[QLatin1String("inFlightLimit")].toDouble())));
        const QJsonArray drawn = t[QLatin1String("inFlight")].toArray();
        const double most[] = {5, 6, 5, 4, 6, 5, 5, 5};
        QCOMPARE(drawn.size(), 8);
        for (int c = 0; c < drawn.size(); ++c) {
            const double value = drawn[c].toArray()[2].toDouble();
            QVERIFY2(std::abs(value - most[c]) <= tolerance,
                     qPrintable(QStringLiteral("column %1: %2 in flight drawn, %3 held")
                                    .arg(c)
                                    .arg(value)
                                    .arg(most[c])));
        }
        QCOMPARE(t[QLatin1String("leaks")].toInt(), 1);
    }

    void drawsTheSummary_data() {
        QTest::addColumn<qint64>("buckets");
        QTest::addColumn<bool>("dark");
        QTest::addColumn<bool>("groups");
        QTest::newRow("6 s, light") << qint64(60) << false << false;
        QTest::newRow("6 s, groups, light") << qint64(60) << false << true;
        QTest::newRow("6 s, groups, dark") << qint64(60) << true << true;
        // 12,000 buckets: the page holds 1,200 steps of 1 s, drawn two to a column.
        QTest::newRow("20 min, groups, light") << qint64(12000) << false << true;
    }
    void drawsTheSummary() {
        QFETCH(qint64, buckets);
        QFETCH(bool, dark);
        QFETCH(bool, groups);
        const RunSummary s = summary(buckets, groups);
        QString problem;
        const QJsonObject result =
            selftestOfPage(chromium_, reportHtml(s, QByteArray()), dark, &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY2(!result[QLatin1String("checks")].toArray().isEmpty(), "no check ran");
        QCOMPARE(result[QLatin1String("dark")].toBool(), dark);
        QVERIFY(result[QLatin1String("contrast")].toDouble() >= 3);

        // Every timeline: the whole run, every bucket in exactly one column, its counts as drawn.
        const QJsonArray timelines = result[QLatin1String("timelines")].toArray();
        QCOMPARE(timelines.size(), s.limiters.size());
        const double endMs = double(buckets * s.bucketMs);
        const double perSecond[] = {10, 15};  // the limits: 10/s, 5/s per client x 3 clients
        for (int i = 0; i < timelines.size(); ++i) {
            const LimiterSummary& l = s.limiters[i];
            const QJsonObject t = timelines[i].toObject();
            QCOMPARE(t[QLatin1String("name")].toString(), l.name);
            QCOMPARE(t[QLatin1String("v0")].toDouble(), 0.0);
            QCOMPARE(t[QLatin1String("v1")].toDouble(), endMs);
            // Coordinates are written to 1/100 px: a stacked count is within 2/100 px.
            const double tolerance = 0.02 / t[QLatin1String("px_per_unit")].toDouble();
            // Times are read back from x coordinates: within 1/100 px.
            const double slack = 0.011 * t[QLatin1String("ms_per_px")].toDouble();
            const QJsonArray columns = t[QLatin1String("columns")].toArray();
            QVERIFY(!columns.isEmpty());
            double next = 0;
            for (const QJsonValue c : columns) {
                const QJsonArray col = c.toArray();
                const double t0 = col[0].toDouble(), t1 = col[1].toDouble();
                QVERIFY2(std::abs(t0 - next) <= slack, qPrintable(QString::number(t0)));
                next = t1;
                const qint64 wanted[] = {countIn(l.buckets.accepted, s.bucketMs, t0, t1),
                                         countIn(l.buckets.rejected, s.bucketMs, t0, t1),
                                         countIn(l.buckets.errors, s.bucketMs, t0, t1)};
                for (int k = 0; k < 3; ++k) {
                    QVERIFY2(std::abs(col[k + 2].toDouble() - double(wanted[k])) <= tolerance,
                             qPrintable(QStringLiteral("%1 at %2 ms, series %3: drawn %4, "
                                                       "summary %5")
                                            .arg(l.name)
                                            .arg(t0)
                                            .arg(k)
                                            .arg(col[k + 2].toDouble())
                                            .arg(wanted[k])));
                }
            }
            QVERIFY2(std::abs(next - endMs) <= slack, qPrintable(QString::number(next)));
            // Each traffic group's line: its accepted in every column, as the summary has them.
            const QJsonArray lines = t[QLatin1String("groups")].toArray();
            QCOMPARE(lines.size(), l.groups.size());
            for (int g = 0; g < lines.size(); ++g) {
                const QJsonObject line = lines[g].toObject();
                QCOMPARE(line[QLatin1String("name")].toString(), l.groups[g].group);
                const QJsonArray points = line[QLatin1String("columns")].toArray();
                QCOMPARE(points.size(), columns.size());
                for (int c = 0; c < points.size(); ++c) {
                    const QJsonArray p = points[c].toArray();
                    const QJsonArray col = columns[c].toArray();
                    QVERIFY(std::abs(p[0].toDouble() - col[0].toDouble()) <= slack);
                    QVERIFY(std::abs(p[1].toDouble() - col[1].toDouble()) <= slack);
                    const qint64 wanted = countIn(l.groups[g].bucketAccepted, s.bucketMs,
                                                  col[0].toDouble(), col[1].toDouble());
                    QVERIFY2(std::abs(p[2].toDouble() - double(wanted)) <= tolerance,
                             qPrintable(QStringLiteral("%1, group %2 at %3 ms: drawn %4, "
                                                       "summary %5")
                                            .arg(l.name, l.groups[g].group)
                                            .arg(col[0].toDouble())
                                            .arg(p[2].toDouble())
                                            .arg(wanted)));
                }
            }
            const double colMs = t[QLatin1String("col_ms")].toDouble();
            QVERIFY(std::abs(t[QLatin1String("limit")].toDouble() - perSecond[i] * colMs / 1000) <=
                    tolerance);
        }
        // The legend names each group's line.
        const QJsonArray legend = result[QLatin1String("legendGroups")].toArray();
        QCOMPARE(legend.size(), groups ? 2 : 0);
        if (groups) {
            QCOMPARE(legend[0].toString(), QStringLiteral("group users accepted"));
            QCOMPARE(legend[1].toString(), QStringLiteral("group at<tacker> accepted"));
        }
        // The burst's box over [2, 3) s (at least 3 px wide), only where there is one.
        const QJsonObject first = timelines[0].toObject();
        const QJsonArray burst = first[QLatin1String("burst")].toArray();
        QCOMPARE(burst.size(), 2);
        const double slack = 2 * first[QLatin1String("ms_per_px")].toDouble();
        QVERIFY2(std::abs(burst[0].toDouble() - 2000) <= slack &&
                     std::abs(burst[1].toDouble() - 3000) <= slack,
                 qPrintable(
                     QStringLiteral("%1 – %2").arg(burst[0].toDouble()).arg(burst[1].toDouble())));
        // Its tint under the bars, as the window draws it: the bars keep their colours inside it.
        QVERIFY(first[QLatin1String("burstTintUnderBars")].toBool());
        QVERIFY(!timelines[1].toObject().contains(QLatin1String("burst")));

        // The comparison's bars: the accepted shares; the one burst against its limit's 10.
        const QJsonArray charts = result[QLatin1String("bars")].toArray();
        QCOMPARE(charts.size(), 2);
        const QJsonArray shares = charts[0].toArray();
        QCOMPARE(shares.size(), s.limiters.size());
        for (int i = 0; i < shares.size(); ++i) {
            const OutcomeTotals& c = s.limiters[i].counts;
            const double share = 100.0 * double(c.accepted) / double(c.fired);
            QVERIFY(std::abs(shares[i][QLatin1String("value")].toDouble() - share) < 0.01);
        }
        // The cumulative chart ends at each limiter's accepted count.
        const QJsonArray cumulative = result[QLatin1String("cumulative")].toArray();
        QCOMPARE(cumulative.size(), s.limiters.size());
        for (int i = 0; i < cumulative.size(); ++i) {
            const double accepted = double(s.limiters[i].counts.accepted);
            QVERIFY2(
                std::abs(cumulative[i].toDouble() - accepted) <= 0.01 * accepted,
                qPrintable(
                    QStringLiteral("%1 against %2").arg(cumulative[i].toDouble()).arg(accepted)));
        }
        const QJsonArray bursts = charts[1].toArray();
        QCOMPARE(bursts.size(), 1);
        QVERIFY(std::abs(bursts[0][QLatin1String("value")].toDouble() - 12) < 0.01);
        QVERIFY(std::abs(bursts[0][QLatin1String("reference")].toDouble() - 10) < 0.01);
    }
};

QTEST_MAIN(TestReportBrowser)
#include "tst_report_browser.moc"
