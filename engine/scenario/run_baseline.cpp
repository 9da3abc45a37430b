#include "scenario/run_baseline.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QLocale>
#include <algorithm>

#include "input_error.h"
#include "json_input.h"

namespace ratelab {
namespace {

// The output folder's files grow with clients × limiters and with buckets; far below this even
// for the largest scenario (the same bound `ratelab compare` reads summary.json with).
constexpr qint64 kMaxFileBytes = 512LL * 1024 * 1024;

double msOf(std::int64_t us) {
    return double(us) / 1000.0;
}

// One line of RFC 4180 CSV (as csv_writer writes it: a field with a comma or a quote is quoted,
// its quotes doubled). False when a quote is not closed on the line.
bool splitCsvLine(const QString& line, QStringList* fields) {
    fields->clear();
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted) {
            if (c != QLatin1Char('"')) {
                field += c;
            } else if (i + 1 < line.size() && line[i + 1] == QLatin1Char('"')) {
                field += c;
                ++i;
            } else {
                quoted = false;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            fields->append(field);
            field.clear();
        } else {
            field += c;
        }
    }
    fields->append(field);
    return !quoted;
}

QJsonObject objectAt(const QJsonObject& parent, const QString& key) {
    return parent.value(key).toObject();
}

// A count of summary.json: a whole number from 0.
qint64 countAt(const QJsonObject& object, const QString& key, const QString& where) {
    const QJsonValue value = object.value(key);
    if (value.isUndefined())
        return 0;  // an older summary without this field
    const double n = value.toDouble(-1);
    if (!value.isDouble() || n < 0 || n != double(qint64(n)))
        throw InputError(json_input::memberPath(where, key),
                         QStringLiteral("expected a count (a whole number from 0), got %1")
                             .arg(json_input::describe(value)));
    return qint64(n);
}

BaselineLimiter limiterFromJson(const QJsonObject& l, const QString& where) {
    BaselineLimiter b;
    b.name = l.value(QLatin1String("name")).toString();
    b.fired = countAt(l, QStringLiteral("fired"), where);
    b.accepted = countAt(l, QStringLiteral("accepted"), where);
    b.rejected = countAt(l, QStringLiteral("rejected"), where);
    b.errors = countAt(l, QStringLiteral("errors"), where);
    b.errorsOpen = countAt(l, QStringLiteral("errors_open"), where);
    b.errorsClosed = countAt(l, QStringLiteral("errors_closed"), where);
    const QJsonObject latency = objectAt(l, QStringLiteral("latency"));
    b.latencyCount = qint64(latency.value(QLatin1String("count")).toDouble());
    b.p50Ms = latency.value(QLatin1String("p50_ms")).toDouble();
    b.p99Ms = latency.value(QLatin1String("p99_ms")).toDouble();
    b.latencyMaxMs = latency.value(QLatin1String("max_ms")).toDouble();
    b.fairness = l.value(QLatin1String("fairness_jain")).toDouble(1);
    return b;
}

// buckets.csv's accepted and rejected per bucket, into the limiters read from summary.json.
void readBuckets(const QString& path, RunBaseline& run) {
    const QByteArray data = json_input::readSmallFile(
        path, kMaxFileBytes, QStringLiteral("not a buckets.csv written by ratelab run"));
    const QStringList lines = QString::fromUtf8(data).split(QLatin1Char('\n'));
    QStringList header;
    splitCsvLine(lines.value(0).trimmed(), &header);
    const qsizetype bucketColumn = header.indexOf(QStringLiteral("bucket"));
    const qsizetype limiterColumn = header.indexOf(QStringLiteral("limiter"));
    const qsizetype acceptedColumn = header.indexOf(QStringLiteral("accepted"));
    const qsizetype rejectedColumn = header.indexOf(QStringLiteral("rejected"));
    if (bucketColumn < 0 || limiterColumn < 0 || acceptedColumn < 0 || rejectedColumn < 0)
        throw InputError(path + QStringLiteral(": line 1"),
                         QStringLiteral("expected the columns bucket, limiter, accepted and "
                                        "rejected (a buckets.csv written by ratelab run)"));
    const qsizetype columns =
        std::max({bucketColumn, limiterColumn, acceptedColumn, rejectedColumn}) + 1;
    QStringList fields;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        QString line = lines[i];
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        if (line.isEmpty())
            continue;
        const QString where = QStringLiteral("%1: line %2").arg(path).arg(i + 1);
        if (!splitCsvLine(line, &fields) || fields.size() < columns)
            throw InputError(
                where, QStringLiteral("expected %1 comma-separated fields").arg(header.size()));
        bool ok[3] = {};
        const qint64 bucket = fields[bucketColumn].toLongLong(&ok[0]);
        const qint64 accepted = fields[acceptedColumn].toLongLong(&ok[1]);
        const qint64 rejected = fields[rejectedColumn].toLongLong(&ok[2]);
        // A bucket index past the number of rows would allocate for nothing.
        if (!ok[0] || !ok[1] || !ok[2] || bucket < 0 || bucket >= lines.size() || accepted < 0 ||
            rejected < 0)
            throw InputError(where, QStringLiteral("bucket, accepted and rejected must be whole "
                                                   "numbers from 0 (bucket below the row count)"));
        auto limiter =
            std::find_if(run.limiters.begin(), run.limiters.end(),
                         [&](const BaselineLimiter& l) { return l.name == fields[limiterColumn]; });
        if (limiter == run.limiters.end())
            throw InputError(where, QStringLiteral("limiter %1 is not in summary.json")
                                        .arg(json_input::quoted(fields[limiterColumn])));
        if (limiter->bucketAccepted.size() <= bucket) {
            limiter->bucketAccepted.resize(bucket + 1);
            limiter->bucketRejected.resize(bucket + 1);
        }
        limiter->bucketAccepted[bucket] = accepted;
        limiter->bucketRejected[bucket] = rejected;
    }
}

}  // namespace

const BaselineLimiter* RunBaseline::find(const QString& name) const {
    for (const BaselineLimiter& l : limiters) {
        if (l.name == name)
            return &l;
    }
    return nullptr;
}

RunBaseline baselineFromSnapshot(const RunSnapshot& run, const QString& label) {
    RunBaseline b;
    b.label = label;
    b.scenarioName = run.scenarioName;
    b.bucketMs = run.bucketMs;
    // As summary.json's run_s: a stopped run covers what it really ran.
    const qint64 us = run.finished && run.stoppedEarly ? run.finishedAtUs
                      : run.finished                   ? std::max(run.finishedAtUs, run.durationUs)
                                                       : run.elapsedUs;
    b.runSeconds = double(us) / 1e6;
    for (const LimiterSnapshot& l : run.limiters) {
        BaselineLimiter out;
        out.name = l.spec.name;
        out.fired = l.fired;
        out.accepted = l.accepted;
        out.rejected = l.rejected;
        out.errors = l.errors;
        out.errorsOpen = l.errorsOpen;
        out.errorsClosed = l.errorsClosed;
        out.latencyCount = l.latency.total;
        out.p50Ms = msOf(l.latency.percentile(50));
        out.p99Ms = msOf(l.latency.percentile(99));
        out.latencyMaxMs = msOf(l.latency.max);
        out.fairness = l.fairness;
        out.bucketAccepted = l.bucketAccepted;
        out.bucketRejected = l.bucketRejected;
        b.limiters.append(out);
    }
    return b;
}

RunBaseline readBaselineFolder(const QString& dir) {
    if (!QFileInfo(dir).isDir())
        throw InputError(dir, QStringLiteral("no such output folder"));
    const QString summaryPath = QDir(dir).filePath(QStringLiteral("summary.json"));
    const QString bucketsPath = QDir(dir).filePath(QStringLiteral("buckets.csv"));
    for (const QString& path : {summaryPath, bucketsPath}) {
        if (!QFileInfo::exists(path))
            throw InputError(path, QStringLiteral("missing: not a ratelab run's output folder"));
    }
    QJsonObject root;
    try {
        root = json_input::parseObject(
            json_input::readSmallFile(summaryPath, kMaxFileBytes,
                                      QStringLiteral("not a summary.json written by ratelab run")));
    } catch (const InputError& e) {
        throw e.within(summaryPath);
    }
    const QJsonValue limiters = root.value(QLatin1String("limiters"));
    if (!limiters.isArray())
        throw InputError(summaryPath + QStringLiteral(": $.limiters"),
                         QStringLiteral("missing or not an array: not a summary.json"));
    RunBaseline run;
    run.label = QFileInfo(QDir::cleanPath(dir)).fileName();
    run.scenarioName = root.value(QLatin1String("scenario")).toString();
    const double bucketMs = root.value(QLatin1String("bucket_ms")).toDouble();
    if (!(bucketMs >= 1) || bucketMs != double(qint64(bucketMs)))
        throw InputError(summaryPath + QStringLiteral(": $.bucket_ms"),
                         QStringLiteral("expected a whole number of ms from 1, got %1")
                             .arg(json_input::describe(root.value(QLatin1String("bucket_ms")))));
    run.bucketMs = qint64(bucketMs);
    run.runSeconds = root.value(QLatin1String("run_s")).toDouble();
    const QJsonArray array = limiters.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString where = json_input::elementPath(QStringLiteral("$.limiters"), i);
        const QJsonObject l = array.at(i).toObject();
        if (!l.value(QLatin1String("name")).isString())
            throw InputError(summaryPath + QStringLiteral(": ") + where,
                             QStringLiteral("a limiter without a name"));
        try {
            run.limiters.append(limiterFromJson(l, where));
        } catch (const InputError& e) {
            throw e.within(summaryPath);
        }
    }
    readBuckets(bucketsPath, run);
    return run;
}

}  // namespace ratelab
