// A scenario's cost known before its run (scenario/scenario_budget.h): the memory the run will
// hold, from the engine's own structures, and the peak rate of its traffic shape.

#include "scenario/scenario_budget.h"

#include <QLocale>
#include <QRegularExpression>
#include <QSet>
#include <QStringList>
#include <algorithm>
#include <cmath>

#include "csv_writer.h"
#include "input_error.h"
#include "input_limits.h"
#include "json_input.h"
#include "limiters/script_spec.h"
#include "scenario/summary_size.h"
#include "stats/run_snapshot.h"
#include "stats/run_stats.h"
#include "traffic/traffic_schedule.h"

namespace ratelab {
namespace {

using json_input::formatNumber;
using json_input::memberPath;

constexpr qint64 kKiB = 1024;
constexpr qint64 kMiB = kKiB * 1024;

// Snapshots alive at once: the newest one a reader holds while the runner builds the next
// (the command line's final snapshot and its progress line; the window's bridge and panels).
constexpr qint64 kSnapshotsHeld = 2;

// What the program holds whatever it runs (Qt, its plugins and fonts, the code, the report's
// painter): a run of one limiter and four clients peaks at about 35 MiB resident.
constexpr qint64 kProgramBytes = 40 * kMiB;
// Per limiter, the outputs' fixed part (the report's chart and tables); per listed client row
// of a limiter, its RunSummary row, summary.json object and text and report.html row.
constexpr qint64 kOutputBytesPerLimiter = 5 * kMiB / 2;
constexpr qint64 kOutputBytesPerRow = 5 * kKiB;
// malloc's bookkeeping and rounding of one small block.
constexpr qint64 kMallocOverhead = 16;
// The RunSummary copies alive while the outputs are written: the command's (its printed
// summary, expectations and JUnit) and the output folder's (summary.json, report.html).
constexpr qint64 kSummaryCopies = 2;

// The heap block of a QString's characters: Qt 6's header, then UTF-16 with a terminator,
// rounded up to malloc's 16-byte granularity.
qint64 stringHeapBytes(qint64 length) {
    const qint64 bytes = 16 + 2 * (length + 1);
    return (bytes + 15) / 16 * 16;
}

qint64 decimalDigits(qint64 value) {
    qint64 digits = 1;
    for (; value >= 10; value /= 10) {
        ++digits;
    }
    return digits;
}

QString grouped(qint64 value) {
    return QLocale(QLocale::English).toString(value);
}

QString plural(qint64 count, const QString& one, const QString& many) {
    return grouped(count) + QLatin1Char(' ') + (count == 1 ? one : many);
}

// Replay: the trace (16 bytes a row and its names) and the pacer's offsets (8 bytes a row).
qint64 traceBytes(const TrafficSpec& traffic) {
    return traffic.trace.allocatedBytes() +
           qint64(traffic.shape.replayOffsetsMs.capacity()) * qint64(sizeof(qint64));
}

// buckets.csv: a row per bucket and limiter; counts are at most the shape's peak over a
// bucket, the target rate is written with 10 significant digits; per traffic group two more
// counts.
qint64 csvBytes(const Scenario& scenario, qint64 buckets) {
    const double perBucket = schedulePeakRate(scenario.traffic) * double(scenario.bucketMs) / 1000;
    const qint64 countDigits = decimalDigits(qint64(std::ceil(std::min(perBucket, 1e15))));
    const qint64 rateDigits =
        QByteArray::number(schedulePeakRate(scenario.traffic), 'g', 10).size() + 1;
    const qint64 groups = scenario.traffic.groups.size();
    const qint64 fixed = decimalDigits(buckets - 1) +
                         decimalDigits((buckets - 1) * scenario.bucketMs) +
                         (5 + 2 * groups) * countDigits + rateDigits +
                         (8 + 2 * groups) /* commas */ + 1 /* newline */;
    qint64 perBucketRows = 0;
    for (const LimiterSpec& spec : scenario.limiters) {
        perBucketRows += fixed + csvField(spec.name).size();
    }
    return buckets * perBucketRows;
}

// Traffic groups: each group's clients, generated ("<group>-<i>") or its trace's, and the
// replay groups' traces.
void addGroupClients(const TrafficSpec& traffic, MemoryEstimate* e) {
    for (const ClientGroup& group : traffic.groups) {
        if (group.shape.type == ShapeSpec::Type::Replay) {
            // The trace (16 bytes a row and its names), the pacer's offsets (8 bytes a row) and
            // the factory's map of its clients.
            const qint64 distinct = group.trace.clients().size();
            e->trace += group.trace.allocatedBytes() +
                        qint64(group.shape.replayOffsetsMs.capacity()) * qint64(sizeof(qint64)) +
                        distinct * qint64(sizeof(int));
            e->traceRows += group.trace.size();
            e->clients += distinct;
            e->clientTables += distinct * qint64(sizeof(QString));
            continue;
        }
        e->clients += group.clients;
        for (qint64 i = 0; i < group.clients; ++i) {
            e->clientTables +=
                qint64(sizeof(QString)) + stringHeapBytes(group.name.size() + 1 + decimalDigits(i));
        }
    }
}

// Per limiter, the admitted bursts of every client (the limiter's clock) and of every group
// (both clocks) for each of its windows, held by the runner and by each snapshot; per group its
// totals in each snapshot.
qint64 burstFigureBytes(const Scenario& scenario, qint64 clients) {
    constexpr qint64 kCopies = 1 + kSnapshotsHeld;
    const qint64 groups = scenario.traffic.groups.size();
    qint64 bytes = 0;
    for (int l = 0; l < scenario.limiters.size(); ++l) {
        const qint64 windows = qint64(burstWindowsFor(scenario, l).size());
        bytes += kCopies * (clients + 2 * groups) * windows * qint64(sizeof(BusiestInterval)) +
                 kCopies * (clients + 2 * groups) * qint64(sizeof(std::vector<BusiestInterval>)) +
                 kSnapshotsHeld * groups * qint64(sizeof(GroupTotals) + sizeof(double));
    }
    return bytes;
}

// The field whose value drives the largest part, and what to do about it.
struct Culprit {
    QString path;
    QString advice;
};

Culprit culpritOf(const MemoryEstimate& e) {
    const qint64 byBuckets = e.bucketCounters + e.snapshots + e.csv;
    const qint64 byClients = e.otherCounters + e.clientTables + e.burstFigures + e.summaryJson;
    if (e.acceptedLog > e.trace && e.acceptedLog > byBuckets && e.acceptedLog > byClients) {
        return {QStringLiteral("$.traffic.duration_s"),
                QStringLiteral("shorten the run or lower its rate")};
    }
    if (e.trace >= byBuckets && e.trace >= byClients) {
        return {QStringLiteral("$.traffic.shape.trace"), QStringLiteral("replay a shorter trace")};
    }
    if (byClients > byBuckets) {
        return {QStringLiteral("$.traffic.clients"),
                QStringLiteral("use fewer clients, threads or limiters")};
    }
    return {QStringLiteral("$.bucket_ms"), QStringLiteral("raise bucket_ms or use fewer threads")};
}

}  // namespace

MemoryEstimate estimateMemory(const Scenario& scenario) {
    const TrafficSpec& traffic = scenario.traffic;
    MemoryEstimate e;
    // As ScenarioRunner sizes its RunStats.
    e.workers = traffic.clock.isVirtual ? 1 : traffic.threads;
    e.limiters = scenario.limiters.size();
    const qint64 durationUs = std::llround(traffic.durationS * 1e6);
    const qint64 bucketUs = scenario.bucketMs * 1000;
    e.buckets = std::max<qint64>(1, (durationUs + bucketUs - 1) / bucketUs);

    if (!traffic.groups.isEmpty()) {
        addGroupClients(traffic, &e);
    } else if (traffic.shape.type == ShapeSpec::Type::Replay) {
        e.traceRows = traffic.trace.size();
        e.clients = traffic.trace.clients().size();
        e.trace = traceBytes(traffic);
        e.clientTables = e.clients * qint64(sizeof(QString));  // RequestFactory's names
    } else {
        e.clients = traffic.clients;
        for (qint64 i = 0; i < e.clients; ++i) {  // "c0" .. "c<clients-1>"
            e.clientTables += qint64(sizeof(QString)) + stringHeapBytes(1 + decimalDigits(i));
        }
        // The scenario's weights and the factory's running sums.
        e.clientTables += 2 * qint64(traffic.clientWeights.size()) * qint64(sizeof(double));
    }

    constexpr qint64 kCounter = sizeof(std::atomic<long long>);
    // Per limiter five series per bucket, two more per traffic group, and the extra ones
    // (releases and leaks, each gateway's admissions).
    const qint64 groups = traffic.groups.size();
    const ExtraBucketSeries extra = extraBucketSeries(traffic);
    const qint64 series = LimiterCounters::kBucketSeries +
                          LimiterCounters::kGroupBucketSeries * groups + extra.count();
    e.bucketCounters = e.workers * e.limiters * series * e.buckets * kCounter;
    // A script limiter with a reference counts its disagreements per bucket and client too.
    qint64 compared = 0;
    for (const LimiterSpec& spec : scenario.limiters) {
        compared += referenceSpecOf(spec) ? 1 : 0;
    }
    e.otherCounters = e.workers * WorkerStats::allocatedBytes(e.limiters, e.buckets, e.clients,
                                                              groups, compared, extra) -
                      e.bucketCounters;

    // RunStats::fill and ScenarioRunner::snapshot: per limiter five per-bucket series, the
    // client totals (each with its name) and a fairness vector; per run the target rate of every
    // bucket. (A finished run's busiest intervals per client are in burstFigures.)
    e.snapshots = qint64(sizeof(RunSnapshot)) + e.buckets * qint64(sizeof(double));
    for (int i = 0; i < scenario.limiters.size(); ++i) {
        const qint64 perClientBytes = qint64(sizeof(ClientTotals) + sizeof(double)) +
                                      stringHeapBytes(1 + decimalDigits(e.clients));
        e.snapshots += qint64(sizeof(LimiterSnapshot)) +
                       series * e.buckets * qint64(sizeof(qint64)) + e.clients * perClientBytes;
    }
    e.snapshots *= kSnapshotsHeld;
    // The outputs, built in memory before they are written: summary.json's and report.html's
    // rows of the listed clients (as RunSummary rows, JSON objects and text), and per limiter
    // the report's chart and tables, and the summary's copy of the per-bucket series (five
    // per limiter, two per group, and the target rate). Measured: about 5 KiB a listed row,
    // 2.5 MiB a limiter.
    e.listedClients = std::min<qint64>(e.clients, output_limits::kMaxListedClients);
    e.outputs = e.limiters * (kOutputBytesPerLimiter + e.listedClients * kOutputBytesPerRow +
                              series * e.buckets * qint64(sizeof(qint64))) +
                e.buckets * qint64(sizeof(double));
    e.program = kProgramBytes;
    e.csv = csvBytes(scenario, e.buckets);
    // Each limiter accepts each request at most once: one AcceptedRecord per accepted request
    // and limiter at most, plus, while the finished run computes one limiter's busiest
    // intervals, its merged records and two copies of their times (stats/accepted_log.cpp).
    e.requests = qint64(std::ceil(std::min(scheduleExpectedSends(traffic, durationUs), 1e15)));
    e.acceptedLog = e.requests * (e.limiters + 3) * qint64(sizeof(AcceptedRecord));
    e.burstFigures = burstFigureBytes(scenario, e.clients);
    const SummarySize summary = estimateSummarySize(scenario);
    e.summaryFigures = summary.figures;
    e.summaryText = summary.textBytes;
    // Its tree, its text grown to at most twice its length, and the figures of its rows in the
    // two summaries.
    e.summaryJson =
        summary.treeBytes + 2 * summary.textBytes +
        kSummaryCopies *
            (summary.figures * qint64(sizeof(BusiestInterval)) +
             summary.rows * (qint64(sizeof(std::vector<BusiestInterval>)) + kMallocOverhead));
    return e;
}

ExtraBucketSeries extraBucketSeries(const TrafficSpec& traffic) {
    ExtraBucketSeries extra;
    extra.leases = traffic.hold.type != HoldSpec::Type::None;
    extra.gateways = traffic.gateways.count > 1 ? traffic.gateways.count : 0;
    return extra;
}

TraceBudget traceBudget(qint64 limiters, qint64 maxMemoryBytes) {
    TraceBudget budget;
    budget.maxBytes = maxMemoryBytes;
    budget.bytesPerRowBeside =
        qint64(sizeof(qint64)) + (limiters + 3) * qint64(sizeof(AcceptedRecord));
    budget.besideWhat = QStringLiteral("the run's schedule and accepted decisions");
    budget.limitName = QStringLiteral("--max-memory");
    return budget;
}

void checkMemoryBudget(const Scenario& scenario, qint64 limitBytes) {
    const MemoryEstimate e = estimateMemory(scenario);
    if (e.total() <= limitBytes) {
        return;
    }
    const bool isVirtual = scenario.traffic.clock.isVirtual;
    QStringList parts;
    parts << QStringLiteral("%1 of counters (%2 × %3 × %4 × %5 counters × %6 bytes)")
                 .arg(formatBytes(e.bucketCounters),
                      isVirtual
                          ? QStringLiteral("1 worker (virtual clock)")
                          : plural(e.workers, QStringLiteral("thread"), QStringLiteral("threads")),
                      plural(e.limiters, QStringLiteral("limiter"), QStringLiteral("limiters")),
                      plural(e.buckets, QStringLiteral("bucket"), QStringLiteral("buckets")))
                 .arg(LimiterCounters::kBucketSeries)
                 .arg(sizeof(std::atomic<long long>));
    const auto add = [&](qint64 bytes, const QString& what) {
        if (bytes >= kMiB) {
            parts << formatBytes(bytes) + QStringLiteral(" of ") + what;
        }
    };
    add(e.otherCounters,
        QStringLiteral("per-client counters and histograms (%1)")
            .arg(plural(e.clients, QStringLiteral("client"), QStringLiteral("clients"))));
    add(e.snapshots, QStringLiteral("run snapshots"));
    add(e.outputs,
        QStringLiteral("outputs (%1 of %2; the summary's per-bucket series; report)")
            .arg(plural(e.listedClients, QStringLiteral("listed client row"),
                        QStringLiteral("listed client rows")),
                 plural(e.limiters, QStringLiteral("limiter"), QStringLiteral("limiters"))));
    add(e.program, QStringLiteral("the program itself"));
    add(e.csv, QStringLiteral("buckets.csv text"));
    add(e.clientTables, QStringLiteral("client tables"));
    add(e.acceptedLog,
        QStringLiteral("accepted decisions kept for the admitted burst (%1 × %2)")
            .arg(plural(e.requests, QStringLiteral("request"), QStringLiteral("requests")),
                 plural(e.limiters, QStringLiteral("limiter"), QStringLiteral("limiters"))));
    add(e.trace, QStringLiteral("trace rows (%1)")
                     .arg(plural(e.traceRows, QStringLiteral("row"), QStringLiteral("rows"))));
    add(e.burstFigures, QStringLiteral("admitted bursts per client and group"));
    add(e.summaryJson, QStringLiteral("summary.json in memory (%1 admitted-burst figures)")
                           .arg(QLocale(QLocale::English).toString(e.summaryFigures)));
    Culprit culprit = culpritOf(e);
    if (!scenario.traffic.groups.isEmpty() &&
        culprit.path.startsWith(QLatin1String("$.traffic.")) &&
        culprit.path != QLatin1String("$.traffic.duration_s")) {
        culprit.path = QStringLiteral("$.traffic.groups");  // their clients and traces
    }
    throw InputError(culprit.path,
                     QStringLiteral("this scenario needs about %1 of memory: %2; more than the %3 "
                                    "limit; %4, or raise the limit (--max-memory)")
                         .arg(formatBytes(e.total()), parts.join(QStringLiteral(", ")),
                              formatBytes(limitBytes), culprit.advice));
}

void checkShapeRate(const TrafficSpec& traffic, const QString& shapePath) {
    const ShapeSpec& shape = traffic.shape;
    const double peak = peakRate(shape);
    if (peak <= scenario_limits::kMaxRate) {
        return;
    }
    const QString ceiling = QStringLiteral("above the ceiling of %1 requests/s")
                                .arg(formatNumber(scenario_limits::kMaxRate));
    switch (shape.type) {
        case ShapeSpec::Type::Burst:
            throw InputError(memberPath(shapePath, QStringLiteral("burst")),
                             QStringLiteral("bursts of %1 requests every %2 s on top of %3 "
                                            "requests/s peak at %4 requests/s, %5; send smaller "
                                            "bursts or less often")
                                 .arg(shape.burst)
                                 .arg(formatNumber(shape.everyS), formatNumber(shape.rate),
                                      formatNumber(peak), ceiling));
        case ShapeSpec::Type::Sine:
            throw InputError(memberPath(shapePath, QStringLiteral("amplitude")),
                             QStringLiteral("mean %1 + amplitude %2 peaks at %3 requests/s, %4")
                                 .arg(formatNumber(shape.mean), formatNumber(shape.amplitude),
                                      formatNumber(peak), ceiling));
        case ShapeSpec::Type::Replay: {
            qint64 startMs = 0;
            const qint64 busiest = busiestSecond(shape.replayOffsetsMs, &startMs);
            const qint64 firstMs = traffic.trace.isEmpty() ? 0 : traffic.trace.first().tMs;
            throw InputError(memberPath(shapePath, QStringLiteral("trace")),
                             QStringLiteral("the trace sends %1 requests within one second (t_ms "
                                            "%2 to %3), %4")
                                 .arg(busiest)
                                 .arg(firstMs + startMs)
                                 .arg(firstMs + startMs + 999)
                                 .arg(ceiling));
        }
        default:
            throw InputError(
                shapePath,
                QStringLiteral("peaks at %1 requests/s, %2").arg(formatNumber(peak), ceiling));
    }
}

}  // namespace ratelab
