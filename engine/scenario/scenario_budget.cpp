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
#include "json_input.h"
#include "stats/run_snapshot.h"
#include "stats/run_stats.h"
#include "traffic/traffic_schedule.h"

namespace ratelab {
namespace {

using json_input::formatNumber;
using json_input::memberPath;

constexpr qint64 kKiB = 1024;
constexpr qint64 kMiB = kKiB * 1024;
constexpr qint64 kGiB = kMiB * 1024;
constexpr qint64 kTiB = kGiB * 1024;
constexpr qint64 kPiB = kTiB * 1024;

// Snapshots alive at once: the newest one a reader holds while the runner builds the next
// (the command line's final snapshot and its progress line; the window's bridge and panels).
constexpr qint64 kSnapshotsHeld = 2;

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

// Replay: the trace's rows, their offsets and the factory's row -> client table, plus each
// distinct block of client characters (rows share one per name; see parseTrace).
qint64 traceBytes(const TrafficSpec& traffic, qint64* distinctClients) {
    QSet<const QChar*> blocks;
    QSet<QString> names;
    qint64 stringBytes = 0;
    for (const TraceRow& row : traffic.trace) {
        if (!row.client.isNull() && !blocks.contains(row.client.constData())) {
            blocks.insert(row.client.constData());
            stringBytes += stringHeapBytes(row.client.size());
            names.insert(row.client);
        }
    }
    *distinctClients = names.size();
    const qint64 rows = traffic.trace.size();
    return qint64(traffic.trace.capacity()) * qint64(sizeof(TraceRow)) + stringBytes +
           qint64(traffic.shape.replayOffsetsMs.capacity()) * qint64(sizeof(qint64)) +
           rows * qint64(sizeof(int));
}

// buckets.csv: a row per bucket and limiter; counts are at most the shape's peak over a
// bucket, the target rate is written with 10 significant digits.
qint64 csvBytes(const Scenario& scenario, qint64 buckets) {
    const double perBucket = schedulePeakRate(scenario.traffic) * double(scenario.bucketMs) / 1000;
    const qint64 countDigits = decimalDigits(qint64(std::ceil(std::min(perBucket, 1e15))));
    const qint64 rateDigits =
        QByteArray::number(schedulePeakRate(scenario.traffic), 'g', 10).size() + 1;
    const qint64 fixed = decimalDigits(buckets - 1) +
                         decimalDigits((buckets - 1) * scenario.bucketMs) + 5 * countDigits +
                         rateDigits + 8 /* commas */ + 1 /* newline */;
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
            TrafficSpec alone;
            alone.shape = group.shape;
            alone.trace = group.trace;
            qint64 distinct = 0;
            e->trace += traceBytes(alone, &distinct);
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
    const qint64 byClients = e.otherCounters + e.clientTables + e.burstFigures;
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
        e.trace = traceBytes(traffic, &e.clients);
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
    e.bucketCounters =
        e.workers * e.limiters * LimiterCounters::kBucketSeries * e.buckets * kCounter;
    e.otherCounters = e.workers * WorkerStats::allocatedBytes(e.limiters, e.buckets, e.clients) -
                      e.bucketCounters;

    // RunStats::fill and ScenarioRunner::snapshot: per limiter five per-bucket series, the
    // client totals and a fairness vector; per run the target rate of every bucket.
    const qint64 perLimiter = qint64(sizeof(LimiterSnapshot)) +
                              LimiterCounters::kBucketSeries * e.buckets * qint64(sizeof(qint64)) +
                              e.clients * qint64(sizeof(ClientTotals) + sizeof(double));
    e.snapshots = kSnapshotsHeld * (qint64(sizeof(RunSnapshot)) +
                                    e.buckets * qint64(sizeof(double)) + e.limiters * perLimiter);
    e.csv = csvBytes(scenario, e.buckets);
    // Each limiter accepts each request at most once: one AcceptedRecord per accepted request
    // and limiter at most, plus, while the finished run computes one limiter's busiest
    // intervals, its merged records and two copies of their times (stats/accepted_log.cpp).
    e.requests = qint64(std::ceil(std::min(scheduleExpectedSends(traffic, durationUs), 1e15)));
    e.acceptedLog = e.requests * (e.limiters + 3) * qint64(sizeof(AcceptedRecord));
    e.burstFigures = burstFigureBytes(scenario, e.clients);
    return e;
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
    add(e.csv, QStringLiteral("buckets.csv text"));
    add(e.clientTables, QStringLiteral("client tables"));
    add(e.acceptedLog,
        QStringLiteral("accepted decisions kept for the admitted burst (%1 × %2)")
            .arg(plural(e.requests, QStringLiteral("request"), QStringLiteral("requests")),
                 plural(e.limiters, QStringLiteral("limiter"), QStringLiteral("limiters"))));
    add(e.trace, QStringLiteral("trace rows (%1)")
                     .arg(plural(e.traceRows, QStringLiteral("row"), QStringLiteral("rows"))));
    add(e.burstFigures, QStringLiteral("admitted bursts per client and group"));
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

qint64 parseMemorySize(const QString& text, const QString& where) {
    static const QRegularExpression kSize(
        QStringLiteral(R"(^\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]*)\s*$)"));
    const QRegularExpressionMatch match = kSize.match(text);
    const QString unit = match.captured(2).toLower();
    static const QList<QPair<QString, double>> kUnits = {
        {QString(), 1},
        {QStringLiteral("b"), 1},
        {QStringLiteral("k"), double(kKiB)},
        {QStringLiteral("kib"), double(kKiB)},
        {QStringLiteral("m"), double(kMiB)},
        {QStringLiteral("mib"), double(kMiB)},
        {QStringLiteral("g"), double(kGiB)},
        {QStringLiteral("gib"), double(kGiB)},
        {QStringLiteral("t"), double(kTiB)},
        {QStringLiteral("tib"), double(kTiB)},
        {QStringLiteral("kb"), 1e3},
        {QStringLiteral("mb"), 1e6},
        {QStringLiteral("gb"), 1e9},
        {QStringLiteral("tb"), 1e12},
    };
    double scale = 0;
    for (const auto& u : kUnits) {
        if (u.first == unit) {
            scale = u.second;
        }
    }
    const QString expected = QStringLiteral(
        "expected a size from 1 MiB to 1 PiB such as 4GiB, "
        "512MiB or 1073741824 (bytes)");
    if (!match.hasMatch() || scale == 0) {
        throw InputError(
            where,
            QStringLiteral("%1 is not a memory size; %2").arg(json_input::quoted(text), expected));
    }
    const double bytes = match.captured(1).toDouble() * scale;
    if (!(bytes >= double(kMiB) && bytes <= double(kPiB))) {
        throw InputError(where, QStringLiteral("%1 is %2; %3")
                                    .arg(json_input::quoted(text),
                                         bytes < double(kMiB) ? QStringLiteral("below 1 MiB")
                                                              : QStringLiteral("above 1 PiB"),
                                         expected));
    }
    return std::llround(bytes);
}

QString formatBytes(qint64 bytes) {
    const auto scaled = [&](qint64 unit, const char* name) {
        const double value = double(bytes) / double(unit);
        // Three significant digits at most: "9.54 GiB" reads as "9.5 GiB", "610 MiB" stays.
        const QString number = value >= 100 ? QString::number(std::llround(value))
                                            : QString::number(value, 'f', value >= 10 ? 0 : 1);
        QString trimmed = number;
        if (trimmed.endsWith(QLatin1String(".0"))) {
            trimmed.chop(2);
        }
        return trimmed + QLatin1Char(' ') + QLatin1String(name);
    };
    if (bytes >= kTiB) {
        return scaled(kTiB, "TiB");
    }
    if (bytes >= kGiB) {
        return scaled(kGiB, "GiB");
    }
    if (bytes >= kMiB) {
        return scaled(kMiB, "MiB");
    }
    if (bytes >= kKiB) {
        return scaled(kKiB, "KiB");
    }
    return plural(bytes, QStringLiteral("byte"), QStringLiteral("bytes"));
}

}  // namespace ratelab
