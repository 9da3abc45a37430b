// The output folder's one format: a run written (summary.json, buckets.csv) reads back equal
// field by field; summary.json's "format" (missing = 1, the current one, a newer one refused);
// bad files refused with the file and the JSON path or CSV line named; each file written to a
// temporary file and renamed into place.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <limits>

#include "input_error.h"
#include "input_limits.h"
#include "output/buckets_csv.h"
#include "output/output_folder.h"
#include "output/summary_json.h"

using namespace ratelab;

namespace {

LatencyHistogram::Snapshot histogram(std::initializer_list<std::int64_t> valuesUs) {
    LatencyHistogram h;
    for (const std::int64_t v : valuesUs) {
        h.record(v);
    }
    return h.snapshot();
}

LimiterSnapshot limiter(const QString& name, LimiterType type, FailurePolicy onError,
                        qint64 scale) {
    LimiterSnapshot l;
    l.spec.name = name;
    l.spec.type = type;
    l.spec.onError = onError;
    l.spec.rate = 10 * scale;
    l.spec.interval = 1;  // fixed window: 1 second in UTC
    l.spec.timezone = "UTC";
    l.spec.periodMs = 1000;  // gcra
    l.spec.burst = 3;
    l.accepted = 40 * scale;
    l.rejected = 17 * scale;
    l.errors = 3;
    l.errorsOpen = onError == FailurePolicy::Open ? 3 : 0;
    l.errorsClosed = onError == FailurePolicy::Closed ? 3 : 0;
    l.fired = l.accepted + l.rejected + l.errors;
    l.attempts = l.fired + 5;
    l.errorCauses[int(ErrorCause::Noperm)] = 2;
    l.errorCauses[int(ErrorCause::UnknownOutcome)] = 1;
    l.bucketAccepted = {10 * scale, 30 * scale, 0};
    l.bucketRejected = {0, 17 * scale, 0};
    l.bucketErrors = {1, 2, 0};
    l.bucketErrorsOpen = {l.errorsOpen > 0 ? 1 : 0, l.errorsOpen > 0 ? 2 : 0, 0};
    l.bucketErrorsClosed = {l.errorsClosed > 0 ? 1 : 0, l.errorsClosed > 0 ? 2 : 0, 0};
    l.latency = histogram({120, 250, 999, 4321, 70000});
    l.waited = histogram({0, 15000});
    l.fairness = 0.8125 + 0.001 * double(scale);
    ClientTotals a;
    a.client = QStringLiteral("c,0 \"quoted\"");
    a.accepted = 25 * scale;
    a.rejected = 7 * scale;
    a.errors = 1;
    a.fired = a.accepted + a.rejected + a.errors;
    a.waitedMsTotal = 333;
    a.admittedBurst = {{12, -40, 1000, -35, 950}, {20 * scale, 0, 10000, 5, 9990}};
    ClientTotals b;
    b.client = QStringLiteral("c1");
    b.group = QStringLiteral("attacker-\"1\"");
    b.accepted = 15 * scale;
    b.fired = b.accepted;
    l.clients = {a, b};
    GroupTotals g;
    g.group = QStringLiteral("attacker-\"1\"");
    g.clients = 2;
    g.accepted = 40 * scale;
    g.rejected = 7 * scale;
    g.errors = 1;
    g.errorsOpen = onError == FailurePolicy::Open ? 1 : 0;
    g.fired = g.accepted + g.rejected + g.errors;
    g.waitedMsTotal = 333;
    g.fairness = 0.75;
    g.admittedBurst = {{12, -40, 1000, -35, 950}};
    g.admittedBurstRunClock = {{13, -30, 1000, -30, 960}};
    g.bucketAccepted = {10 * scale, 30 * scale};  // one bucket short: written as 0
    g.bucketRejected = {0, 7 * scale};
    l.groups = {g, GroupTotals{}};
    l.admittedBurst = {{21, 1000, 1000, 1001, 1999}, {40 * scale, 0, 10000, 0, 2999}};
    l.admittedBurstRunClock = {{23, 990, 1000, 991, 1989}};
    return l;
}

// Every field summary.json and buckets.csv hold, with values that are not round: names with
// commas and quotes, a target rate of 100/3, latencies in fractions of a ms, bursts before the
// run's start (a skewed clock), a measured figure the run lacks.
RunSnapshot fullRun() {
    RunSnapshot run;
    run.scenarioName = QStringLiteral("round, \"trip\" ü");
    run.startEpochMs = 1714521600123;
    run.bucketMs = 250;
    run.durationUs = 750000;
    run.elapsedUs = 750000;
    run.finished = true;
    run.finishedAtUs = 761234;
    run.scheduled = 123;
    run.targetRate = 100.0 / 3;
    run.bucketTargetRate = {100.0 / 3, 0.1, 1e-7};
    run.lag = histogram({3, 7, 1100});
    run.limiters = {
        limiter(QStringLiteral("a,\"b\""), LimiterType::FixedWindow, FailurePolicy::Open, 1),
        limiter(QStringLiteral("gcra"), LimiterType::Gcra, FailurePolicy::Closed, 2)};
    // The second as a script limiter's figures against its reference would be (buckets.csv's
    // disagreements_with_reference column, 0 in the first limiter's rows).
    LimiterSnapshot& compared = run.limiters[1];
    compared.hasReference = true;
    compared.reference = {compared.accepted + compared.rejected, 9};
    compared.bucketDisagreed = {2, 7, 0};
    compared.clients[0].reference = {30, 5};
    compared.clients[1].reference = {30, 4};
    compared.groups[0].reference = {60, 9};
    // The first behind three gateways: each one's decisions, Redis calls and admissions.
    LimiterSnapshot& gated = run.limiters[0];
    gated.redisCalls = 31;
    gated.gateways = {{20, 11, 14, {}}, {25, 20, 16, {}}, {15, 0, 10, {}}};
    run.sameRequests = true;
    run.disagreements = {{0, 1, 120, 7, {}}};
    run.virtualClock = true;
    run.clockSpeed = 2.5;
    run.roundTripPerLimiter = true;
    ExpectationResult held;
    held.limiter = QStringLiteral("gcra");
    held.expectation = {QStringLiteral("*"), QStringLiteral("p99_ms"), CompareOp::Less, 50.5};
    held.measured = 4.25;
    held.held = true;
    ExpectationResult missing;
    missing.limiter = QStringLiteral("a,\"b\"");
    missing.expectation = {missing.limiter, QStringLiteral("max_accepted_in_any_7ms"),
                           CompareOp::LessEqual, 3};
    missing.measured = std::numeric_limits<double>::quiet_NaN();
    run.expectations = {held, missing};
    return run;
}

// A real-clock run stopped early, with one limiter, no clients, no bursts, no expectations.
RunSnapshot stoppedRun() {
    RunSnapshot run;
    run.scenarioName = QStringLiteral("stopped");
    run.durationUs = 60'000'000;
    run.elapsedUs = 1'200'000;
    run.finished = true;
    run.stoppedEarly = true;
    run.finishedAtUs = 1'234'567;
    run.scheduled = 7;
    run.targetRate = 5;
    run.bucketTargetRate = {5};
    LimiterSnapshot l;
    l.spec.name = QStringLiteral("only");
    l.spec.rate = 5;
    l.spec.intervalMs = 1000;
    l.fired = 7;
    l.accepted = 7;
    l.bucketAccepted = {7};
    l.bucketRejected = {0};
    l.bucketErrors = {0};
    run.limiters = {l};
    return run;
}

void compare(const Percentiles& a, const Percentiles& b) {
    QCOMPARE(a.count, b.count);
    QCOMPARE(a.p50Ms, b.p50Ms);
    QCOMPARE(a.p90Ms, b.p90Ms);
    QCOMPARE(a.p99Ms, b.p99Ms);
    QCOMPARE(a.p999Ms, b.p999Ms);
    QCOMPARE(a.maxMs, b.maxMs);
    QCOMPARE(a.meanMs, b.meanMs);
}

void compare(const OutcomeTotals& a, const OutcomeTotals& b) {
    QCOMPARE(a.fired, b.fired);
    QCOMPARE(a.accepted, b.accepted);
    QCOMPARE(a.rejected, b.rejected);
    QCOMPARE(a.errors, b.errors);
    QCOMPARE(a.errorsOpen, b.errorsOpen);
    QCOMPARE(a.errorsClosed, b.errorsClosed);
    QCOMPARE(a.waitedMsTotal, b.waitedMsTotal);
}

void compare(const std::vector<BusiestInterval>& a, const std::vector<BusiestInterval>& b) {
    QCOMPARE(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].permits, b[i].permits);
        QCOMPARE(a[i].fromMs, b[i].fromMs);
        QCOMPARE(a[i].windowMs, b[i].windowMs);
        QCOMPARE(a[i].firstMs, b[i].firstMs);
        QCOMPARE(a[i].lastMs, b[i].lastMs);
    }
}

void compare(const LimiterSummary& a, const LimiterSummary& b) {
    QCOMPARE(a.name, b.name);
    QCOMPARE(a.type, b.type);
    QCOMPARE(a.onError, b.onError);
    QCOMPARE(a.spec.has_value(), b.spec.has_value());
    if (a.spec) {
        QVERIFY(*a.spec == *b.spec);
    }
    compare(a.counts, b.counts);
    QCOMPARE(a.attempts, b.attempts);
    QCOMPARE(a.errorsByCause, b.errorsByCause);
    QCOMPARE(a.accountingExact, b.accountingExact);
    compare(a.latency, b.latency);
    compare(a.waited, b.waited);
    QCOMPARE(a.fairness, b.fairness);
    QCOMPARE(a.clients.size(), b.clients.size());
    for (int i = 0; i < a.clients.size(); ++i) {
        const ClientSummary& x = a.clients[i];
        const ClientSummary& y = b.clients[i];
        QCOMPARE(x.client, y.client);
        QCOMPARE(x.group, y.group);
        compare(x.counts, y.counts);
        compare(x.admittedBurst, y.admittedBurst);
        QCOMPARE(x.counts.reference.compared, y.counts.reference.compared);
        QCOMPARE(x.counts.reference.disagreed, y.counts.reference.disagreed);
    }
    QCOMPARE(a.groups.size(), b.groups.size());
    for (int i = 0; i < a.groups.size(); ++i) {
        const GroupSummary& x = a.groups[i];
        const GroupSummary& y = b.groups[i];
        QCOMPARE(x.group, y.group);
        QCOMPARE(x.clients, y.clients);
        compare(x.counts, y.counts);
        QCOMPARE(x.fairness, y.fairness);
        compare(x.admittedBurst, y.admittedBurst);
        compare(x.admittedBurstRunClock, y.admittedBurstRunClock);
        QCOMPARE(x.bucketAccepted, y.bucketAccepted);
        QCOMPARE(x.bucketRejected, y.bucketRejected);
        QCOMPARE(x.counts.reference.compared, y.counts.reference.compared);
        QCOMPARE(x.counts.reference.disagreed, y.counts.reference.disagreed);
    }
    QCOMPARE(a.otherClients.clients, b.otherClients.clients);
    compare(a.otherClients.counts, b.otherClients.counts);
    QCOMPARE(a.otherClients.counts.waitedMsTotal, b.otherClients.counts.waitedMsTotal);
    compare(a.admittedBurst, b.admittedBurst);
    compare(a.admittedBurstRunClock, b.admittedBurstRunClock);
    QCOMPARE(a.buckets.accepted, b.buckets.accepted);
    QCOMPARE(a.buckets.rejected, b.buckets.rejected);
    QCOMPARE(a.buckets.errors, b.buckets.errors);
    QCOMPARE(a.buckets.errorsOpen, b.buckets.errorsOpen);
    QCOMPARE(a.buckets.errorsClosed, b.buckets.errorsClosed);
    QCOMPARE(a.hasReference, b.hasReference);
    QCOMPARE(a.counts.reference.compared, b.counts.reference.compared);
    QCOMPARE(a.counts.reference.disagreed, b.counts.reference.disagreed);
    QCOMPARE(a.bucketDisagreed, b.bucketDisagreed);
    QCOMPARE(a.otherClients.counts.reference.disagreed, b.otherClients.counts.reference.disagreed);
    QCOMPARE(a.redisCalls, b.redisCalls);
    QCOMPARE(a.gateways.size(), b.gateways.size());
    for (int g = 0; g < a.gateways.size(); ++g) {
        QCOMPARE(a.gateways[g].decisions, b.gateways[g].decisions);
        QCOMPARE(a.gateways[g].redisCalls, b.gateways[g].redisCalls);
        QCOMPARE(a.gateways[g].accepted, b.gateways[g].accepted);
    }
}

// Every field equal (a NaN measured figure equals a NaN).
void compare(const RunSummary& a, const RunSummary& b) {
    QCOMPARE(a.format, b.format);
    QCOMPARE(a.scenario, b.scenario);
    QCOMPARE(a.virtualClock, b.virtualClock);
    QCOMPARE(a.clockSpeed, b.clockSpeed);
    QCOMPARE(a.roundTripPerLimiter, b.roundTripPerLimiter);
    QCOMPARE(a.expectations.size(), b.expectations.size());
    for (int i = 0; i < a.expectations.size(); ++i) {
        const ExpectationResult& x = a.expectations[i];
        const ExpectationResult& y = b.expectations[i];
        QCOMPARE(x.limiter, y.limiter);
        QVERIFY(x.expectation == y.expectation);
        QCOMPARE(std::isnan(x.measured), std::isnan(y.measured));
        if (!std::isnan(x.measured)) {
            QCOMPARE(x.measured, y.measured);
        }
        QCOMPARE(x.held, y.held);
    }
    QCOMPARE(a.verdict, b.verdict);
    QCOMPARE(a.startEpochMs, b.startEpochMs);
    QCOMPARE(a.durationS, b.durationS);
    QCOMPARE(a.runS, b.runS);
    QCOMPARE(a.finished, b.finished);
    QCOMPARE(a.stoppedEarly, b.stoppedEarly);
    QCOMPARE(a.errorsByCause, b.errorsByCause);
    QCOMPARE(a.bucketMs, b.bucketMs);
    QCOMPARE(a.requests, b.requests);
    QCOMPARE(a.targetRate, b.targetRate);
    QCOMPARE(a.achievedRate, b.achievedRate);
    compare(a.scheduleLag, b.scheduleLag);
    QCOMPARE(a.limiters.size(), b.limiters.size());
    for (int i = 0; i < a.limiters.size(); ++i) {
        compare(a.limiters[i], b.limiters[i]);
        if (QTest::currentTestFailed()) {
            qWarning("limiter %d differs", i);
            return;
        }
    }
    QCOMPARE(a.disagreements.size(), b.disagreements.size());
    for (int i = 0; i < a.disagreements.size(); ++i) {
        QCOMPARE(a.disagreements[i].a, b.disagreements[i].a);
        QCOMPARE(a.disagreements[i].b, b.disagreements[i].b);
        QCOMPARE(a.disagreements[i].compared, b.disagreements[i].compared);
        QCOMPARE(a.disagreements[i].disagreed, b.disagreements[i].disagreed);
    }
    QCOMPARE(a.bucketTargetRate, b.bucketTargetRate);
}

void writeBytes(const QString& path, const QByteArray& content) {
    QFile file(path);
    QVERIFY2(file.open(QIODevice::WriteOnly) && file.write(content) == content.size(),
             qPrintable(path));
}

// The error readOutputFolder gives, or "" when it reads.
QString readError(const QString& dir, OutputParts parts = OutputParts::SummaryAndBuckets) {
    try {
        readOutputFolder(dir, parts);
        return {};
    } catch (const InputError& e) {
        return e.message();
    }
}

const QByteArray kSummary =
    R"({"bucket_ms": 100, "limiters": [{"name": "a", "fired": 3, "accepted": 2,
        "rejected": 1, "errors": 0}]})";
const QByteArray kHeader =
    "bucket,t_ms,limiter,accepted,rejected,errors,target_rate,errors_open,errors_closed\n";

}  // namespace

class TestOutputFormat : public QObject {
    Q_OBJECT

private slots:
    void roundTrip_data() {
        QTest::addColumn<int>("which");  // fullRun, stoppedRun, an empty run
        QTest::newRow("two limiters, clients, bursts, expectations, disagreements") << 0;
        QTest::newRow("stopped early, nothing but counts") << 1;
        QTest::newRow("no limiters") << 2;
    }
    void roundTrip() {
        QFETCH(int, which);
        const RunSnapshot run = which == 0 ? fullRun() : which == 1 ? stoppedRun() : RunSnapshot();
        const RunSummary written = summaryOf(run);
        for (const LimiterSummary& l : written.limiters) {
            QVERIFY(l.spec.has_value());  // compared as read back below
        }
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeOutputFiles(dir.path(), written);
        const RunSummary read = readOutputFolder(dir.path());
        compare(read, written);
        // The summary alone: the same figures, no buckets.
        RunSummary summaryOnly = readOutputFolder(dir.path(), OutputParts::Summary);
        QVERIFY(summaryOnly.bucketTargetRate.isEmpty());
        summaryOnly.bucketTargetRate = written.bucketTargetRate;
        for (int i = 0; i < summaryOnly.limiters.size(); ++i) {
            QVERIFY(summaryOnly.limiters[i].buckets.accepted.isEmpty());
            summaryOnly.limiters[i].buckets = written.limiters[i].buckets;
            QVERIFY(summaryOnly.limiters[i].bucketDisagreed.isEmpty());
            summaryOnly.limiters[i].bucketDisagreed = written.limiters[i].bucketDisagreed;
            for (int g = 0; g < summaryOnly.limiters[i].groups.size(); ++g) {
                GroupSummary& group = summaryOnly.limiters[i].groups[g];
                QVERIFY(group.bucketAccepted.isEmpty());
                group.bucketAccepted = written.limiters[i].groups[g].bucketAccepted;
                group.bucketRejected = written.limiters[i].groups[g].bucketRejected;
            }
        }
        compare(summaryOnly, written);
    }

    // A limiter's clients past the listed bound: the ones that sent the most requests are
    // listed (in the clients' order, ties to the earlier one), the rest added up in
    // other_clients, which reads back; the limiter's own counts stay exact. Failed before:
    // every client was written, 16 limiters x 10,000 clients made a 221 MB summary.json.
    void boundedClients_data() {
        QTest::addColumn<int>("listed");
        QTest::addColumn<QString>("clients");  // listed, in order, comma-separated
        QTest::addColumn<qint64>("others");
        QTest::newRow("all listed") << 5 << QStringLiteral("c0,c1,c2,c3,c4") << qint64(0);
        QTest::newRow("busiest three") << 3 << QStringLiteral("c1,c3,c4") << qint64(2);
        QTest::newRow("tie to the earlier") << 1 << QStringLiteral("c1") << qint64(4);
        QTest::newRow("none listed") << 0 << QString() << qint64(5);
    }
    void boundedClients() {
        QFETCH(int, listed);
        QFETCH(QString, clients);
        QFETCH(qint64, others);
        RunSnapshot run = fullRun();
        LimiterSnapshot& l = run.limiters[0];
        l.clients.clear();
        const qint64 fired[] = {2, 9, 1, 7, 9};  // c1 and c4 tie: c1 is the earlier
        qint64 total = 0;
        for (int i = 0; i < 5; ++i) {
            ClientTotals c;
            c.client = QStringLiteral("c%1").arg(i);
            c.accepted = fired[i] - 1;
            c.rejected = 1;
            c.fired = fired[i];
            c.waitedMsTotal = 10 * fired[i];
            l.clients.append(c);
            total += fired[i];
        }
        const RunSummary written = summaryOf(run, listed);
        const LimiterSummary& s = written.limiters[0];
        QStringList names;
        qint64 listedFired = 0;
        for (const ClientSummary& c : s.clients) {
            names << c.client;
            listedFired += c.counts.fired;
        }
        QCOMPARE(names.join(QLatin1Char(',')), clients);
        QCOMPARE(s.otherClients.clients, others);
        QCOMPARE(listedFired + s.otherClients.counts.fired, total);
        QCOMPARE(s.otherClients.counts.rejected, others);
        QCOMPARE(s.otherClients.counts.waitedMsTotal, 10 * (total - listedFired));
        QCOMPARE(s.counts.fired, l.fired);
        QTemporaryDir dir;
        writeOutputFiles(dir.path(), written);
        compare(readOutputFolder(dir.path()), written);
        const QJsonObject json =
            summaryToJson(written).value(QStringLiteral("limiters")).toArray()[0].toObject();
        QCOMPARE(json.contains(QStringLiteral("other_clients")), others > 0);
    }

    // A summary as ratelab wrote it before "format" (the same keys, no "format") is format 1
    // and reads every figure the same.
    void unversionedReadsTheSame() {
        const RunSummary written = summaryOf(fullRun());
        QTemporaryDir dir;
        writeOutputFiles(dir.path(), written);
        QJsonObject json = summaryToJson(written);
        json.remove(QStringLiteral("format"));
        writeBytes(dir.filePath(QStringLiteral("summary.json")), QJsonDocument(json).toJson());
        const RunSummary read = readOutputFolder(dir.path());
        QCOMPARE(read.format, output_format::kUnversionedFormat);
        RunSummary expected = written;
        expected.format = output_format::kUnversionedFormat;
        compare(read, expected);
    }

    // What summaryOf takes from the snapshot: the figures the old writer wrote.
    void summaryOfTheRun() {
        const RunSnapshot run = fullRun();
        const RunSummary s = summaryOf(run);
        QCOMPARE(s.format, output_format::kFormat);
        QCOMPARE(s.runS, 0.761234);
        QCOMPARE(s.achievedRate, 123 / 0.761234);
        // Both limiters have errors no expectation checks: incomplete, whatever the checks say.
        QCOMPARE(s.verdict, QStringLiteral("incomplete"));
        QVERIFY2(s.verdictReason.contains(
                     QStringLiteral("limiter \"gcra\": 3 of 117 decisions failed (NOPERM 2, "
                                    "unknown outcome 1), and no expectation checks its errors")),
                 qPrintable(s.verdictReason));
        QCOMPARE(s.expectations[0].expectation.limiter, QStringLiteral("gcra"));  // not "*"
        QCOMPARE(s.errorsByCause,
                 (QMap<QString, qint64>{{QStringLiteral("NOPERM"), 4},
                                        {errorCauseName(ErrorCause::UnknownOutcome), 2}}));
        QCOMPARE(s.limiters[1].type, QStringLiteral("gcra"));
        QCOMPARE(s.limiters[1].onError, QStringLiteral("closed"));
        QCOMPARE(s.limiters[0].latency.count, qint64(5));
        QCOMPARE(s.limiters[0].latency.maxMs, 70.0);
        QCOMPARE(s.disagreements.size(), 1);
        QCOMPARE(s.disagreements[0].b, QStringLiteral("gcra"));
        QCOMPARE(s.bucketTargetRate.size(), 3);
        RunSnapshot wait = run;
        wait.sameRequests = false;  // wait mode: the pairs do not compare
        QVERIFY(summaryOf(wait).disagreements.isEmpty());
        const QJsonObject json = summaryJson(run);
        QCOMPARE(json.value(QStringLiteral("format")).toInt(), output_format::kFormat);
    }

    // summary.json's "format": a summary without it is format 1 and reads; the current one
    // reads; a newer one, or one that is not a whole number from 1, is refused at $.format.
    void formatVersions_data() {
        QTest::addColumn<QByteArray>("format");  // the member's JSON, empty: none
        QTest::addColumn<int>("read");           // the format read, 0: refused
        QTest::addColumn<QString>("message");
        QTest::newRow("missing: format 1") << QByteArray() << 1 << QString();
        QTest::newRow("1") << QByteArray("1") << 1 << QString();
        QTest::newRow("current") << QByteArray::number(output_format::kFormat)
                                 << output_format::kFormat << QString();
        QTest::newRow("newer")
            << QByteArray::number(output_format::kFormat + 1) << 0
            << QStringLiteral(
                   "summary.json: $.format: format %1 is newer than this ratelab reads "
                   "(up to %2)")
                   .arg(output_format::kFormat + 1)
                   .arg(output_format::kFormat);
        QTest::newRow("0") << QByteArray("0") << 0
                           << QStringLiteral("$.format: expected a whole number from 1, got 0");
        QTest::newRow("fraction") << QByteArray("1.5") << 0
                                  << QStringLiteral("$.format: expected a whole number from 1");
        QTest::newRow("string") << QByteArray("\"2\"") << 0
                                << QStringLiteral(
                                       "$.format: expected a whole number from 1, got "
                                       "\"2\" (a string)");
    }
    void formatVersions() {
        QFETCH(QByteArray, format);
        QFETCH(int, read);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QByteArray summary = kSummary;
        if (!format.isEmpty()) {
            summary.replace("{\"bucket_ms\"", "{\"format\": " + format + ", \"bucket_ms\"");
        }
        writeBytes(dir.filePath(QStringLiteral("summary.json")), summary);
        writeBytes(dir.filePath(QStringLiteral("buckets.csv")), kHeader + "0,0,a,2,1,0,30,0,0\n");
        if (read > 0) {
            const RunSummary s = readOutputFolder(dir.path());
            QCOMPARE(s.format, read);
            QCOMPARE(s.limiters.size(), 1);
            QCOMPARE(s.limiters[0].counts.accepted, qint64(2));
            QCOMPARE(s.limiters[0].buckets.accepted, QVector<qint64>{2});
            QCOMPARE(s.bucketTargetRate, QVector<double>{30});
        } else {
            const QString error = readError(dir.path());
            QVERIFY2(error.contains(message), qPrintable(error));
            QVERIFY2(error.startsWith(dir.filePath(QStringLiteral("summary.json"))),
                     qPrintable(error));
        }
    }

    // A bad summary.json or buckets.csv names the file and the JSON path or the CSV line.
    void badFiles_data() {
        QTest::addColumn<QByteArray>("summary");  // empty: none
        QTest::addColumn<QByteArray>("buckets");  // empty: none
        QTest::addColumn<QString>("message");     // after the folder's path
        const QByteArray rows = kHeader + "0,0,a,2,1,0,30,0,0\n";
        const auto limiter = [](const QByteArray& members) {
            return "{\"limiters\": [{\"name\": \"a\", " + members + "}]}";
        };
        QTest::newRow("no summary.json") << QByteArray() << rows << "summary.json: missing";
        QTest::newRow("no buckets.csv") << kSummary << QByteArray() << "buckets.csv: missing";
        QTest::newRow("malformed JSON") << QByteArray("{\"limiters\": [") << rows
                                        << "summary.json: line 1, column 14: malformed JSON";
        QTest::newRow("an array") << QByteArray("[1]") << rows
                                  << "summary.json: $: expected a JSON object, got an array";
        QTest::newRow("no limiters")
            << QByteArray("{\"bucket_ms\": 100}") << rows << "summary.json: $.limiters: missing";
        QTest::newRow("limiters a number") << QByteArray("{\"limiters\": 3}") << rows
                                           << "summary.json: $.limiters: expected an array, got 3";
        QTest::newRow("a limiter a string")
            << QByteArray("{\"limiters\": [\"a\"]}") << rows
            << "summary.json: $.limiters[0]: expected an object, got \"a\" (a string)";
        QTest::newRow("a limiter without a name")
            << QByteArray("{\"limiters\": [{\"fired\": 1}]}") << rows
            << "summary.json: $.limiters[0].name: missing";
        QTest::newRow("a count as a string")
            << limiter("\"fired\": \"3\"") << rows
            << "summary.json: $.limiters[0].fired: expected a count (a whole number from 0), "
               "got \"3\" (a string)";
        QTest::newRow("a negative count")
            << limiter("\"errors\": -1") << rows << "summary.json: $.limiters[0].errors: expected";
        QTest::newRow("a fraction of a count")
            << limiter("\"clients\": [{\"client\": \"x\"}, {\"accepted\": 1.5}]") << rows
            << "summary.json: $.limiters[0].clients[1].accepted: expected a count";
        QTest::newRow("a group's count as a string")
            << limiter("\"groups\": [{\"group\": \"users\", \"rejected\": \"3\"}]") << rows
            << "summary.json: $.limiters[0].groups[0].rejected: expected a count";
        QTest::newRow("a gateway's admissions as a string")
            << limiter("\"redis_calls\": 1, \"gateways\": [{\"gateway\": 0, \"accepted\": \"2\"}]")
            << rows << "summary.json: $.limiters[0].gateways[0].accepted: expected a count";
        QTest::newRow("groups not an array")
            << limiter("\"groups\": {}") << rows
            << "summary.json: $.limiters[0].groups: expected an array, got an object";
        QTest::newRow("latency not an object")
            << limiter("\"latency\": [1]") << rows
            << "summary.json: $.limiters[0].latency: expected an object, got an array";
        QTest::newRow("a percentile as a string")
            << limiter("\"latency\": {\"p99_ms\": \"fast\"}") << rows
            << "summary.json: $.limiters[0].latency.p99_ms: expected a number";
        QTest::newRow("a burst window of 0")
            << limiter("\"admitted_burst\": [{\"window_ms\": 0, \"accepted\": 1}]") << rows
            << "summary.json: $.limiters[0].admitted_burst[0].window_ms: expected a whole number "
               "from 1";
        QTest::newRow("a run-clock burst not a list")
            << limiter("\"admitted_burst_run_clock\": {}") << rows
            << "summary.json: $.limiters[0].admitted_burst_run_clock: expected an array";
        QTest::newRow("a spec not an object")
            << limiter("\"spec\": \"token_bucket\"") << rows
            << "summary.json: $.limiters[0].spec: expected an object, got \"token_bucket\"";
        QTest::newRow("a cause's count")
            << QByteArray("{\"limiters\": [], \"errors_by_cause\": {\"unknown outcome\": true}}")
            << rows
            << "summary.json: $.errors_by_cause[\"unknown outcome\"]: expected a count (a whole "
               "number from 0), got true (a boolean)";
        QTest::newRow("an unknown operator")
            << QByteArray("{\"limiters\": [], \"expectations\": [{\"op\": \"=~\"}]}") << rows
            << "summary.json: $.expectations[0].op: expected <, <=, ==, >= or >, got \"=~\"";
        QTest::newRow("measured as a string")
            << QByteArray(
                   "{\"limiters\": [], \"expectations\": [{\"op\": \"<\", \"measured\": \"1\"}]}")
            << rows << "summary.json: $.expectations[0].measured: expected a number";
        QTest::newRow("an unknown clock")
            << QByteArray("{\"limiters\": [], \"clock\": \"fast\"}") << rows
            << "summary.json: $.clock: expected \"virtual\" or \"real\", got \"fast\"";
        QTest::newRow("finished as a string")
            << QByteArray("{\"limiters\": [], \"finished\": \"yes\"}") << rows
            << "summary.json: $.finished: expected true or false";
        QTest::newRow("bucket_ms 0") << QByteArray("{\"limiters\": [], \"bucket_ms\": 0}") << rows
                                     << "summary.json: $.bucket_ms: expected a whole number from 1";
        QTest::newRow("a pair of one")
            << QByteArray("{\"limiters\": [], \"disagreements\": [{\"limiters\": [\"a\"]}]}")
            << rows << "summary.json: $.disagreements[0].limiters: expected the pair's two";
        QTest::newRow("other columns")
            << kSummary << QByteArray("a,b\n1,2\n")
            << "buckets.csv: line 1: expected the columns bucket, limiter, accepted and rejected";
        QTest::newRow("a short row") << kSummary << rows + "1,100,a,2,1\n"
                                     << "buckets.csv: line 3: expected 9 comma-separated fields "
                                        "(as the header has), got 5";
        QTest::newRow("a long row") << kSummary << rows + "1,100,a,2,1,0,30,0,0,9\n"
                                    << "buckets.csv: line 3: expected 9 comma-separated fields";
        QTest::newRow("a count that is not one")
            << kSummary << kHeader + "0,0,a,x,1,0,30,0,0\n"
            << "buckets.csv: line 2: accepted: expected a count (a whole number from 0), got \"x\"";
        QTest::newRow("a negative count") << kSummary << kHeader + "0,0,a,1,1,0,30,-2,0\n"
                                          << "buckets.csv: line 2: errors_open: expected a count";
        QTest::newRow("a rate that is not one")
            << kSummary << kHeader + "0,0,a,1,1,0,fast,0,0\n"
            << "buckets.csv: line 2: target_rate: expected a rate (a number from 0), got \"fast\"";
        QTest::newRow("a bucket past the rows")
            << kSummary << kHeader + "99,0,a,1,1,0,30,0,0\n"
            << "buckets.csv: line 2: bucket 99 is past the file's";
        QTest::newRow("an unknown limiter")
            << kSummary << kHeader + "0,0,zz,1,1,0,30,0,0\n"
            << "buckets.csv: line 2: limiter \"zz\" is not in summary.json";
        QTest::newRow("an open quote") << kSummary << kHeader + "0,0,\"a,1,1,0,30,0,0\n"
                                       << "buckets.csv: line 2: a quote is not closed";
    }
    void badFiles() {
        QFETCH(QByteArray, summary);
        QFETCH(QByteArray, buckets);
        QFETCH(QString, message);
        QTemporaryDir dir;
        if (!summary.isEmpty()) {
            writeBytes(dir.filePath(QStringLiteral("summary.json")), summary);
        }
        if (!buckets.isEmpty()) {
            writeBytes(dir.filePath(QStringLiteral("buckets.csv")), buckets);
        }
        const QString error = readError(dir.path());
        QVERIFY2(error.startsWith(dir.path() + QLatin1Char('/') + message), qPrintable(error));
    }

    // An older buckets.csv (without target_rate, errors_open and errors_closed) and CRLF lines
    // read; missing columns read as 0; rows in any order, buckets without rows as 0.
    void olderBuckets() {
        QTemporaryDir dir;
        writeBytes(dir.filePath(QStringLiteral("summary.json")), kSummary);
        writeBytes(dir.filePath(QStringLiteral("buckets.csv")),
                   "bucket,t_ms,limiter,accepted,rejected,errors\r\n2,200,a,4,1,1\r\n"
                   "0,0,a,2,2,0\r\n");
        const RunSummary s = readOutputFolder(dir.path());
        QCOMPARE(s.limiters[0].buckets.accepted, (QVector<qint64>{2, 0, 4}));
        QCOMPARE(s.limiters[0].buckets.rejected, (QVector<qint64>{2, 0, 1}));
        QCOMPARE(s.limiters[0].buckets.errors, (QVector<qint64>{0, 0, 1}));
        QCOMPARE(s.limiters[0].buckets.errorsOpen, (QVector<qint64>{0, 0, 0}));
        QCOMPARE(s.bucketTargetRate, (QVector<double>{0, 0, 0}));
    }

    // The limiter's spec reads back as written; one this build cannot parse (a newer ratelab's
    // type or field) or a summary without one reads as none, and the rest of the summary reads.
    void specs_data() {
        QTest::addColumn<QByteArray>("spec");  // the member, empty: none
        QTest::addColumn<bool>("read");
        QTest::newRow("a token bucket")
            << QByteArray(R"("spec": {"type": "token_bucket", "name": "a", "rate": 5,
                                      "interval_ms": 1000})")
            << true;
        QTest::newRow("no spec (an older summary)") << QByteArray() << false;
        QTest::newRow("a field this build does not know")
            << QByteArray(R"("spec": {"type": "token_bucket", "name": "a", "rate": 5,
                                      "interval_ms": 1000, "lease_ms": 30})")
            << false;
        QTest::newRow("a type this build does not know")
            << QByteArray(R"("spec": {"type": "concurrency", "name": "a", "limit": 5})") << false;
    }
    void specs() {
        QFETCH(QByteArray, spec);
        QFETCH(bool, read);
        QTemporaryDir dir;
        writeBytes(dir.filePath(QStringLiteral("summary.json")),
                   R"({"limiters": [{"name": "a", "accepted": 2, )" +
                       (spec.isEmpty() ? QByteArray() : spec + ", ") + R"("fired": 2}]})");
        const RunSummary s = readOutputFolder(dir.path(), OutputParts::Summary);
        QCOMPARE(s.limiters[0].counts.accepted, qint64(2));
        QCOMPARE(s.limiters[0].spec.has_value(), read);
        if (read) {
            QCOMPARE(s.limiters[0].spec->rate, qint64(5));
            QCOMPARE(s.limiters[0].spec->intervalMs, qint64(1000));
        }
    }

    // Each file is bounded: one larger than output_limits::kMaxOutputFileBytes is refused from
    // its size, unread (a sparse file: no disk used).
    void oversizedFiles_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("summary.json") << QStringLiteral("summary.json");
        QTest::newRow("buckets.csv") << QStringLiteral("buckets.csv");
    }
    void oversizedFiles() {
        QFETCH(QString, file);
        QTemporaryDir dir;
        writeBytes(dir.filePath(QStringLiteral("summary.json")), kSummary);
        writeBytes(dir.filePath(QStringLiteral("buckets.csv")), kHeader);
        QFile big(dir.filePath(file));
        QVERIFY(big.resize(output_limits::kMaxOutputFileBytes + 1));
        const QString error = readError(dir.path());
        QVERIFY2(error.startsWith(dir.filePath(file) + QStringLiteral(": the file is larger than "
                                                                      "512 MiB")),
                 qPrintable(error));
    }

    // The writer replaces the files whole and leaves nothing else behind; a file it cannot
    // write is named, and the temporary file it wrote is gone.
    void writesEachFileWhole() {
        QTemporaryDir parent;
        const QString dir = parent.filePath(QStringLiteral("made/by/the/writer"));
        writeOutputFiles(dir, summaryOf(fullRun()),
                         {{QStringLiteral("report.html"), QByteArray("<html/>")}});
        writeOutputFiles(dir, summaryOf(stoppedRun()),
                         {{QStringLiteral("report.html"), QByteArray("<p/>")}});
        QCOMPARE(QDir(dir).entryList(QDir::Files | QDir::Hidden, QDir::Name),
                 (QStringList{QStringLiteral("buckets.csv"), QStringLiteral("report.html"),
                              QStringLiteral("summary.json")}));
        QCOMPARE(readOutputFolder(dir).scenario, QStringLiteral("stopped"));
        QFile html(QDir(dir).filePath(QStringLiteral("report.html")));
        QVERIFY(html.open(QIODevice::ReadOnly));
        QCOMPARE(html.readAll(), QByteArray("<p/>"));

        // buckets.csv is a folder: summary.json and report.html are written, buckets.csv
        // refused by name.
        QTemporaryDir blocked;
        QVERIFY(QDir(blocked.path()).mkdir(QStringLiteral("buckets.csv")));
        const FolderWrite result = writeOutputFiles(blocked.path(), summaryOf(fullRun()),
                                                    {{QStringLiteral("report.html"), "<p/>"}});
        QCOMPARE(result.written,
                 (QStringList{QStringLiteral("summary.json"), QStringLiteral("report.html")}));
        QCOMPARE(result.failures.size(), 1);
        QVERIFY2(
            result.failures.first().startsWith(blocked.filePath(QStringLiteral("buckets.csv")) +
                                               QStringLiteral(": cannot write: Is a directory")),
            qPrintable(result.failures.first()));
        QCOMPARE(QDir(blocked.path())
                     .entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name),
                 (QStringList{QStringLiteral("buckets.csv"), QStringLiteral("report.html"),
                              QStringLiteral("summary.json")}));
        QVERIFY(QFileInfo(blocked.filePath(QStringLiteral("buckets.csv"))).isDir());
    }
};

QTEST_GUILESS_MAIN(TestOutputFormat)
#include "tst_output_format.moc"
