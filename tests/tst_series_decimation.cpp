#include <QtTest>

#include <algorithm>
#include <cmath>

#include "charts/series_decimation.h"

using ratelab::decimateMinMax;

Q_DECLARE_METATYPE(QList<QPointF>)

namespace {

// n points at x = 0, 1, ..., n - 1 with y from `yAt`.
template <typename F>
QList<QPointF> line(int n, F yAt) {
    QList<QPointF> points;
    for (int i = 0; i < n; ++i)
        points << QPointF(i, yAt(i));
    return points;
}

}  // namespace

class TestSeriesDecimation : public QObject {
    Q_OBJECT

private slots:
    void keepsEveryColumnsExtremes_data();
    void keepsEveryColumnsExtremes();
    void fewPointsKeptAsTheyAre();
    void pointsOutsideCountToTheEdgeColumns();
};

void TestSeriesDecimation::keepsEveryColumnsExtremes_data() {
    QTest::addColumn<QList<QPointF>>("points");
    QTest::addColumn<int>("columns");

    QTest::newRow("one spike up") << line(10000, [](int i) { return i == 4321 ? 1000.0 : 5.0; })
                                  << 100;
    QTest::newRow("one dip to 0") << line(10000, [](int i) { return i == 7 ? 0.0 : 50.0; }) << 37;
    QTest::newRow("sawtooth") << line(5000, [](int i) { return double(i % 13); }) << 200;
    QTest::newRow("noise") << line(20000, [](int i) { return double((i * 7919) % 1009); }) << 640;
    QTest::newRow("ramp") << line(3000, [](int i) { return double(i); }) << 10;
}

// Per column, the kept points hold the column's first, lowest, highest and last point, and no
// more than four points; the whole stays in x order.
void TestSeriesDecimation::keepsEveryColumnsExtremes() {
    QFETCH(QList<QPointF>, points);
    QFETCH(int, columns);
    const double x0 = points.first().x();
    const double x1 = points.last().x();
    const QList<QPointF> kept = decimateMinMax(points, x0, x1, columns);
    QVERIFY2(kept.size() <= 4 * columns, qPrintable(QString::number(kept.size())));
    QVERIFY(kept.size() < points.size());
    QVERIFY(std::is_sorted(kept.cbegin(), kept.cend(),
                           [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); }));
    const double width = (x1 - x0) / columns;
    auto columnOf = [&](double x) { return std::clamp(int((x - x0) / width), 0, columns - 1); };
    for (int c = 0; c < columns; ++c) {
        QList<QPointF> all;
        QList<QPointF> ours;
        for (const QPointF& p : points) {
            if (columnOf(p.x()) == c)
                all << p;
        }
        for (const QPointF& p : kept) {
            if (columnOf(p.x()) == c)
                ours << p;
        }
        if (all.isEmpty()) {
            QVERIFY(ours.isEmpty());
            continue;
        }
        QVERIFY(ours.size() <= 4);
        QCOMPARE(ours.first(), all.first());
        QCOMPARE(ours.last(), all.last());
        auto byY = [](const QPointF& a, const QPointF& b) { return a.y() < b.y(); };
        QCOMPARE(std::min_element(ours.cbegin(), ours.cend(), byY)->y(),
                 std::min_element(all.cbegin(), all.cend(), byY)->y());
        QCOMPARE(std::max_element(ours.cbegin(), ours.cend(), byY)->y(),
                 std::max_element(all.cbegin(), all.cend(), byY)->y());
        for (const QPointF& p : ours)
            QVERIFY(all.contains(p));  // only real points, none made up
    }
}

void TestSeriesDecimation::fewPointsKeptAsTheyAre() {
    const QList<QPointF> points = line(40, [](int i) { return double(i * i % 7); });
    QCOMPARE(decimateMinMax(points, 0, 39, 10), points);  // four per column fit
    QCOMPARE(decimateMinMax(points, 0, 39, 0), points);   // width unknown
    QCOMPARE(decimateMinMax({}, 0, 1, 10), QList<QPointF>());
}

void TestSeriesDecimation::pointsOutsideCountToTheEdgeColumns() {
    // The view is [100, 200]; a point on each side joins the edge columns, so that the line
    // still enters and leaves the plot.
    QList<QPointF> points{{50, 9}};
    for (int i = 0; i < 1000; ++i)
        points << QPointF(100 + i * 0.1, 1);
    points << QPointF(250, 3);
    const QList<QPointF> kept = decimateMinMax(points, 100, 200, 10);
    QCOMPARE(kept.first(), QPointF(50, 9));
    QCOMPARE(kept.last(), QPointF(250, 3));
    QVERIFY(kept.size() <= 40);
}

QTEST_GUILESS_MAIN(TestSeriesDecimation)
#include "tst_series_decimation.moc"
