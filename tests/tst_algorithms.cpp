// The algorithm descriptors (limiters/algorithm.h): every type has one, named as the spec's
// "type"; its defaults are a valid spec that round-trips; its numeric parameters are named by
// field path, set by that path, and bounded as the parser bounds them.
#include <QtTest>

#include "input_error.h"
#include "limiters/algorithm.h"
#include "limiters/limiter.h"

using namespace ratelab;

Q_DECLARE_METATYPE(LimiterType)

namespace {

QStringList paths(const char* spaced) {
    return QString::fromLatin1(spaced).split(QLatin1Char(' '));
}

}  // namespace

class TestAlgorithms : public QObject {
    Q_OBJECT

private slots:
    void everyTypeHasOneDescriptor() {
        QCOMPARE(int(algorithms().size()), 8);
        for (const Algorithm* algorithm : algorithms()) {
            QCOMPARE(&algorithmOf(algorithm->type()), algorithm);
            QCOMPARE(algorithmNamed(algorithm->name()), algorithm);
            QCOMPARE(limiterTypeName(algorithm->type()), algorithm->name());
        }
        QVERIFY(algorithmNamed(QStringLiteral("bucket")) == nullptr);
    }

    // A new limiter of each type starts valid: its JSON parses back to the same spec, makes a
    // limiter, and names the windows the admitted burst measures.
    void defaultsAreValid() {
        for (const Algorithm* algorithm : algorithms()) {
            const LimiterSpec spec = algorithm->defaults(QStringLiteral("d"));
            QCOMPARE(spec.type, algorithm->type());
            const LimiterSpec again = parseLimiterSpec(limiterSpecToJson(spec));
            QVERIFY2(again == spec, qPrintable(algorithm->name()));
            QVERIFY(algorithm->capacity(spec) >= 1);
            QVERIFY(!algorithm->windowsMs(spec).empty());
            QVERIFY(algorithm->limitPerBucket(spec, 100) > 0);
            QVERIFY(algorithm->make(spec, LimiterOptions{}) != nullptr);
            QCOMPARE(algorithm->calendarWindows(spec).has_value(),
                     algorithm->type() == LimiterType::FixedWindow);
        }
    }

    void numericParams_data() {
        QTest::addColumn<LimiterType>("type");
        QTest::addColumn<QStringList>("paths");
        QTest::newRow("token bucket") << LimiterType::TokenBucket << paths("rate interval_ms");
        QTest::newRow("fixed window") << LimiterType::FixedWindow << paths("rate interval");
        QTest::newRow("sliding log")
            << LimiterType::SlidingWindow
            << paths("rules[0].limit rules[0].window_ms rules[1].limit rules[1].window_ms");
        QTest::newRow("gcra") << LimiterType::Gcra << paths("rate period_ms burst");
        QTest::newRow("sliding counter") << LimiterType::SlidingCounter << paths("limit window_ms");
        QTest::newRow("leaky bucket") << LimiterType::LeakyBucket << paths("rate period_ms burst");
        QTest::newRow("concurrency") << LimiterType::Concurrency << paths("limit lease_ms");
    }
    // Each parameter set by its path to its bounds: the parser accepts both ends and refuses
    // one beyond, naming that field; an unknown path is refused.
    void numericParams() {
        QFETCH(LimiterType, type);
        QFETCH(QStringList, paths);
        const Algorithm& algorithm = algorithmOf(type);
        const LimiterSpec spec = algorithm.defaults(QStringLiteral("p"));
        const std::vector<NumericParam> params = algorithm.numericParams(spec);
        QStringList named;
        for (const NumericParam& p : params) {
            named << p.path;
        }
        QCOMPARE(named, paths);
        for (const NumericParam& p : params) {
            for (const qint64 value : {p.min, p.max}) {
                LimiterSpec changed = spec;
                QVERIFY(algorithm.setNumericParam(changed, p.path, value));
                const LimiterSpec parsed = parseLimiterSpec(limiterSpecToJson(changed));
                QVERIFY2(parsed == changed, qPrintable(p.path));
            }
            LimiterSpec beyond = spec;
            QVERIFY(algorithm.setNumericParam(beyond, p.path, p.max + 1));
            try {
                parseLimiterSpec(limiterSpecToJson(beyond));
                QFAIL(qPrintable(p.path + QStringLiteral(" above its maximum was accepted")));
            } catch (const InputError& e) {
                QVERIFY2(e.message().contains(QStringLiteral("$.") + p.path),
                         qPrintable(e.message()));
            }
        }
        LimiterSpec unchanged = spec;
        QVERIFY(!algorithm.setNumericParam(unchanged, QStringLiteral("rules[9].limit"), 3));
        QVERIFY(!algorithm.setNumericParam(unchanged, QStringLiteral("nonsense"), 3));
        QVERIFY(unchanged == spec);
    }
};

QTEST_GUILESS_MAIN(TestAlgorithms)
#include "tst_algorithms.moc"
