#include "output/buckets_csv.h"

#include <QLocale>
#include <algorithm>
#include <cmath>
#include <optional>

#include "csv_writer.h"
#include "input_error.h"
#include "json_input.h"

namespace ratelab {
namespace {

namespace column = output_format::column;

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

// The columns of one buckets.csv, by the header's names; -1 for a column it lacks.
struct Columns {
    qsizetype bucket = -1;
    qsizetype limiter = -1;
    qsizetype accepted = -1;
    qsizetype rejected = -1;
    qsizetype errors = -1;
    qsizetype targetRate = -1;
    qsizetype errorsOpen = -1;
    qsizetype errorsClosed = -1;
    qsizetype disagreed = -1;
    qsizetype released = -1;
    qsizetype leaked = -1;
};

// A traffic group's two columns ("group.<name>.accepted", "group.<name>.rejected"); -1 for one
// the file lacks.
struct GroupColumns {
    QString name;
    qsizetype accepted = -1;
    qsizetype rejected = -1;
};

// The name of a group column ("group.<name>" + suffix), or none for another column.
std::optional<QString> groupOfColumn(const QString& header, QLatin1String suffix) {
    if (header.size() < column::kGroupPrefix.size() + suffix.size() ||
        !header.startsWith(column::kGroupPrefix) || !header.endsWith(suffix)) {
        return std::nullopt;
    }
    return header.mid(column::kGroupPrefix.size(),
                      header.size() - column::kGroupPrefix.size() - suffix.size());
}

// The header's group columns, in its order of first appearance.
QVector<GroupColumns> groupColumns(const QStringList& header) {
    QVector<GroupColumns> out;
    for (qsizetype i = 0; i < header.size(); ++i) {
        for (const bool accepted : {true, false}) {
            std::optional<QString> name = groupOfColumn(
                header[i], accepted ? column::kGroupAccepted : column::kGroupRejected);
            if (!name) {
                continue;
            }
            auto it = std::find_if(out.begin(), out.end(),
                                   [&](const GroupColumns& g) { return g.name == *name; });
            if (it == out.end()) {
                out.append(GroupColumns{std::move(*name), -1, -1});
                it = out.end() - 1;
            }
            (accepted ? it->accepted : it->rejected) = i;
        }
    }
    return out;
}

const GroupSummary* findGroup(const LimiterSummary& l, const QString& name) {
    for (const GroupSummary& g : l.groups) {
        if (g.group == name) {
            return &g;
        }
    }
    return nullptr;
}

// One row's fields, read with the line named in errors.
class Row {
public:
    Row(const QStringList& fields, QString where) : fields_(fields), where_(std::move(where)) {}

    // A count of the column (0 when the file has no such column).
    qint64 count(qsizetype column, const QString& name) const {
        if (column < 0) {
            return 0;
        }
        bool ok = false;
        const qint64 n = fields_[column].toLongLong(&ok);
        if (!ok || n < 0) {
            fail(name, QStringLiteral("a count (a whole number from 0)"), column);
        }
        return n;
    }
    double rate(qsizetype column, const QString& name) const {
        if (column < 0) {
            return 0;
        }
        bool ok = false;
        const double r = QLocale::c().toDouble(fields_[column], &ok);
        if (!ok || !std::isfinite(r) || r < 0) {
            fail(name, QStringLiteral("a rate (a number from 0)"), column);
        }
        return r;
    }
    [[noreturn]] void fail(const QString& name, const QString& expected, qsizetype column) const {
        throw InputError(where_, QStringLiteral("%1: expected %2, got %3")
                                     .arg(name, expected, json_input::quoted(fields_[column])));
    }

private:
    const QStringList& fields_;
    QString where_;
};

// Every series to `buckets`: the limiters' and those of the groups buckets.csv has columns of.
void resizeAll(RunSummary& summary, qsizetype buckets, const QVector<GroupColumns>& columns,
               bool disagreed, bool leases) {
    summary.bucketTargetRate.resize(buckets);
    for (LimiterSummary& l : summary.limiters) {
        for (QVector<qint64>* v : {&l.buckets.accepted, &l.buckets.rejected, &l.buckets.errors,
                                   &l.buckets.errorsOpen, &l.buckets.errorsClosed}) {
            v->resize(buckets);
        }
        if (l.hasReference && disagreed) {
            l.bucketDisagreed.resize(buckets);
        }
        if (l.leases.any() && leases) {
            l.buckets.released.resize(buckets);
            l.buckets.leaked.resize(buckets);
        }
        for (GroupSummary& g : l.groups) {
            if (std::any_of(columns.begin(), columns.end(),
                            [&](const GroupColumns& c) { return c.name == g.group; })) {
                g.bucketAccepted.resize(buckets);
                g.bucketRejected.resize(buckets);
            }
        }
    }
}

// The row's counts of each group with columns into its limiter's group of that name.
void readGroups(const Row& row, const QVector<GroupColumns>& columns, qint64 bucket,
                LimiterSummary& limiter, const QString& where) {
    for (const GroupColumns& c : columns) {
        const QString prefix = column::kGroupPrefix + c.name;
        const qint64 accepted = row.count(c.accepted, prefix + column::kGroupAccepted);
        const qint64 rejected = row.count(c.rejected, prefix + column::kGroupRejected);
        auto group = std::find_if(limiter.groups.begin(), limiter.groups.end(),
                                  [&](const GroupSummary& g) { return g.group == c.name; });
        if (group == limiter.groups.end()) {
            throw InputError(
                where, QStringLiteral("group %1 is not among limiter %2's groups in "
                                      "summary.json")
                           .arg(json_input::quoted(c.name), json_input::quoted(limiter.name)));
        }
        group->bucketAccepted[bucket] = accepted;
        group->bucketRejected[bucket] = rejected;
    }
}

}  // namespace

QByteArray bucketsToCsv(const RunSummary& s) {
    QByteArray out;
    for (const QLatin1String name :
         {column::kBucket, column::kTMs, column::kLimiter, column::kAccepted, column::kRejected,
          column::kErrors, column::kTargetRate, column::kErrorsOpen, column::kErrorsClosed}) {
        out += (out.isEmpty() ? "" : ",") + QByteArray(name.data(), name.size());
    }
    const bool disagreed = std::any_of(s.limiters.begin(), s.limiters.end(),
                                       [](const LimiterSummary& l) { return l.hasReference; });
    if (disagreed) {
        out += ',' + QByteArray(column::kDisagreementsWithReference.data(),
                                column::kDisagreementsWithReference.size());
    }
    const bool leases =
        std::any_of(s.limiters.begin(), s.limiters.end(),
                    [](const LimiterSummary& l) { return !l.buckets.released.isEmpty(); });
    if (leases) {
        for (const QLatin1String name : {column::kReleased, column::kLeaked}) {
            out += ',' + QByteArray(name.data(), name.size());
        }
    }
    const QStringList groups = groupsWithSeries(s);
    for (const QString& group : groups) {
        for (const QLatin1String suffix : {column::kGroupAccepted, column::kGroupRejected}) {
            out += ',';
            appendCsvField(out, column::kGroupPrefix + group + suffix);
        }
    }
    out += '\n';
    for (qsizetype b = 0; b < s.bucketTargetRate.size(); ++b) {
        // The rate in the fewest digits that read back as the same double.
        const QByteArray rate =
            QByteArray::number(s.bucketTargetRate[b], 'g', QLocale::FloatingPointShortest);
        for (const LimiterSummary& l : s.limiters) {
            out += QByteArray::number(b) + ',' + QByteArray::number(qint64(b) * s.bucketMs) + ',';
            appendCsvField(out, l.name);
            out += ',' + QByteArray::number(l.buckets.accepted.value(b)) + ',' +
                   QByteArray::number(l.buckets.rejected.value(b)) + ',' +
                   QByteArray::number(l.buckets.errors.value(b)) + ',' + rate + ',' +
                   QByteArray::number(l.buckets.errorsOpen.value(b)) + ',' +
                   QByteArray::number(l.buckets.errorsClosed.value(b));
            if (disagreed) {
                out += ',' + QByteArray::number(l.bucketDisagreed.value(b));
            }
            if (leases) {
                out += ',' + QByteArray::number(l.buckets.released.value(b)) + ',' +
                       QByteArray::number(l.buckets.leaked.value(b));
            }
            for (const QString& group : groups) {
                const GroupSummary* g = findGroup(l, group);
                out += ',' + QByteArray::number(g ? g->bucketAccepted.value(b) : 0) + ',' +
                       QByteArray::number(g ? g->bucketRejected.value(b) : 0);
            }
            out += '\n';
        }
    }
    return out;
}

QByteArray bucketsCsv(const RunSnapshot& run) {
    return bucketsToCsv(summaryOf(run));
}

void bucketsFromCsv(const QByteArray& csv, const QString& file, RunSummary& summary) {
    const QStringList lines = QString::fromUtf8(csv).split(QLatin1Char('\n'));
    QStringList header;
    QString first = lines.value(0);
    if (first.endsWith(QLatin1Char('\r'))) {
        first.chop(1);
    }
    splitCsvLine(first, &header);
    Columns c;
    c.bucket = header.indexOf(column::kBucket);
    c.limiter = header.indexOf(column::kLimiter);
    c.accepted = header.indexOf(column::kAccepted);
    c.rejected = header.indexOf(column::kRejected);
    c.errors = header.indexOf(column::kErrors);
    c.targetRate = header.indexOf(column::kTargetRate);
    c.errorsOpen = header.indexOf(column::kErrorsOpen);
    c.errorsClosed = header.indexOf(column::kErrorsClosed);
    c.disagreed = header.indexOf(column::kDisagreementsWithReference);
    const bool disagreed = c.disagreed >= 0;
    c.released = header.indexOf(column::kReleased);
    c.leaked = header.indexOf(column::kLeaked);
    const bool leases = c.released >= 0 && c.leaked >= 0;
    const QVector<GroupColumns> groups = groupColumns(header);
    if (c.bucket < 0 || c.limiter < 0 || c.accepted < 0 || c.rejected < 0) {
        throw InputError(file + QStringLiteral(": line 1"),
                         QStringLiteral("expected the columns bucket, limiter, accepted and "
                                        "rejected (a buckets.csv written by ratelab run)"));
    }
    qsizetype buckets = 0;  // the highest bucket read + 1
    resizeAll(summary, 0, groups, disagreed, leases);
    QStringList fields;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        QString line = lines[i];
        if (line.endsWith(QLatin1Char('\r'))) {
            line.chop(1);
        }
        if (line.isEmpty()) {
            continue;
        }
        const QString where = QStringLiteral("%1: line %2").arg(file).arg(i + 1);
        if (!splitCsvLine(line, &fields)) {
            throw InputError(where, QStringLiteral("a quote is not closed on the line"));
        }
        if (fields.size() != header.size()) {
            throw InputError(where, QStringLiteral("expected %1 comma-separated fields (as the "
                                                   "header has), got %2")
                                        .arg(header.size())
                                        .arg(fields.size()));
        }
        const Row row(fields, where);
        const qint64 bucket = row.count(c.bucket, column::kBucket);
        // A bucket index past the number of rows would allocate for nothing.
        if (bucket >= lines.size()) {
            throw InputError(where, QStringLiteral("bucket %1 is past the file's %2 rows")
                                        .arg(bucket)
                                        .arg(lines.size() - 1));
        }
        auto limiter =
            std::find_if(summary.limiters.begin(), summary.limiters.end(),
                         [&](const LimiterSummary& l) { return l.name == fields[c.limiter]; });
        if (limiter == summary.limiters.end()) {
            throw InputError(where, QStringLiteral("limiter %1 is not in summary.json")
                                        .arg(json_input::quoted(fields[c.limiter])));
        }
        if (bucket >= summary.bucketTargetRate.size()) {
            // Twice as many at least: the rows come in ascending buckets.
            resizeAll(
                summary,
                std::min(std::max(bucket + 1, 2 * summary.bucketTargetRate.size()), lines.size()),
                groups, disagreed, leases);
        }
        buckets = std::max(buckets, bucket + 1);
        BucketCounts& counts = limiter->buckets;
        counts.accepted[bucket] = row.count(c.accepted, column::kAccepted);
        counts.rejected[bucket] = row.count(c.rejected, column::kRejected);
        counts.errors[bucket] = row.count(c.errors, column::kErrors);
        counts.errorsOpen[bucket] = row.count(c.errorsOpen, column::kErrorsOpen);
        counts.errorsClosed[bucket] = row.count(c.errorsClosed, column::kErrorsClosed);
        const qint64 disagreements = row.count(c.disagreed, column::kDisagreementsWithReference);
        if (limiter->hasReference && disagreed) {
            limiter->bucketDisagreed[bucket] = disagreements;
        }
        const qint64 released = row.count(c.released, column::kReleased);
        const qint64 leaked = row.count(c.leaked, column::kLeaked);
        if (limiter->leases.any() && leases) {
            counts.released[bucket] = released;
            counts.leaked[bucket] = leaked;
        }
        summary.bucketTargetRate[bucket] = row.rate(c.targetRate, column::kTargetRate);
        readGroups(row, groups, bucket, *limiter, where);
    }
    resizeAll(summary, buckets, groups, disagreed, leases);
}

}  // namespace ratelab
