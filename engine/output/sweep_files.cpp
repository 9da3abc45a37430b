#include "output/sweep_files.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <cmath>

#include "csv_writer.h"
#include "output/regression_report.h"
#include "output/sweep_verdict.h"
#include "stats/expectation.h"

namespace ratelab {
namespace {

QJsonValue figureJson(double value) {
    return std::isnan(value) ? QJsonValue() : QJsonValue(value);
}

// A row's admitted burst over `windowMs`, or -1 when its limiter computed none.
qint64 burstOf(const SweepFigures& row, qint64 windowMs) {
    for (const BusiestInterval& b : row.admittedBurst) {
        if (b.windowMs == windowMs) {
            return b.permits;
        }
    }
    return -1;
}

// The values as an object keyed by the varied keys.
QJsonObject valuesJson(const SweepTable& table, const SweepCombination& c) {
    QJsonObject values;
    for (int k = 0; k < table.keys.size() && k < c.values.size(); ++k) {
        values.insert(table.keys[k], c.values[k]);
    }
    return values;
}

QJsonObject rowJson(const SweepFigures& row) {
    QJsonObject o{{QLatin1String("limiter"), row.limiter},
                  {QLatin1String("group"), row.group},
                  {QLatin1String("fired"), row.fired},
                  {QLatin1String("accepted"), row.accepted},
                  {QLatin1String("rejected"), row.rejected},
                  {QLatin1String("errors"), row.errors},
                  {QLatin1String("rejected_pct"), row.rejectedPct()}};
    for (const BusiestInterval& b : row.admittedBurst) {
        o.insert(burstMetricName(b.windowMs), b.permits);
    }
    return o;
}

QJsonArray checksJson(const SweepTable& table, const SweepCombination& c) {
    QJsonArray checks;
    for (int k = 0; k < c.checks.size(); ++k) {
        for (const ExpectationResult& r : c.checks[k]) {
            checks.append(QJsonObject{{QLatin1String("constraint"), table.constraints.value(k)},
                                      {QLatin1String("limiter"), r.limiter},
                                      {QLatin1String("measured"), figureJson(r.measured)},
                                      {QLatin1String("held"), r.held}});
        }
    }
    return checks;
}

// The combination a verdict names (the best or the nearest): its index, values and objective.
QJsonObject namedJson(const SweepTable& table, const SweepCombination& c) {
    return QJsonObject{{QLatin1String("index"), c.index},
                       {QLatin1String("values"), valuesJson(table, c)},
                       {QLatin1String("objective"), figureJson(c.objective)}};
}

// The best's tie (SweepTable::bestTie): its combinations' indexes and each key's range; null
// when the best is alone.
QJsonValue tieJson(const SweepTable& table) {
    const QVector<int> tie = table.bestTie();
    if (tie.size() < 2) {
        return QJsonValue();
    }
    QJsonArray indexes;
    for (int i : tie) {
        indexes.append(table.combinations[i].index);
    }
    QJsonObject range;
    const QVector<QPair<qint64, qint64>> ranges = table.valueRanges(tie);
    for (int k = 0; k < table.keys.size() && k < ranges.size(); ++k) {
        range.insert(table.keys[k], QJsonObject{{QLatin1String("from"), ranges[k].first},
                                                {QLatin1String("to"), ranges[k].second}});
    }
    return QJsonObject{{QLatin1String("combinations"), indexes}, {QLatin1String("range"), range}};
}

// A miss (SweepTable::missOf); null for a figure the run lacks (an infinite miss).
QJsonValue missJson(double miss) {
    return std::isfinite(miss) ? QJsonValue(miss) : QJsonValue();
}

}  // namespace

QString sweepFigureText(double value) {
    if (std::isnan(value)) {
        return QStringLiteral("n/a");
    }
    if (value == std::trunc(value) && std::fabs(value) < 1e15) {
        return QString::number(static_cast<qint64>(value));
    }
    QString text = QString::number(value, 'f', 3);
    while (text.endsWith(QLatin1Char('0'))) {
        text.chop(1);
    }
    return text;
}

QByteArray sweepCsv(const SweepTable& table) {
    const std::vector<qint64> windows = table.burstWindows();
    QByteArray out;
    const auto field = [&out](const QString& text) {
        if (!out.isEmpty() && !out.endsWith('\n')) {
            out += ',';
        }
        appendCsvField(out, text);
    };
    for (const QString& key : table.keys) {
        field(key);
    }
    for (const char* column :
         {"limiter", "group", "fired", "accepted", "rejected", "errors", "rejected_pct"}) {
        field(QLatin1String(column));
    }
    for (qint64 w : windows) {
        field(burstMetricName(w));
    }
    field(QStringLiteral("feasible"));
    field(QStringLiteral("best"));
    out += '\n';
    const int best = table.best();
    for (int i = 0; i < table.combinations.size(); ++i) {
        const SweepCombination& c = table.combinations[i];
        for (const SweepFigures& row : c.rows) {
            for (qint64 v : c.values) {
                field(QString::number(v));
            }
            field(row.limiter);
            field(row.group);
            for (qint64 n : {row.fired, row.accepted, row.rejected, row.errors}) {
                field(QString::number(n));
            }
            field(sweepFigureText(row.rejectedPct()));
            for (qint64 w : windows) {
                const qint64 burst = burstOf(row, w);
                field(burst < 0 ? QString() : QString::number(burst));
            }
            field(c.feasible() ? QStringLiteral("1") : QStringLiteral("0"));
            field(i == best ? QStringLiteral("1") : QStringLiteral("0"));
            out += '\n';
        }
    }
    return out;
}

QJsonObject sweepJson(const SweepTable& table) {
    const int best = table.best();
    QJsonArray combinations;
    for (int i = 0; i < table.combinations.size(); ++i) {
        const SweepCombination& c = table.combinations[i];
        QJsonArray rows;
        for (const SweepFigures& row : c.rows) {
            rows.append(rowJson(row));
        }
        QJsonObject objective;
        for (const ExpectationResult& part : c.objectiveParts) {
            objective.insert(part.limiter, figureJson(part.measured));
        }
        combinations.append(QJsonObject{{QLatin1String("index"), c.index},
                                        {QLatin1String("values"), valuesJson(table, c)},
                                        {QLatin1String("objective"), figureJson(c.objective)},
                                        {QLatin1String("objective_by_limiter"), objective},
                                        {QLatin1String("checks"), checksJson(table, c)},
                                        {QLatin1String("feasible"), c.feasible()},
                                        {QLatin1String("best"), i == best},
                                        {QLatin1String("rows"), rows}});
    }
    QJsonArray ranking;
    for (int i : table.ranking()) {
        ranking.append(table.combinations[i].index);
    }
    QJsonArray pareto;
    for (int k = 0; k < table.constraints.size(); ++k) {
        QJsonArray front;
        for (int i : table.paretoFront(k)) {
            front.append(table.combinations[i].index);
        }
        pareto.append(QJsonObject{{QLatin1String("against"), table.constraints[k]},
                                  {QLatin1String("combinations"), front}});
    }
    QJsonArray keys, constraints;
    for (const QString& key : table.keys) {
        keys.append(key);
    }
    for (const QString& c : table.constraints) {
        constraints.append(c);
    }
    QJsonObject object{
        {QLatin1String("format"), sweep_format::kFormat},
        {QLatin1String("scenario"), table.scenario},
        {QLatin1String("complete"), table.complete},
        {QLatin1String("combinations_planned"), table.total},
        {QLatin1String("combinations_finished"), qint64(table.combinations.size())},
        {QLatin1String("vary"), keys},
        {table.maximize ? QLatin1String("maximize") : QLatin1String("minimize"), table.objective},
        {QLatin1String("constraints"), constraints},
        {QLatin1String("combinations"), combinations},
        {QLatin1String("ranking"), ranking},
        {QLatin1String("pareto"), pareto}};
    if (!table.note.isEmpty()) {
        object.insert(QLatin1String("note"), table.note);
    }
    object.insert(QLatin1String("warnings"), QJsonArray::fromStringList(table.warnings));
    if (best >= 0) {
        const SweepCombination& c = table.combinations[best];
        QJsonObject chosen = namedJson(table, c);
        chosen.insert(QLatin1String("tie"), tieJson(table));
        chosen.insert(QLatin1String("scenario"), table.bestScenario);
        object.insert(QLatin1String("best"), chosen);
        object.insert(QLatin1String("nearest"), QJsonValue());
    } else {
        object.insert(QLatin1String("best"), QJsonValue());
        const int nearest = table.nearest();
        if (nearest >= 0) {
            const SweepCombination& c = table.combinations[nearest];
            QJsonObject chosen = namedJson(table, c);
            chosen.insert(QLatin1String("miss"), missJson(table.missOf(nearest)));
            object.insert(QLatin1String("nearest"), chosen);
        } else {
            object.insert(QLatin1String("nearest"), QJsonValue());
        }
    }
    return object;
}

QStringList sweepFolderFiles() {
    return {sweep_format::kCsvFile, sweep_format::kJsonFile, sweep_format::kPngFile,
            sweep_format::kHtmlFile};
}

QByteArray sweepJUnit(const SweepTable& table, double seconds, const QString& stoppedBy) {
    qint64 feasible = 0;
    for (const SweepCombination& c : table.combinations) {
        feasible += c.feasible() ? 1 : 0;
    }
    ExpectationResult exists;
    exists.limiter = QStringLiteral("sweep");
    exists.expectation.limiter = exists.limiter;
    exists.expectation.metric = QStringLiteral("feasible_combinations");
    exists.expectation.op = CompareOp::GreaterEqual;
    exists.expectation.threshold = 1;
    exists.measured = double(feasible);
    exists.held = feasible >= 1;
    QVector<ExpectationResult> results{exists};
    const int nearest = table.nearest();
    if (nearest >= 0) {
        for (const QVector<ExpectationResult>& checks : table.combinations[nearest].checks) {
            results += checks;
        }
    }
    return expectationsJUnit(table.scenario, seconds, results,
                             sweepIncompleteReason(table, stoppedBy));
}

FolderWrite writeSweepFiles(const QString& dir, const SweepTable& table,
                            const QVector<RenderedFile>& rendered) {
    QVector<RenderedFile> files{
        {sweep_format::kCsvFile, sweepCsv(table)},
        {sweep_format::kJsonFile, QJsonDocument(sweepJson(table)).toJson(QJsonDocument::Indented)}};
    files += rendered;
    return writeFolderFiles(dir, files);
}

}  // namespace ratelab
