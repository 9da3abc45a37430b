#include "scenario/run_report.h"

#include <QJsonArray>
#include <QTextStream>

#include "csv_writer.h"
#include "scenario/regression_report.h"

namespace ratelab {
namespace {

constexpr int kClientsPrinted = 8;

double ms(std::int64_t us) {
    return double(us) / 1000.0;
}

QJsonObject percentiles(const LatencyHistogram::Snapshot& h) {
    return QJsonObject{{QStringLiteral("count"), double(h.total)},
                       {QStringLiteral("p50_ms"), ms(h.percentile(50))},
                       {QStringLiteral("p90_ms"), ms(h.percentile(90))},
                       {QStringLiteral("p99_ms"), ms(h.percentile(99))},
                       {QStringLiteral("p999_ms"), ms(h.percentile(99.9))},
                       {QStringLiteral("max_ms"), ms(h.max)},
                       {QStringLiteral("mean_ms"), h.mean() / 1000.0}};
}

qint64 runLengthUs(const RunSnapshot& run) {
    if (run.finished && run.stoppedEarly) {
        return run.finishedAtUs;  // what it really ran
    }
    return run.finished ? std::max(run.finishedAtUs, run.durationUs) : run.elapsedUs;
}

QJsonObject causesJson(const QVector<ErrorCauseCount>& causes) {
    QJsonObject out;
    for (const ErrorCauseCount& c : causes) {
        out.insert(errorCauseName(c.cause), double(c.count));
    }
    return out;
}

// The pairs whose decisions compare: try mode, two limiters or more.
bool comparesPairs(const RunSnapshot& run) {
    return run.sameRequests && !run.disagreements.isEmpty();
}

// Empty unless the limiters decided the same requests.
QJsonArray disagreementsJson(const RunSnapshot& run) {
    QJsonArray pairs;
    if (!comparesPairs(run)) {
        return pairs;
    }
    for (const LimiterDisagreement& d : run.disagreements) {
        pairs.append(
            QJsonObject{{QStringLiteral("limiters"),
                         QJsonArray{run.limiters[d.a].spec.name, run.limiters[d.b].spec.name}},
                        {QStringLiteral("compared"), double(d.compared)},
                        {QStringLiteral("disagreed"), double(d.disagreed)}});
    }
    return pairs;
}

}  // namespace

double achievedRate(const RunSnapshot& run) {
    const qint64 us = runLengthUs(run);
    return us > 0 ? double(run.scheduled) / (double(us) / 1e6) : 0;
}

QJsonObject summaryJson(const RunSnapshot& run) {
    QJsonArray limiters;
    for (const LimiterSnapshot& l : run.limiters) {
        QJsonArray clients;
        for (const ClientTotals& c : l.clients) {
            QJsonObject client{{QStringLiteral("client"), c.client},
                               {QStringLiteral("fired"), double(c.fired)},
                               {QStringLiteral("accepted"), double(c.accepted)},
                               {QStringLiteral("rejected"), double(c.rejected)},
                               {QStringLiteral("errors"), double(c.errors)},
                               {QStringLiteral("errors_open"), double(c.errorsOpen)},
                               {QStringLiteral("errors_closed"), double(c.errorsClosed)},
                               {QStringLiteral("waited_ms_total"), double(c.waitedMsTotal)}};
            if (!c.admittedBurst.empty()) {
                insertAdmittedBurst(client, c.admittedBurst);
            }
            clients.append(client);
        }
        QJsonObject limiter{
            {QStringLiteral("name"), l.spec.name},
            {QStringLiteral("type"), limiterTypeName(l.spec.type)},
            {QStringLiteral("on_error"), failurePolicyName(l.spec.onError)},
            {QStringLiteral("fired"), double(l.fired)},
            {QStringLiteral("accepted"), double(l.accepted)},
            {QStringLiteral("rejected"), double(l.rejected)},
            {QStringLiteral("errors"), double(l.errors)},
            {QStringLiteral("errors_open"), double(l.errorsOpen)},
            {QStringLiteral("errors_closed"), double(l.errorsClosed)},
            {QStringLiteral("attempts"), double(l.attempts)},
            {QStringLiteral("errors_by_cause"), causesJson(nonZeroCauses(l.errorCauses))},
            {QStringLiteral("accounting_exact"), l.fired == l.accepted + l.rejected + l.errors},
            {QStringLiteral("latency"), percentiles(l.latency)},
            {QStringLiteral("waited"), percentiles(l.waited)},
            {QStringLiteral("fairness_jain"), l.fairness},
            {QStringLiteral("clients"), clients}};
        insertAdmittedBurst(limiter, l.admittedBurst);
        insertAdmittedBurst(limiter, l.admittedBurstRunClock, BurstClock::Run);
        limiters.append(limiter);
    }
    return QJsonObject{{QStringLiteral("scenario"), run.scenarioName},
                       {QStringLiteral("clock"),
                        run.virtualClock ? QStringLiteral("virtual") : QStringLiteral("real")},
                       {QStringLiteral("clock_speed"), run.clockSpeed},
                       {QStringLiteral("expectations"), expectationsJson(run.expectations)},
                       {QStringLiteral("verdict"), expectationVerdict(run.expectations)},
                       {QStringLiteral("start_epoch_ms"), double(run.startEpochMs)},
                       {QStringLiteral("duration_s"), double(run.durationUs) / 1e6},
                       {QStringLiteral("run_s"), double(runLengthUs(run)) / 1e6},
                       {QStringLiteral("finished"), run.finished && !run.stoppedEarly},
                       {QStringLiteral("stopped_early"), run.stoppedEarly},
                       {QStringLiteral("errors_by_cause"), causesJson(runErrorCauses(run))},
                       {QStringLiteral("bucket_ms"), double(run.bucketMs)},
                       {QStringLiteral("requests"), double(run.scheduled)},
                       {QStringLiteral("target_rate"), run.targetRate},
                       {QStringLiteral("achieved_rate"), achievedRate(run)},
                       {QStringLiteral("schedule_lag"), percentiles(run.lag)},
                       {QStringLiteral("limiters"), limiters},
                       {QStringLiteral("disagreements"), disagreementsJson(run)}};
}

QByteArray bucketsCsv(const RunSnapshot& run) {
    // errors_open and errors_closed (parts of errors) come last: older readers keep their columns.
    // The limiter name is the one free-text field: RFC 4180 quoted when it needs to be.
    QByteArray out(
        "bucket,t_ms,limiter,accepted,rejected,errors,target_rate,errors_open,errors_closed\n");
    const int buckets = run.limiters.isEmpty() ? 0 : run.limiters.front().bucketAccepted.size();
    for (int b = 0; b < buckets; ++b) {
        for (const LimiterSnapshot& l : run.limiters) {
            out += QByteArray::number(b) + ',' + QByteArray::number(qint64(b) * run.bucketMs) +
                   ',' + csvField(l.spec.name) + ',' + QByteArray::number(l.bucketAccepted[b]) +
                   ',' + QByteArray::number(l.bucketRejected[b]) + ',' +
                   QByteArray::number(l.bucketErrors[b]) + ',' +
                   QByteArray::number(run.bucketTargetRate.value(b), 'g', 10) + ',' +
                   QByteArray::number(l.bucketErrorsOpen.value(b)) + ',' +
                   QByteArray::number(l.bucketErrorsClosed.value(b)) + '\n';
        }
    }
    return out;
}

QString progressLine(const RunSnapshot& run) {
    qint64 accepted = 0;
    qint64 rejected = 0;
    qint64 errors = 0;
    for (const LimiterSnapshot& l : run.limiters) {
        accepted += l.accepted;
        rejected += l.rejected;
        errors += l.errors;
    }
    return QStringLiteral("%1/%2 s  %3 req/s  accepted %4  rejected %5  errors %6")
        .arg(double(run.elapsedUs) / 1e6, 0, 'f', 1)
        .arg(double(run.durationUs) / 1e6, 0, 'f', 1)
        .arg(achievedRate(run), 0, 'f', 0)
        .arg(accepted)
        .arg(rejected)
        .arg(errors);
}

QVector<ErrorCauseCount> runErrorCauses(const RunSnapshot& run) {
    qint64 total[kErrorCauses] = {};
    for (const LimiterSnapshot& l : run.limiters) {
        for (int c = 0; c < kErrorCauses; ++c) {
            total[c] += l.errorCauses[c];
        }
    }
    return nonZeroCauses(total);
}

QString summaryText(const RunSnapshot& run) {
    QString text;
    QTextStream out(&text);
    out << "scenario: " << run.scenarioName << "\n";
    if (run.stoppedEarly) {
        out << QStringLiteral(
                   "stopped early: after %1 s of %2 s (the counts cover what was sent)\n")
                   .arg(double(runLengthUs(run)) / 1e6, 0, 'f', 3)
                   .arg(double(run.durationUs) / 1e6, 0, 'f', 3);
    }
    out << QStringLiteral("requests: %1 in %2 s (target %3 req/s, achieved %4 req/s)\n")
               .arg(run.scheduled)
               .arg(double(runLengthUs(run)) / 1e6, 0, 'f', 3)
               .arg(run.targetRate, 0, 'f', 1)
               .arg(achievedRate(run), 0, 'f', 1);
    out << QStringLiteral("schedule lag: p50 %1 ms  p99 %2 ms  max %3 ms\n")
               .arg(ms(run.lag.percentile(50)), 0, 'f', 3)
               .arg(ms(run.lag.percentile(99)), 0, 'f', 3)
               .arg(ms(run.lag.max), 0, 'f', 3);
    for (const LimiterSnapshot& l : run.limiters) {
        out << QStringLiteral("%1 (%2): fired %3 = accepted %4 + rejected %5 + errors %6%7\n")
                   .arg(l.spec.name, limiterTypeName(l.spec.type))
                   .arg(l.fired)
                   .arg(l.accepted)
                   .arg(l.rejected)
                   .arg(l.errors)
                   .arg(l.fired == l.accepted + l.rejected + l.errors
                            ? QString()
                            : QStringLiteral(" (MISMATCH)"));
        if (l.errors > 0) {
            out << QStringLiteral("  errors by cause: %1\n")
                       .arg(errorCausesText(nonZeroCauses(l.errorCauses)));
        }
        if (l.spec.onError != FailurePolicy::Error || l.errorsOpen > 0 || l.errorsClosed > 0) {
            out << QStringLiteral("  on_error %1: of the errors, %2 let through, %3 refused\n")
                       .arg(failurePolicyName(l.spec.onError))
                       .arg(l.errorsOpen)
                       .arg(l.errorsClosed);
        }
        out << QStringLiteral("  latency p50 %1 ms  p99 %2 ms  p99.9 %3 ms  fairness %4\n")
                   .arg(ms(l.latency.percentile(50)), 0, 'f', 3)
                   .arg(ms(l.latency.percentile(99)), 0, 'f', 3)
                   .arg(ms(l.latency.percentile(99.9)), 0, 'f', 3)
                   .arg(l.fairness, 0, 'f', 3);
        if (!l.admittedBurst.empty()) {
            out << QStringLiteral("  admitted burst, limiter's time: %1\n")
                       .arg(admittedBurstLine(l.admittedBurst));
        }
        if (!l.admittedBurstRunClock.empty()) {
            out << QStringLiteral("  admitted burst, run's clock:    %1\n")
                       .arg(admittedBurstLine(l.admittedBurstRunClock));
        }
        // Per client only for a few clients: summary.json has every one.
        if (l.clients.size() <= kClientsPrinted) {
            for (const ClientTotals& c : l.clients) {
                if (!c.admittedBurst.empty()) {
                    out << QStringLiteral("    %1: %2\n")
                               .arg(c.client, admittedBurstLine(c.admittedBurst));
                }
            }
        }
    }
    if (comparesPairs(run)) {
        out << "disagreements (same requests; accepted by one, rejected by the other):\n";
        for (const LimiterDisagreement& d : run.disagreements) {
            out << QStringLiteral("  %1 vs %2: %3 of %4\n")
                       .arg(run.limiters[d.a].spec.name, run.limiters[d.b].spec.name)
                       .arg(d.disagreed)
                       .arg(d.compared);
        }
    }
    return text;
}

}  // namespace ratelab
