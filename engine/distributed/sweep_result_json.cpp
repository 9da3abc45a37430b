#include "distributed/sweep_result_json.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>
#include <limits>

#include "distributed/strict_json.h"
#include "json_input.h"

namespace ratelab {
namespace {

using json_input::describe;
using json_input::elementPath;

QString memberPath(const QString& path, const char* key) {
    return json_input::memberPath(path, QLatin1String(key));
}

// A double as text that reads back to the same bits: "nan", "inf" and "-inf" too.
QJsonValue exact(double value) {
    if (std::isnan(value)) {
        return QStringLiteral("nan");
    }
    return QString::number(value, 'g', std::numeric_limits<double>::max_digits10);
}

QJsonObject resultJson(const ExpectationResult& r) {
    return QJsonObject{{QLatin1String("limiter"), r.limiter},
                       {QLatin1String("on"), r.expectation.limiter},
                       {QLatin1String("metric"), r.expectation.metric},
                       {QLatin1String("op"), int(r.expectation.op)},
                       {QLatin1String("threshold"), exact(r.expectation.threshold)},
                       {QLatin1String("measured"), exact(r.measured)},
                       {QLatin1String("held"), r.held}};
}

QJsonArray resultsJson(const QVector<ExpectationResult>& results) {
    QJsonArray out;
    for (const ExpectationResult& r : results) {
        out.append(resultJson(r));
    }
    return out;
}

QJsonObject rowJson(const SweepFigures& row) {
    QJsonArray bursts;
    for (const BusiestInterval& b : row.admittedBurst) {
        bursts.append(QJsonArray{b.permits, b.fromMs, b.windowMs, b.firstMs, b.lastMs});
    }
    return QJsonObject{
        {QLatin1String("limiter"), row.limiter},   {QLatin1String("group"), row.group},
        {QLatin1String("fired"), row.fired},       {QLatin1String("accepted"), row.accepted},
        {QLatin1String("rejected"), row.rejected}, {QLatin1String("errors"), row.errors},
        {QLatin1String("bursts"), bursts}};
}

using Reader = StrictJson;

ExpectationResult readResult(const QJsonValue& v, const QString& path) {
    const QJsonObject o = Reader::object(v, path);
    ExpectationResult r;
    r.limiter = Reader::text(Reader::member(o, path, "limiter"), memberPath(path, "limiter"));
    r.expectation.limiter = Reader::text(Reader::member(o, path, "on"), memberPath(path, "on"));
    r.expectation.metric =
        Reader::text(Reader::member(o, path, "metric"), memberPath(path, "metric"));
    const qint64 op = Reader::integer(Reader::member(o, path, "op"), memberPath(path, "op"));
    if (op < int(CompareOp::Less) || op > int(CompareOp::Greater)) {
        throw InputError(memberPath(path, "op"), QStringLiteral("no such comparison"));
    }
    r.expectation.op = CompareOp(op);
    r.expectation.threshold =
        Reader::number(Reader::member(o, path, "threshold"), memberPath(path, "threshold"));
    r.measured = Reader::number(Reader::member(o, path, "measured"), memberPath(path, "measured"));
    r.held = Reader::boolean(Reader::member(o, path, "held"), memberPath(path, "held"));
    return r;
}

QVector<ExpectationResult> readResults(const QJsonValue& v, const QString& path) {
    QVector<ExpectationResult> out;
    const QJsonArray a = Reader::array(v, path);
    for (qsizetype i = 0; i < a.size(); ++i) {
        out.append(readResult(a[i], elementPath(path, i)));
    }
    return out;
}

SweepFigures readRow(const QJsonValue& v, const QString& path) {
    const QJsonObject o = Reader::object(v, path);
    SweepFigures row;
    const auto count = [&](const char* key) {
        return Reader::integer(Reader::member(o, path, key), memberPath(path, key));
    };
    row.limiter = Reader::text(Reader::member(o, path, "limiter"), memberPath(path, "limiter"));
    row.group = Reader::text(Reader::member(o, path, "group"), memberPath(path, "group"));
    row.fired = count("fired");
    row.accepted = count("accepted");
    row.rejected = count("rejected");
    row.errors = count("errors");
    const QString burstsPath = memberPath(path, "bursts");
    const QJsonArray bursts = Reader::array(Reader::member(o, path, "bursts"), burstsPath);
    for (qsizetype i = 0; i < bursts.size(); ++i) {
        const QString at = elementPath(burstsPath, i);
        const QJsonArray b = Reader::array(bursts[i], at);
        if (b.size() != 5) {
            throw InputError(at, QStringLiteral("expected 5 integers, got %1").arg(b.size()));
        }
        qint64 n[5];
        for (int k = 0; k < 5; ++k) {
            n[k] = Reader::integer(b[k], elementPath(at, k));
        }
        row.admittedBurst.push_back(BusiestInterval{n[0], n[1], n[2], n[3], n[4]});
    }
    return row;
}

SweepCombination readCombination(const QJsonValue& v, const QString& path, qint64 index) {
    const QJsonObject o = Reader::object(v, path);
    SweepCombination c;
    c.index = Reader::integer(Reader::member(o, path, "index"), memberPath(path, "index"));
    if (c.index != index) {
        throw InputError(memberPath(path, "index"),
                         QStringLiteral("expected combination %1, got %2").arg(index).arg(c.index));
    }
    const QString valuesPath = memberPath(path, "values");
    const QJsonArray values = Reader::array(Reader::member(o, path, "values"), valuesPath);
    for (qsizetype i = 0; i < values.size(); ++i) {
        c.values.append(Reader::integer(values[i], elementPath(valuesPath, i)));
    }
    c.objective =
        Reader::number(Reader::member(o, path, "objective"), memberPath(path, "objective"));
    c.objectiveParts = readResults(Reader::member(o, path, "parts"), memberPath(path, "parts"));
    const QString checksPath = memberPath(path, "checks");
    const QJsonArray checks = Reader::array(Reader::member(o, path, "checks"), checksPath);
    for (qsizetype i = 0; i < checks.size(); ++i) {
        c.checks.append(readResults(checks[i], elementPath(checksPath, i)));
    }
    const QString rowsPath = memberPath(path, "rows");
    const QJsonArray rows = Reader::array(Reader::member(o, path, "rows"), rowsPath);
    for (qsizetype i = 0; i < rows.size(); ++i) {
        c.rows.append(readRow(rows[i], elementPath(rowsPath, i)));
    }
    return c;
}

}  // namespace

QByteArray sweepResultJson(const QVector<SweepCombination>& combinations) {
    QJsonArray out;
    for (const SweepCombination& c : combinations) {
        QJsonArray values, checks, rows;
        for (qint64 v : c.values) {
            values.append(v);
        }
        for (const QVector<ExpectationResult>& check : c.checks) {
            checks.append(resultsJson(check));
        }
        for (const SweepFigures& row : c.rows) {
            rows.append(rowJson(row));
        }
        out.append(QJsonObject{{QLatin1String("index"), c.index},
                               {QLatin1String("values"), values},
                               {QLatin1String("objective"), exact(c.objective)},
                               {QLatin1String("parts"), resultsJson(c.objectiveParts)},
                               {QLatin1String("checks"), checks},
                               {QLatin1String("rows"), rows}});
    }
    return QJsonDocument(QJsonObject{{QLatin1String("combinations"), out}})
        .toJson(QJsonDocument::Compact);
}

QVector<SweepCombination> parseSweepResult(const QByteArray& json, qint64 first, qint64 count) {
    const QJsonObject root = json_input::parseObject(json);
    const QString path = QStringLiteral("$.combinations");
    const QJsonArray all =
        Reader::array(Reader::member(root, QStringLiteral("$"), "combinations"), path);
    if (all.size() != count) {
        throw InputError(
            path, QStringLiteral("expected %1 combinations, got %2").arg(count).arg(all.size()));
    }
    QVector<SweepCombination> out;
    for (qsizetype i = 0; i < all.size(); ++i) {
        out.append(readCombination(all[i], elementPath(path, i), first + i));
    }
    return out;
}

}  // namespace ratelab
