// Send schedules of the traffic shapes (traffic/pacer.h): pure computations, no clocks.

#include <QtTest>
#include <cmath>

#include "traffic/pacer.h"

using namespace ratelab;

namespace {

using Times = QVector<qint64>;
constexpr double kTwoPi = 6.283185307179586;
constexpr qint64 kS = 1'000'000;  // µs per second

ShapeSpec constant(double rate) {
    ShapeSpec shape;
    shape.type = ShapeSpec::Type::Constant;
    shape.rate = rate;
    return shape;
}

ShapeSpec poisson(double rate) {
    ShapeSpec shape;
    shape.type = ShapeSpec::Type::Poisson;
    shape.rate = rate;
    return shape;
}

ShapeSpec linear(double from, double to) {
    ShapeSpec shape;
    shape.type = ShapeSpec::Type::Linear;
    shape.from = from;
    shape.to = to;
    return shape;
}

ShapeSpec sine(double mean, double amplitude, double periodS) {
    ShapeSpec shape;
    shape.type = ShapeSpec::Type::Sine;
    shape.mean = mean;
    shape.amplitude = amplitude;
    shape.periodS = periodS;
    return shape;
}

ShapeSpec burst(double rate, int count, double everyS) {
    ShapeSpec shape;
    shape.type = ShapeSpec::Type::Burst;
    shape.rate = rate;
    shape.burst = count;
    shape.everyS = everyS;
    return shape;
}

ShapeSpec step(std::initializer_list<ShapeSpec::Stage> stages) {
    ShapeSpec shape;
    shape.type = ShapeSpec::Type::Step;
    shape.stages = stages;
    return shape;
}

ShapeSpec replay(std::initializer_list<qint64> offsetsMs) {
    ShapeSpec shape;
    shape.type = ShapeSpec::Type::Replay;
    shape.replayOffsetsMs = offsetsMs;
    return shape;
}

// Every send until kNoMore (at most `limit`, so that a runaway pacer fails instead of hanging).
Times collect(Pacer& pacer, qsizetype limit = 20'000'000) {
    Times times;
    for (qint64 at = pacer.next(); at != Pacer::kNoMore; at = pacer.next()) {
        times.append(at);
        if (times.size() > limit) {
            break;
        }
    }
    return times;
}

Times take(Pacer& pacer, int count) {
    Times times;
    for (int i = 0; i < count; ++i) {
        times.append(pacer.next());
    }
    return times;
}

// The cumulative send count N of the linear and sine shapes at a whole microsecond, from their
// definitions (N(t) = from t + (to - from) t^2 / 2D and mean t + amplitude P / 2pi (1 - cos(2pi
// t / P)), t in s), evaluated as the pacer does: with t = us / 1e6 folded into the products so
// that a send falling exactly on a µs boundary compares exactly.
double cumulativeAt(const ShapeSpec& shape, qint64 durationUs, qint64 us) {
    const double t = static_cast<double>(us);
    if (shape.type == ShapeSpec::Type::Linear) {
        const double d = static_cast<double>(durationUs);
        return t * (shape.from + (shape.to - shape.from) * t / (2 * d)) / 1e6;
    }
    return shape.mean * t / 1e6 + shape.amplitude * shape.periodS / kTwoPi *
                                      (1 - std::cos(kTwoPi * t / (shape.periodS * 1e6)));
}

// Brute force: walk every microsecond T and send each k with N(T) <= k < N(T + 1).
Times bruteForce(const ShapeSpec& shape, qint64 durationUs) {
    Times times;
    qint64 k = 0;
    for (qint64 us = 0; us < durationUs; ++us) {
        const double upTo = cumulativeAt(shape, durationUs, us + 1);
        for (; static_cast<double>(k) < upTo; ++k) {
            times.append(us);
        }
    }
    return times;
}

}  // namespace

class TestPacers : public QObject {
    Q_OBJECT

private slots:
    void constantTimes_data();
    void constantTimes();
    void cumulativeTimes_data();
    void cumulativeTimes();
    void exactTimes_data();
    void exactTimes();
    void sameAsConstant_data();
    void sameAsConstant();
    void countMatchesExpected_data();
    void countMatchesExpected();
    void poissonGaps_data();
    void poissonGaps();
    void poissonClone();
    void schedule_data();
    void schedule();
    void targetRate_data();
    void targetRate();
    void expectedSends_data();
    void expectedSends();
    void peakRate_data();
    void peakRate();
};

void TestPacers::constantTimes_data() {
    // rate = rateNum / rateDen exactly, so the closed form is checked in integers.
    QTest::addColumn<qint64>("rateNum");
    QTest::addColumn<qint64>("rateDen");
    QTest::addColumn<qint64>("durationUs");

    QTest::newRow("1/s") << qint64(1) << qint64(1) << 10 * kS;
    QTest::newRow("3/s") << qint64(3) << qint64(1) << 10 * kS;
    QTest::newRow("7/s, end not on a send") << qint64(7) << qint64(1) << 10 * kS + 1;
    QTest::newRow("333/s") << qint64(333) << qint64(1) << 60 * kS;
    QTest::newRow("0.5/s") << qint64(1) << qint64(2) << 10 * kS;
    QTest::newRow("2.5/s") << qint64(5) << qint64(2) << 10 * kS;
    QTest::newRow("0.375/s") << qint64(3) << qint64(8) << 100 * kS;
    QTest::newRow("999983/s (prime)") << qint64(999983) << qint64(1) << 2 * kS;
    QTest::newRow("1e6/s") << qint64(1'000'000) << qint64(1) << 2 * kS;
    QTest::newRow("7/s over a day") << qint64(7) << qint64(1) << 86'400 * kS;
}

void TestPacers::constantTimes() {
    QFETCH(qint64, rateNum);
    QFETCH(qint64, rateDen);
    QFETCH(qint64, durationUs);

    const double rate = static_cast<double>(rateNum) / static_cast<double>(rateDen);
    auto pacer = makePacer(constant(rate), durationUs, 1);
    const Times times = collect(*pacer);
    for (qint64 k = 0; k < times.size(); ++k) {
        const qint64 expected = k * kS * rateDen / rateNum;  // floor(k * 1e6 / rate)
        if (times[k] != expected) {
            QFAIL(qPrintable(QStringLiteral("send %1 at %2 µs, expected %3 µs")
                                 .arg(k)
                                 .arg(times[k])
                                 .arg(expected)));
        }
    }
    // The sends are exactly the k with k * 1e6 / rate < D: ceil(D * rate / 1e6) of them.
    const qint64 total = durationUs * rateNum;
    const qint64 unit = kS * rateDen;
    QCOMPARE(times.size(), (total + unit - 1) / unit);
}

void TestPacers::cumulativeTimes_data() {
    QTest::addColumn<ShapeSpec>("shape");
    QTest::addColumn<qint64>("durationUs");
    QTest::addColumn<bool>("compareBruteForce");  // a walk over every µs: short runs only

    QTest::newRow("linear 0 -> 100") << linear(0, 100) << 10 * kS << true;
    QTest::newRow("linear 100 -> 0") << linear(100, 0) << 10 * kS << true;
    QTest::newRow("linear 3 -> 7") << linear(3, 7) << 10 * kS + 123 << true;
    QTest::newRow("linear 50 -> 50") << linear(50, 50) << 10 * kS << true;
    QTest::newRow("linear 10 -> 5000") << linear(10, 5000) << 5 * kS << true;
    QTest::newRow("linear 5000 -> 10") << linear(5000, 10) << 5 * kS << true;
    QTest::newRow("linear 1e5 -> 1e5+1 (tiny slope)") << linear(1e5, 1e5 + 1) << 2 * kS << true;
    QTest::newRow("linear 0 -> 0") << linear(0, 0) << 2 * kS << true;
    QTest::newRow("linear 0.5 -> 20 over a day") << linear(0.5, 20) << 86'400 * kS << false;
    QTest::newRow("sine 100 +- 50, 2 s") << sine(100, 50, 2) << 10 * kS << true;
    QTest::newRow("sine 100 +- 100 (rate touches 0)") << sine(100, 100, 1) << 5 * kS << true;
    QTest::newRow("sine 1000 +- 0") << sine(1000, 0, 1) << 2 * kS << true;
    QTest::newRow("sine 20 +- 10, 3.7 s") << sine(20, 10, 3.7) << 10 * kS << true;
    QTest::newRow("sine 5e4 +- 4e4, 0.5 s") << sine(5e4, 4e4, 0.5) << 2 * kS << true;
    QTest::newRow("sine 3 +- 3, 0.25 s") << sine(3, 3, 0.25) << 10 * kS + 1 << true;
    QTest::newRow("sine 10 +- 7, 37 s over a day") << sine(10, 7, 37) << 86'400 * kS << false;
}

void TestPacers::cumulativeTimes() {
    QFETCH(ShapeSpec, shape);
    QFETCH(qint64, durationUs);
    QFETCH(bool, compareBruteForce);

    auto pacer = makePacer(shape, durationUs, 1);
    const Times times = collect(*pacer);
    // Send k at T: N(T) <= k < N(T + 1 µs).
    for (qint64 k = 0; k < times.size(); ++k) {
        const double before = cumulativeAt(shape, durationUs, times[k]);
        const double after = cumulativeAt(shape, durationUs, times[k] + 1);
        if (!(before <= static_cast<double>(k) && static_cast<double>(k) < after)) {
            QFAIL(qPrintable(QStringLiteral("send %1 at %2 µs: N = %3 there, %4 a µs later")
                                 .arg(k)
                                 .arg(times[k])
                                 .arg(before, 0, 'g', 17)
                                 .arg(after, 0, 'g', 17)));
        }
    }
    // Every k < N(D) is sent, none beyond.
    const double total = cumulativeAt(shape, durationUs, durationUs);
    QCOMPARE(times.size(), static_cast<qsizetype>(std::ceil(total)));
    if (compareBruteForce) {
        QCOMPARE(times, bruteForce(shape, durationUs));
    }
}

void TestPacers::exactTimes_data() {
    QTest::addColumn<ShapeSpec>("shape");
    QTest::addColumn<qint64>("durationUs");
    QTest::addColumn<Times>("expected");

    QTest::newRow("step with a pause")
        << step({{2, 1}, {0, 0.5}, {4, 0.5}}) << 3 * kS << Times{0, 500'000, 1'500'000, 1'750'000};
    QTest::newRow("step: each stage from its own start")
        << step({{3, 0.5}, {1, 1.5}}) << 3 * kS << Times{0, 333'333, 500'000, 1'500'000};
    QTest::newRow("step clipped by the duration")
        << step({{2, 1}, {10, 1}}) << 1'300'000LL
        << Times{0, 500'000, 1'000'000, 1'100'000, 1'200'000};
    QTest::newRow("step: stages of 0.1 s do not drift")
        << step({{10, 0.1}, {10, 0.1}, {10, 0.1}}) << kS << Times{0, 100'000, 200'000};
    QTest::newRow("step: starts with a pause")
        << step({{0, 0.25}, {8, 0.25}}) << kS << Times{250'000, 375'000};
    QTest::newRow("burst only") << burst(0, 3, 1) << 2'500'000LL
                                << Times{0, 0, 0, kS, kS, kS, 2 * kS, 2 * kS, 2 * kS};
    QTest::newRow("burst merged with a steady rate")
        << burst(2, 2, 1) << 2 * kS << Times{0, 0, 0, 500'000, kS, kS, kS, 1'500'000};
    QTest::newRow("burst between steady sends")
        << burst(3, 2, 0.5) << kS << Times{0, 0, 0, 333'333, 500'000, 500'000, 666'666};
    QTest::newRow("burst of 0: steady only")
        << burst(4, 0, 1) << kS << Times{0, 250'000, 500'000, 750'000};
    QTest::newRow("burst every 0.3 s")
        << burst(0, 1, 0.3) << kS << Times{0, 300'000, 600'000, 900'000};
    QTest::newRow("replay") << replay({0, 0, 5, 1000, 2500}) << 2'500'000LL
                            << Times{0, 0, 5000, 1'000'000};
    QTest::newRow("replay up to the last µs")
        << replay({0, 0, 5, 1000, 2500}) << 2'500'001LL << Times{0, 0, 5000, 1'000'000, 2'500'000};
    QTest::newRow("constant 3/s") << constant(3) << kS << Times{0, 333'333, 666'666};
    QTest::newRow("constant 0/s") << constant(0) << kS << Times{};
    QTest::newRow("no duration") << constant(10) << qint64(0) << Times{};
}

void TestPacers::exactTimes() {
    QFETCH(ShapeSpec, shape);
    QFETCH(qint64, durationUs);
    QFETCH(Times, expected);

    auto pacer = makePacer(shape, durationUs, 1);
    QCOMPARE(collect(*pacer), expected);
}

void TestPacers::sameAsConstant_data() {
    QTest::addColumn<ShapeSpec>("shape");
    QTest::addColumn<double>("rate");

    for (double rate : {7.0, 50.0, 333.0, 1000.0, 2.5}) {
        QTest::addRow("linear %g -> %g", rate, rate) << linear(rate, rate) << rate;
        QTest::addRow("sine %g +- 0", rate) << sine(rate, 0, 1.5) << rate;
        QTest::addRow("step %g", rate) << step({{rate, 4}, {rate, 6}}) << rate;
        QTest::addRow("burst %g, no bursts", rate) << burst(rate, 0, 1) << rate;
    }
}

// Degenerate forms of the other shapes send exactly the constant shape's times.
void TestPacers::sameAsConstant() {
    QFETCH(ShapeSpec, shape);
    QFETCH(double, rate);

    const qint64 durationUs = 10 * kS;
    const Times expected = collect(*makePacer(constant(rate), durationUs, 1));
    QCOMPARE(collect(*makePacer(shape, durationUs, 1)), expected);
}

void TestPacers::countMatchesExpected_data() {
    QTest::addColumn<ShapeSpec>("shape");
    QTest::addColumn<qint64>("durationUs");
    QTest::addColumn<quint64>("seed");
    QTest::addColumn<double>("tolerance");

    const qint64 d = 10 * kS + 777;
    QTest::newRow("constant") << constant(123.4) << d << quint64(1) << 1.0;
    QTest::newRow("linear up") << linear(5, 500) << d << quint64(1) << 1.0;
    QTest::newRow("linear down to 0") << linear(500, 0) << d << quint64(1) << 1.0;
    QTest::newRow("sine") << sine(300, 200, 1.3) << d << quint64(1) << 1.0;
    QTest::newRow("burst") << burst(17, 25, 0.7) << d << quint64(1) << 1.0;
    QTest::newRow("replay") << replay({0, 1, 2, 9999, 10000, 10001}) << d << quint64(1) << 1.0;
    QTest::newRow("step, whole counts per stage")
        << step({{10, 1}, {0, 2}, {50, 3}, {20, 10}}) << d << quint64(1) << 1.0;
    // Each stage sends ceil(its own expected count), so the excess is below one per stage.
    QTest::newRow("step, fractional counts per stage")
        << step({{3, 0.5}, {7, 0.3}, {2.5, 0.9}}) << d << quint64(1) << 3.0;
    // Poisson counts have standard deviation sqrt(expected).
    const double poissonSigma = std::sqrt(2000.0 * 10);
    for (quint64 seed : {quint64(1), quint64(2), quint64(12345), quint64(0xdeadbeefcafeULL)}) {
        QTest::addRow("poisson, seed %llu", seed)
            << poisson(2000) << 10 * kS << seed << 4 * poissonSigma;
    }
}

void TestPacers::countMatchesExpected() {
    QFETCH(ShapeSpec, shape);
    QFETCH(qint64, durationUs);
    QFETCH(quint64, seed);
    QFETCH(double, tolerance);

    auto pacer = makePacer(shape, durationUs, seed);
    const double count = static_cast<double>(collect(*pacer).size());
    const double expected = ratelab::expectedSends(shape, durationUs);
    QVERIFY2(std::abs(count - expected) <= tolerance,
             qPrintable(QStringLiteral("%1 sends, expected %2").arg(count).arg(expected)));
}

void TestPacers::poissonGaps_data() {
    QTest::addColumn<double>("rate");
    QTest::addColumn<quint64>("seed");

    QTest::newRow("1000/s") << 1000.0 << quint64(1);
    QTest::newRow("50/s") << 50.0 << quint64(42);
    QTest::newRow("1e5/s") << 1e5 << quint64(1ULL << 40 | 7);
}

void TestPacers::poissonGaps() {
    QFETCH(double, rate);
    QFETCH(quint64, seed);

    constexpr int kSends = 100'000;
    const double meanGapUs = 1e6 / rate;
    const qint64 durationUs = static_cast<qint64>(kSends * meanGapUs * 2);  // room to spare
    auto pacer = makePacer(poisson(rate), durationUs, seed);
    const Times times = take(*pacer, kSends);
    QVERIFY(times.last() < durationUs);

    double sum = 0;
    double sumSquares = 0;
    qint64 previous = 0;
    for (const qint64 at : times) {
        QVERIFY(at >= previous);
        const double gap = static_cast<double>(at - previous);
        sum += gap;
        sumSquares += gap * gap;
        previous = at;
    }
    // Exponential gaps: the mean's standard error is mean / sqrt(n); allow 4 of them. Their
    // standard deviation equals the mean (checked loosely: the sample spread converges slower).
    const double mean = sum / kSends;
    const double deviation = std::sqrt(sumSquares / kSends - mean * mean);
    QVERIFY2(std::abs(mean - meanGapUs) <= 4 * meanGapUs / std::sqrt(double(kSends)),
             qPrintable(QStringLiteral("mean gap %1 µs, expected %2").arg(mean).arg(meanGapUs)));
    QVERIFY2(std::abs(deviation / mean - 1) < 0.03,
             qPrintable(QStringLiteral("gap deviation / mean = %1").arg(deviation / mean)));
}

void TestPacers::poissonClone() {
    const qint64 durationUs = 3600 * kS;
    auto pacer = makePacer(poisson(500), durationUs, 99);
    const Times first = take(*pacer, 1000);
    auto clone = pacer->clone();  // taken mid-run, still starts from the beginning
    QCOMPARE(take(*clone, 1000), first);
    QCOMPARE(take(*makePacer(poisson(500), durationUs, 99), 1000), first);
    QVERIFY(take(*makePacer(poisson(500), durationUs, 100), 1000) != first);
}

void TestPacers::schedule_data() {
    QTest::addColumn<ShapeSpec>("shape");
    QTest::addColumn<qint64>("durationUs");

    const qint64 d = 5 * kS + 1;
    QTest::newRow("constant") << constant(777.7) << d;
    QTest::newRow("poisson") << poisson(3000) << d;
    QTest::newRow("linear") << linear(1000, 10) << d;
    QTest::newRow("sine") << sine(400, 400, 0.77) << d;
    QTest::newRow("burst") << burst(90, 100, 0.25) << d;
    QTest::newRow("step") << step({{100, 1}, {0, 1}, {1000, 1.5}, {3, 10}}) << d;
    QTest::newRow("replay") << replay({0, 0, 10, 4000, 5000, 5001, 9000}) << qint64(5'000'001);
}

// Properties every schedule has: non-decreasing, within [0, D), kNoMore for good once it ends,
// and clones replay it from the start.
void TestPacers::schedule() {
    QFETCH(ShapeSpec, shape);
    QFETCH(qint64, durationUs);

    auto pacer = makePacer(shape, durationUs, 7);
    auto freshClone = pacer->clone();
    const Times times = collect(*pacer);
    QVERIFY(!times.isEmpty());
    QVERIFY(times.first() >= 0);
    QVERIFY(times.last() < durationUs);
    QVERIFY(std::is_sorted(times.begin(), times.end()));
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(pacer->next(), Pacer::kNoMore);
    }
    QCOMPARE(collect(*freshClone), times);
    auto lateClone = pacer->clone();  // of a finished pacer
    QCOMPARE(collect(*lateClone), times);
}

void TestPacers::targetRate_data() {
    QTest::addColumn<ShapeSpec>("shape");
    QTest::addColumn<qint64>("durationUs");
    QTest::addColumn<qint64>("atUs");
    QTest::addColumn<double>("rate");

    const qint64 d = 10 * kS;
    QTest::newRow("constant") << constant(5) << d << 3 * kS << 5.0;
    QTest::newRow("poisson") << poisson(7.5) << d << 0LL << 7.5;
    QTest::newRow("linear start") << linear(10, 30) << d << 0LL << 10.0;
    QTest::newRow("linear middle") << linear(10, 30) << d << 5 * kS << 20.0;
    QTest::newRow("linear end") << linear(10, 30) << d << d << 30.0;
    QTest::newRow("linear down") << linear(30, 10) << d << 2'500'000LL << 25.0;
    QTest::newRow("sine start") << sine(100, 50, 4) << d << 0LL << 100.0;
    QTest::newRow("sine peak") << sine(100, 50, 4) << d << kS << 150.0;
    QTest::newRow("sine trough") << sine(100, 50, 4) << d << 3 * kS << 50.0;
    QTest::newRow("sine second period") << sine(100, 50, 4) << d << 5 * kS << 150.0;
    QTest::newRow("burst") << burst(2, 10, 5) << d << 1LL << 4.0;
    QTest::newRow("burst only") << burst(0, 3, 0.5) << d << 1LL << 6.0;
    QTest::newRow("replay") << replay({0, 10, 20, 1999}) << 2 * kS << 0LL << 2.0;
    QTest::newRow("replay clipped") << replay({0, 10, 20, 1999, 2000}) << 2 * kS << 0LL << 2.0;
    const ShapeSpec stages = step({{10, 1}, {0, 1}, {20, 2}});
    QTest::newRow("step first") << stages << d << 999'999LL << 10.0;
    QTest::newRow("step pause") << stages << d << kS << 0.0;
    QTest::newRow("step last") << stages << d << 3'999'999LL << 20.0;
    QTest::newRow("step after the last") << stages << d << 4 * kS << 0.0;
}

void TestPacers::targetRate() {
    QFETCH(ShapeSpec, shape);
    QFETCH(qint64, durationUs);
    QFETCH(qint64, atUs);
    QFETCH(double, rate);

    const double actual = makePacer(shape, durationUs, 1)->targetRate(atUs);
    QVERIFY2(std::abs(actual - rate) <= 1e-9 * std::max(1.0, rate),
             qPrintable(QStringLiteral("%1, expected %2").arg(actual).arg(rate)));
}

void TestPacers::expectedSends_data() {
    QTest::addColumn<ShapeSpec>("shape");
    QTest::addColumn<qint64>("durationUs");
    QTest::addColumn<double>("sends");

    const double pi = kTwoPi / 2;
    QTest::newRow("constant") << constant(10) << 2'500'000LL << 25.0;
    QTest::newRow("poisson") << poisson(3) << 2 * kS << 6.0;
    QTest::newRow("linear") << linear(0, 100) << 10 * kS << 500.0;
    QTest::newRow("linear flat") << linear(40, 40) << 2 * kS << 80.0;
    QTest::newRow("sine half period") << sine(100, 50, 4) << 2 * kS << 200 + 200 / pi;
    QTest::newRow("sine whole period") << sine(100, 50, 4) << 4 * kS << 400.0;
    QTest::newRow("burst") << burst(2, 10, 1) << 2'500'000LL << 5.0 + 3 * 10;
    QTest::newRow("burst: none at the end") << burst(2, 10, 1) << 3 * kS << 6.0 + 3 * 10;
    QTest::newRow("step clipped") << step({{10, 1}, {0, 1}, {20, 1}}) << 2'500'000LL << 20.0;
    QTest::newRow("step past the last") << step({{10, 1}, {0, 1}, {20, 1}}) << 10 * kS << 30.0;
    QTest::newRow("replay") << replay({0, 0, 5, 1000, 2500}) << 2'500'000LL << 4.0;
    QTest::newRow("no duration") << constant(10) << 0LL << 0.0;
}

void TestPacers::expectedSends() {
    QFETCH(ShapeSpec, shape);
    QFETCH(qint64, durationUs);
    QFETCH(double, sends);

    const double actual = ratelab::expectedSends(shape, durationUs);
    QVERIFY2(std::abs(actual - sends) <= 1e-9 * std::max(1.0, sends),
             qPrintable(QStringLiteral("%1, expected %2").arg(actual).arg(sends)));
}

// The highest rate each shape asks for, as its pacer sends it (the scenario refuses peaks above
// the rate ceiling). A burst counts once per every_s in whole µs, at least 1 µs.
void TestPacers::peakRate_data() {
    QTest::addColumn<ShapeSpec>("shape");
    QTest::addColumn<double>("peak");
    QTest::newRow("constant") << constant(250) << 250.0;
    QTest::newRow("poisson") << poisson(0.5) << 0.5;
    QTest::newRow("linear up") << linear(10, 500) << 500.0;
    QTest::newRow("linear down") << linear(900, 0) << 900.0;
    QTest::newRow("sine crest") << sine(100, 40, 10) << 140.0;
    QTest::newRow("step busiest stage") << step({{10, 1}, {300, 2}, {0, 1}}) << 300.0;
    QTest::newRow("burst: steady + burst per every_s") << burst(5, 50, 2) << 30.0;
    QTest::newRow("burst of 1000000 every 1 ms") << burst(1, 1'000'000, 0.001) << 1'000'000'001.0;
    QTest::newRow("burst every_s below 1 µs counts as 1 µs") << burst(0, 2, 1e-9) << 2e6;
    QTest::newRow("replay: busiest second") << replay({0, 10, 999, 1000, 1500, 1998, 1999, 3000})
                                            << 4.0;  // 999 to 1998 (or 1000 to 1999)
    QTest::newRow("replay: one row") << replay({7}) << 1.0;
    QTest::newRow("replay: same instant") << replay({5, 5, 5}) << 3.0;
}

void TestPacers::peakRate() {
    QFETCH(ShapeSpec, shape);
    QFETCH(double, peak);
    QCOMPARE(ratelab::peakRate(shape), peak);
}

QTEST_GUILESS_MAIN(TestPacers)
#include "tst_pacers.moc"
