#include <QtTest>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <thread>

#include "stats/latency_histogram.h"

using ratelab::jainFairness;
using ratelab::LatencyHistogram;
using Snapshot = LatencyHistogram::Snapshot;
using Values = QVector<std::int64_t>;

namespace {

constexpr std::int64_t kMax = LatencyHistogram::kMaxValue;
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kHourUs = std::int64_t(3600) * 1000 * 1000;
// Above the exact range a bucket spans at most 1/64 of its lowest value.
constexpr std::int64_t kExactCount = std::int64_t(1) << LatencyHistogram::kSubBits;
constexpr std::int64_t kRelativeErrorDivisor = std::int64_t(1) << (LatencyHistogram::kSubBits - 1);
const double kPercentiles[] = {50, 90, 99, 99.9, 100};

Snapshot snapshotOf(const Values& values) {
    auto histogram = std::make_unique<LatencyHistogram>();  // 16 KB of atomics: not on the stack
    for (std::int64_t v : values)
        histogram->record(v);
    return histogram->snapshot();
}

// The value at rank ceil(p% of n) of the sorted values: at least p% of them are <= it.
std::int64_t truePercentile(const Values& sorted, double p) {
    const std::int64_t n = sorted.size();
    const auto rank =
        std::clamp<std::int64_t>(std::int64_t(std::ceil(p * double(n) / 100 - 1e-9)), 1, n);
    return sorted[rank - 1];
}

double exactSum(const Values& values) {
    double sum = 0;
    for (std::int64_t v : values)
        sum += double(std::clamp<std::int64_t>(v, 0, kMax));
    return sum;
}

QString describe(const Snapshot& s) {
    return QStringLiteral("total %1 min %2 max %3 sum %4 clamped %5")
        .arg(s.total)
        .arg(s.min)
        .arg(s.max)
        .arg(s.sum, 0, 'f', 0)
        .arg(s.clamped);
}

// Distributions, all seeded so every run sees the same values.

Values uniform(int n, std::int64_t lo, std::int64_t hi, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::int64_t> dist(lo, hi);
    Values values;
    for (int i = 0; i < n; ++i)
        values << dist(rng);
    return values;
}

// Uniform in log scale: every octave up to `hi` gets about the same number of values.
Values logUniform(int n, std::int64_t hi, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> dist(0, std::log2(double(hi)));
    Values values;
    for (int i = 0; i < n; ++i)
        values << std::min(std::int64_t(std::exp2(dist(rng))), hi);
    return values;
}

Values exponential(int n, double mean, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::exponential_distribution<double> dist(1 / mean);
    Values values;
    for (int i = 0; i < n; ++i)
        values << std::int64_t(std::llround(dist(rng)));
    return values;
}

// Mostly fast answers around 300 us, with a 15% cluster of slow ones around 80 ms.
Values bimodal(int n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> fast(300, 50);
    std::normal_distribution<double> slow(80000, 10000);
    std::bernoulli_distribution isSlow(0.15);
    Values values;
    for (int i = 0; i < n; ++i) {
        const double v = isSlow(rng) ? slow(rng) : fast(rng);
        values << std::max<std::int64_t>(0, std::llround(v));
    }
    return values;
}

// Pareto with shape 0.8 (no finite mean) from 100 us, cut at 5 hours.
Values heavyTail(int n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> dist(0, 1);
    Values values;
    for (int i = 0; i < n; ++i) {
        const double v = 100 * std::pow(1 - dist(rng), -1 / 0.8);
        values << std::int64_t(std::min(v, double(5 * kHourUs)));
    }
    return values;
}

Values constant(int n, std::int64_t value) {
    return Values(n, value);
}

Values powersOfTwoAndNeighbours() {
    Values values;
    for (int bit = 0; bit <= 36; ++bit) {
        const std::int64_t power = std::int64_t(1) << bit;
        for (std::int64_t v : {power - 1, power, power + 1}) {
            if (v <= kMax)
                values << v;
        }
    }
    return values;
}

Values range(std::int64_t from, std::int64_t to) {
    Values values;
    for (std::int64_t v = from; v <= to; ++v)
        values << v;
    return values;
}

}  // namespace

class TestLatencyHistogram : public QObject {
    Q_OBJECT

private slots:
    void bucketMapping_data();
    void bucketMapping();
    void bucketLayout_data();
    void bucketLayout();
    void percentiles_data();
    void percentiles();
    void merge_data();
    void merge();
    void clamping_data();
    void clamping();
    void empty_data();
    void empty();
    void concurrentReaders();
    void fairness_data();
    void fairness();
};

void TestLatencyHistogram::bucketMapping_data() {
    QTest::addColumn<Values>("values");
    QTest::newRow("every value 0..100000") << range(0, 100000);
    QTest::newRow("powers of two and neighbours") << powersOfTwoAndNeighbours();
    QTest::newRow("log-uniform up to kMaxValue") << logUniform(100000, kMax, 1);
    QTest::newRow("uniform 100000..kMaxValue") << uniform(100000, 100000, kMax, 2);
}

void TestLatencyHistogram::bucketMapping() {
    QFETCH(Values, values);
    for (std::int64_t v : values) {
        const int index = LatencyHistogram::bucketIndex(v);
        if (index < 0 || index >= LatencyHistogram::kBucketCount)
            QFAIL(qPrintable(QStringLiteral("%1 maps to index %2").arg(v).arg(index)));
        const std::int64_t lowest = LatencyHistogram::bucketLowest(index);
        const std::int64_t highest = LatencyHistogram::bucketHighest(index);
        if (v < lowest || v > highest) {
            QFAIL(qPrintable(QStringLiteral("%1 maps to bucket %2 = [%3, %4]")
                                 .arg(v)
                                 .arg(index)
                                 .arg(lowest)
                                 .arg(highest)));
        }
    }
}

void TestLatencyHistogram::bucketLayout_data() {
    QTest::addColumn<int>("first");
    QTest::addColumn<int>("last");
    QTest::newRow("exact range") << 0 << int(kExactCount) - 1;
    QTest::newRow("octaves") << int(kExactCount) << LatencyHistogram::kBucketCount - 1;
}

// Buckets are contiguous, increasing, round-trip through bucketIndex(), and narrow enough.
void TestLatencyHistogram::bucketLayout() {
    QFETCH(int, first);
    QFETCH(int, last);
    QCOMPARE(LatencyHistogram::bucketLowest(0), std::int64_t(0));
    QVERIFY(LatencyHistogram::bucketIndex(kMax) < LatencyHistogram::kBucketCount);
    for (int i = first; i <= last; ++i) {
        const std::int64_t lowest = LatencyHistogram::bucketLowest(i);
        const std::int64_t highest = LatencyHistogram::bucketHighest(i);
        const QString where =
            QStringLiteral("bucket %1 = [%2, %3]").arg(i).arg(lowest).arg(highest);
        QVERIFY2(lowest <= highest, qPrintable(where));
        if (i > 0) {
            QVERIFY2(lowest == LatencyHistogram::bucketHighest(i - 1) + 1, qPrintable(where));
        }
        if (lowest <= kMax) {
            QVERIFY2(LatencyHistogram::bucketIndex(lowest) == i, qPrintable(where));
        }
        if (highest <= kMax) {
            QVERIFY2(LatencyHistogram::bucketIndex(highest) == i, qPrintable(where));
        }
        const std::int64_t width = highest - lowest + 1;
        if (lowest < kExactCount) {
            QVERIFY2(width == 1, qPrintable(where));
        } else {
            QVERIFY2(width * kRelativeErrorDivisor <= lowest, qPrintable(where));
        }
    }
}

void TestLatencyHistogram::percentiles_data() {
    QTest::addColumn<Values>("values");
    QTest::newRow("uniform 0..1s") << uniform(100000, 0, 1000000, 3);
    QTest::newRow("uniform exact range") << uniform(10000, 0, kExactCount - 1, 4);
    QTest::newRow("exponential mean 2ms") << exponential(100000, 2000, 5);
    QTest::newRow("bimodal") << bimodal(100000, 6);
    QTest::newRow("constant") << constant(1000, 4242);
    QTest::newRow("constant zero") << constant(1000, 0);
    QTest::newRow("single value") << constant(1, 777777);
    QTest::newRow("heavy tail up to hours") << heavyTail(100000, 7);
    QTest::newRow("log-uniform up to kMaxValue") << logUniform(100000, kMax, 8);
}

// Reported percentiles are never below the true ones, and at most one bucket width above.
void TestLatencyHistogram::percentiles() {
    QFETCH(Values, values);
    const Snapshot s = snapshotOf(values);
    Values sorted = values;
    std::sort(sorted.begin(), sorted.end());

    QCOMPARE(s.total, std::uint64_t(values.size()));
    QCOMPARE(s.min, sorted.first());
    QCOMPARE(s.max, sorted.last());
    QCOMPARE(s.sum, exactSum(values));
    QCOMPARE(s.clamped, std::uint64_t(0));
    QCOMPARE(s.percentile(0), sorted.first());
    QCOMPARE(s.percentile(100), sorted.last());

    for (double p : kPercentiles) {
        const std::int64_t truth = truePercentile(sorted, p);
        const std::int64_t reported = s.percentile(p);
        const QString what =
            QStringLiteral("p%1: reported %2, true %3").arg(p).arg(reported).arg(truth);
        QVERIFY2(reported >= truth, qPrintable(what));
        QVERIFY2((reported - truth) * kRelativeErrorDivisor <= truth, qPrintable(what));
        if (truth < kExactCount) {
            QVERIFY2(reported == truth, qPrintable(what));
        }
    }
}

void TestLatencyHistogram::merge_data() {
    QTest::addColumn<Values>("first");
    QTest::addColumn<Values>("second");
    QTest::newRow("disjoint ranges")
        << uniform(5000, 0, 1000, 9) << uniform(5000, 1000000, 2000000, 10);
    QTest::newRow("overlapping") << exponential(20000, 5000, 11) << bimodal(20000, 12);
    QTest::newRow("second has the min and max")
        << uniform(1000, 500, 600, 13) << Values{3, 550, 5 * kHourUs};
    QTest::newRow("first empty") << Values{} << heavyTail(1000, 14);
    QTest::newRow("second empty") << heavyTail(1000, 15) << Values{};
    QTest::newRow("both empty") << Values{} << Values{};
    QTest::newRow("clamped and negative")
        << Values{-5, 10, kMax + 1} << Values{kInt64Max, 7, -1, 20};
}

void TestLatencyHistogram::merge() {
    QFETCH(Values, first);
    QFETCH(Values, second);
    Snapshot merged = snapshotOf(first);
    merged.merge(snapshotOf(second));
    const Snapshot together = snapshotOf(first + second);

    QVERIFY2(merged.counts == together.counts, "bucket counts differ");
    QCOMPARE(merged.total, together.total);
    QCOMPARE(merged.min, together.min);
    QCOMPARE(merged.max, together.max);
    QCOMPARE(merged.sum, together.sum);
    QCOMPARE(merged.clamped, together.clamped);
    for (double p : kPercentiles)
        QCOMPARE(merged.percentile(p), together.percentile(p));
}

void TestLatencyHistogram::clamping_data() {
    QTest::addColumn<Values>("values");
    QTest::addColumn<std::uint64_t>("clamped");
    QTest::addColumn<std::int64_t>("min");
    QTest::addColumn<std::int64_t>("max");
    QTest::newRow("exactly kMaxValue") << Values{kMax} << std::uint64_t(0) << kMax << kMax;
    QTest::newRow("just above") << Values{kMax + 1} << std::uint64_t(1) << kMax << kMax;
    QTest::newRow("int64 max") << Values{kInt64Max} << std::uint64_t(1) << kMax << kMax;
    QTest::newRow("mixed") << Values{5, kMax + 10, kMax, kInt64Max, 1000} << std::uint64_t(2)
                           << std::int64_t(5) << kMax;
    QTest::newRow("negative records as 0")
        << Values{-1, -1000000, std::numeric_limits<std::int64_t>::min()} << std::uint64_t(0)
        << std::int64_t(0) << std::int64_t(0);
}

void TestLatencyHistogram::clamping() {
    QFETCH(Values, values);
    QFETCH(std::uint64_t, clamped);
    QFETCH(std::int64_t, min);
    QFETCH(std::int64_t, max);
    const Snapshot s = snapshotOf(values);
    QCOMPARE(s.total, std::uint64_t(values.size()));
    QCOMPARE(s.clamped, clamped);
    QCOMPARE(s.min, min);
    QCOMPARE(s.max, max);
    QCOMPARE(s.percentile(100), max);
    QCOMPARE(s.sum, exactSum(values));

    const auto atLeastMax =
        std::count_if(values.begin(), values.end(), [](std::int64_t v) { return v >= kMax; });
    QCOMPARE(s.counts[LatencyHistogram::bucketIndex(kMax)], std::uint64_t(atLeastMax));
}

void TestLatencyHistogram::empty_data() {
    QTest::addColumn<double>("p");
    QTest::newRow("p0") << 0.0;
    QTest::newRow("p50") << 50.0;
    QTest::newRow("p99.9") << 99.9;
    QTest::newRow("p100") << 100.0;
}

void TestLatencyHistogram::empty() {
    QFETCH(double, p);
    Snapshot s = snapshotOf({});
    QCOMPARE(s.percentile(p), std::int64_t(0));
    s.merge(snapshotOf({}));
    QCOMPARE(s.percentile(p), std::int64_t(0));
    QCOMPARE(s.total, std::uint64_t(0));
    QCOMPARE(s.min, std::int64_t(0));
    QCOMPARE(s.max, std::int64_t(0));
    QCOMPARE(s.sum, 0.0);
    QCOMPARE(s.mean(), 0.0);
    QCOMPARE(s.clamped, std::uint64_t(0));
    QVERIFY(std::all_of(s.counts.begin(), s.counts.end(), [](std::uint64_t c) { return c == 0; }));
}

// One thread records while this one takes snapshots: what a reader sees only grows, stays
// internally consistent, and is exact once the writer is done.
void TestLatencyHistogram::concurrentReaders() {
    constexpr int kCount = 1000000;
    // Spread over all octaves; every 1000th value clamped.
    const auto valueAt = [](std::int64_t i) -> std::int64_t {
        return i % 1000 == 999 ? kMax + i : (i * 2654435761LL) % (std::int64_t(1) << (i % 37));
    };

    auto histogram = std::make_unique<LatencyHistogram>();
    std::atomic<bool> done{false};
    std::thread writer([&] {
        for (std::int64_t i = 0; i < kCount; ++i)
            histogram->record(valueAt(i));
        done.store(true, std::memory_order_release);
    });

    // No QVERIFY while the writer runs: a failure would return with the thread still joinable.
    QString failure;
    int snapshots = 0;
    auto previous = std::make_unique<Snapshot>();
    while (failure.isEmpty() && !done.load(std::memory_order_acquire)) {
        const auto s = std::make_unique<Snapshot>(histogram->snapshot());
        ++snapshots;
        std::uint64_t countSum = 0;
        for (int i = 0; i < LatencyHistogram::kBucketCount; ++i) {
            countSum += s->counts[i];
            if (s->counts[i] < previous->counts[i])
                failure = QStringLiteral("bucket %1 count went down").arg(i);
        }
        if (s->total < previous->total || s->clamped < previous->clamped)
            failure = QStringLiteral("totals went down: %1 after %2")
                          .arg(describe(*s), describe(*previous));
        if (countSum != s->total)
            failure = QStringLiteral("counts add up to %1: %2").arg(countSum).arg(describe(*s));
        if (s->total > 0 && (s->min > s->max || s->percentile(50) < s->min ||
                             s->percentile(50) > s->max || s->percentile(100) != s->max))
            failure = QStringLiteral("inconsistent: %1").arg(describe(*s));
        previous = std::make_unique<Snapshot>(*s);
    }
    writer.join();
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    qDebug("%d snapshots taken while recording", snapshots);

    auto expected = std::make_unique<Snapshot>();
    expected->min = kInt64Max;
    for (std::int64_t i = 0; i < kCount; ++i) {
        const std::int64_t v = valueAt(i);
        const std::int64_t recorded = std::min(v, kMax);
        ++expected->counts[LatencyHistogram::bucketIndex(recorded)];
        ++expected->total;
        expected->min = std::min(expected->min, recorded);
        expected->max = std::max(expected->max, recorded);
        expected->sum += double(recorded);
        expected->clamped += v > kMax ? 1 : 0;
    }
    const Snapshot settled = histogram->snapshot();
    QVERIFY2(settled.counts == expected->counts, "bucket counts differ");
    QCOMPARE(settled.total, std::uint64_t(kCount));
    QCOMPARE(settled.min, expected->min);
    QCOMPARE(settled.max, expected->max);
    QCOMPARE(settled.sum, expected->sum);
    QCOMPARE(settled.clamped, expected->clamped);
}

void TestLatencyHistogram::fairness_data() {
    QTest::addColumn<QVector<double>>("amounts");
    QTest::addColumn<double>("expected");
    QTest::newRow("all equal") << QVector<double>{5, 5, 5, 5} << 1.0;
    QTest::newRow("single") << QVector<double>{3} << 1.0;
    QTest::newRow("one of four gets all") << QVector<double>{0, 0, 0, 10} << 0.25;
    QTest::newRow("one of five gets all") << QVector<double>{0, 0, 7, 0, 0} << 0.2;
    QTest::newRow("empty") << QVector<double>{} << 1.0;
    QTest::newRow("all zeros") << QVector<double>{0, 0, 0} << 1.0;
    QTest::newRow("two of four") << QVector<double>{1, 1, 0, 0} << 0.5;
    // (1+2+3+4)^2 / (4 * (1+4+9+16)) = 100 / 120
    QTest::newRow("mixed 1 2 3 4") << QVector<double>{1, 2, 3, 4} << 100.0 / 120.0;
}

void TestLatencyHistogram::fairness() {
    QFETCH(QVector<double>, amounts);
    QFETCH(double, expected);
    QCOMPARE(jainFairness(amounts), expected);
}

QTEST_GUILESS_MAIN(TestLatencyHistogram)
#include "tst_latency_histogram.moc"
