#include "support/scenario_documents.h"

#include <QDir>
#include <QStringList>
#include <QtTest>

#include "input_error.h"
#include "support/test_files.h"

namespace ratelab::test {

QByteArray doc(const QByteArray& traffic, const QByteArray& top) {
    return QByteArray(R"({"limiters": [)") + kApi + R"(], "traffic": {)" + traffic + '}' + top +
           '}';
}

QByteArray withTraffic(const QByteArray& more) {
    return doc(QByteArray(kConstant) + ", " + more);
}

QByteArray withShape(const QByteArray& shape) {
    return doc(R"("shape": )" + shape + R"(, "duration_s": 10)");
}

QByteArray withTop(const QByteArray& top) {
    return doc(kConstant, ", " + top);
}

QByteArray withLimiters(const QByteArray& limiters) {
    return QByteArray(R"({"limiters": )") + limiters + R"(, "traffic": {)" + kConstant + "}}";
}

QByteArray withClock(const QByteArray& clock) {
    return withTraffic(R"("clock": )" + clock);
}

QByteArray manyLimiters(int count) {
    QByteArray out = "[";
    for (int i = 0; i < count; ++i) {
        out += QStringLiteral(R"(%1{"type": "token_bucket", "name": "l%2", "rate": 1, )"
                              R"("interval_ms": 1000})")
                   .arg(i == 0 ? QString() : QStringLiteral(", "))
                   .arg(i)
                   .toUtf8();
    }
    return out + ']';
}

LimiterSpec api() {
    LimiterSpec spec;
    spec.type = LimiterType::TokenBucket;
    spec.name = QStringLiteral("api");
    spec.rate = 10;
    spec.intervalMs = 1000;
    return spec;
}

Scenario defaults() {
    Scenario scenario;
    scenario.name = QStringLiteral("scenario");
    scenario.limiters = {api()};
    scenario.traffic.shape.type = ShapeSpec::Type::Constant;
    scenario.traffic.shape.rate = 100;
    scenario.traffic.durationS = 10;
    return scenario;
}

Scenario edited(const std::function<void(Scenario&)>& edit) {
    Scenario scenario = defaults();
    edit(scenario);
    return scenario;
}

QStringList describe(const Trace& rows) {
    QStringList out;
    for (const TraceRow& row : rows) {
        out << QStringLiteral("%1:%2|%3|%4")
                   .arg(row.line)
                   .arg(row.tMs)
                   .arg(row.client)
                   .arg(row.permits);
    }
    return out;
}

namespace {

QStringList describe(const QVector<ShapeSpec::Stage>& stages) {
    QStringList out;
    for (const ShapeSpec::Stage& stage : stages) {
        out << QStringLiteral("%1/s for %2 s").arg(stage.rate).arg(stage.durationS);
    }
    return out;
}

}  // namespace

void compareScenarios(const Scenario& actual, const Scenario& expected) {
    QCOMPARE(actual.name, expected.name);
    QCOMPARE(actual.limiters, expected.limiters);
    QCOMPARE(actual.bucketMs, expected.bucketMs);

    const TrafficSpec& a = actual.traffic;
    const TrafficSpec& e = expected.traffic;
    QCOMPARE(int(a.shape.type), int(e.shape.type));
    QCOMPARE(a.shape.rate, e.shape.rate);
    QCOMPARE(a.shape.from, e.shape.from);
    QCOMPARE(a.shape.to, e.shape.to);
    QCOMPARE(a.shape.mean, e.shape.mean);
    QCOMPARE(a.shape.amplitude, e.shape.amplitude);
    QCOMPARE(a.shape.periodS, e.shape.periodS);
    QCOMPARE(a.shape.burst, e.shape.burst);
    QCOMPARE(a.shape.everyS, e.shape.everyS);
    QCOMPARE(describe(a.shape.stages), describe(e.shape.stages));
    QCOMPARE(a.shape.replayOffsetsMs, e.shape.replayOffsetsMs);
    QCOMPARE(a.tracePath, e.tracePath);
    QCOMPARE(describe(a.trace), describe(e.trace));
    QCOMPARE(a.durationS, e.durationS);
    QCOMPARE(a.clients, e.clients);
    QCOMPARE(a.clientWeights, e.clientWeights);
    QCOMPARE(a.threads, e.threads);
    QCOMPARE(a.pipeline, e.pipeline);
    QCOMPARE(a.permitsMin, e.permitsMin);
    QCOMPARE(a.permitsMax, e.permitsMax);
    QCOMPARE(int(a.mode), int(e.mode));
    QCOMPARE(a.timeoutMs, e.timeoutMs);
    QCOMPARE(a.clock.isVirtual, e.clock.isVirtual);
    QCOMPARE(a.clock.startMs, e.clock.startMs);
    QCOMPARE(a.clock.speed, e.clock.speed);
    QCOMPARE(a.seed, e.seed);
}

QVector<TraceRow> loginRows() {
    return {{1000, QStringLiteral("alice"), 1, 2},
            {1250, QStringLiteral("bob"), 2, 3},
            {3000, QStringLiteral("alice"), 1, 4}};
}

void expectError(const std::function<void()>& call, const QString& where, const QString& message) {
    try {
        call();
        QFAIL("accepted");
    } catch (const InputError& error) {
        QCOMPARE(error.where(), where);
        QVERIFY2(
            error.problem().contains(message),
            qPrintable(
                QStringLiteral("\"%1\" does not contain \"%2\"").arg(error.problem(), message)));
        QCOMPARE(error.message(), where + QStringLiteral(": ") + error.problem());
    }
}

void writeScenarioTraces(const QString& dir) {
    const QByteArray login = "t_ms,client,permits\n1000,alice,1\n1250,bob,2\n3000,alice,1\n";
    writeTestFile(QDir(dir).filePath(QStringLiteral("login.csv")), login);
    writeTestFile(QDir(dir).filePath(QStringLiteral("traces/sub.csv")), "5,x,1\n");
    writeTestFile(QDir(dir).filePath(QStringLiteral("bad.csv")), "0,a,1\n5,b,0\n");
    writeTestFile(QDir(dir).filePath(QStringLiteral("empty.csv")), "t_ms,client,permits\n");
    writeTestFile(QDir(dir).filePath(QStringLiteral("long.csv")), "0,a,1\n86400000,a,1\n");
    // Replay peaks: 1,000,000 requests within one second is the ceiling, one more is above it.
    QByteArray atCeiling;
    atCeiling.reserve(7'000'100);
    for (int i = 0; i < 1'000'000; ++i) {
        atCeiling += "500,a,1\n";
    }
    writeTestFile(QDir(dir).filePath(QStringLiteral("ceiling.csv")), "0,a,1\n" + atCeiling.mid(8));
    writeTestFile(QDir(dir).filePath(QStringLiteral("above-ceiling.csv")),
                  "0,a,1\n" + atCeiling + "2000,a,1\n");
}

}  // namespace ratelab::test
