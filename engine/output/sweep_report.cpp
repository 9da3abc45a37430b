#include "output/sweep_report.h"

#include <QStringList>
#include <algorithm>
#include <cmath>

#include "output/sweep_files.h"

namespace ratelab {
namespace {

// Columns of text, each as wide as its widest cell; numbers right-aligned, text left.
class TextTable {
public:
    void add(QStringList cells) { rows_.append(std::move(cells)); }
    QString render(const QVector<bool>& rightAligned) const {
        QVector<qsizetype> widths;
        for (const QStringList& row : rows_) {
            widths.resize(std::max(widths.size(), row.size()));
            for (qsizetype c = 0; c < row.size(); ++c) {
                widths[c] = std::max(widths[c], row[c].size());
            }
        }
        QString text;
        for (const QStringList& row : rows_) {
            QStringList cells;
            for (qsizetype c = 0; c < row.size(); ++c) {
                cells << (rightAligned.value(c) ? row[c].rightJustified(widths[c])
                                                : row[c].leftJustified(widths[c]));
            }
            // Trailing blanks only: an empty first cell (no mark) keeps the columns aligned.
            QString line = QStringLiteral("  ") + cells.join(QStringLiteral("  "));
            while (line.endsWith(QLatin1Char(' '))) {
                line.chop(1);
            }
            text += line + QLatin1Char('\n');
        }
        return text;
    }

private:
    QVector<QStringList> rows_;
};

QString directionText(const SweepTable& table) {
    return (table.maximize ? QStringLiteral("maximize ") : QStringLiteral("minimize ")) +
           table.objective;
}

}  // namespace

QString sweepValuesText(const SweepTable& table, const SweepCombination& c) {
    QStringList parts;
    for (int k = 0; k < table.keys.size() && k < c.values.size(); ++k) {
        parts << QStringLiteral("%1 = %2").arg(table.keys[k]).arg(c.values[k]);
    }
    return parts.join(QStringLiteral(", "));
}

QString sweepTableText(const SweepTable& table) {
    QString text = QStringLiteral("sweep \"%1\": %2 of %3 combinations%4, %5\n")
                       .arg(table.scenario)
                       .arg(table.combinations.size())
                       .arg(table.total)
                       .arg(table.complete ? QString() : QStringLiteral(" (incomplete)"),
                            directionText(table));
    for (const QString& warning : table.warnings) {
        text += QStringLiteral("warning: %1\n").arg(warning);
    }
    TextTable t;
    QStringList header{QString()};
    header += table.keys;
    header << table.objective;
    header += table.constraints;
    header << QStringLiteral("feasible");
    t.add(header);
    const int best = table.best();
    const QVector<int> tie = table.bestTie();
    // The best first of the combinations it ties with (ranking() orders those by index).
    QVector<int> order = table.ranking();
    if (tie.size() > 1) {
        const qsizetype first = order.indexOf(tie.first());
        order.removeOne(best);
        order.insert(first, best);
    }
    for (int i : order) {
        const SweepCombination& c = table.combinations[i];
        QStringList row{i == best                           ? QStringLiteral("best")
                        : tie.size() > 1 && tie.contains(i) ? QStringLiteral("tie")
                                                            : QString()};
        for (qint64 v : c.values) {
            row << QString::number(v);
        }
        row << sweepFigureText(c.objective);
        for (int k = 0; k < table.constraints.size(); ++k) {
            const bool held = c.holds(k);
            row << sweepFigureText(c.constraintFigure(k)) +
                       (held ? QString() : QStringLiteral(" FAILED"));
        }
        row << (c.feasible() ? QStringLiteral("yes") : QStringLiteral("no"));
        t.add(row);
    }
    QVector<bool> right(header.size(), true);
    right[0] = false;
    for (int k = 0; k <= table.constraints.size(); ++k) {
        right[header.size() - 1 - k] = false;  // constraints and feasible: text
    }
    return text + t.render(right);
}

QString sweepParetoText(const SweepTable& table) {
    QString text;
    for (int k = 0; k < table.constraints.size(); ++k) {
        const QVector<int> front = table.paretoFront(k);
        text += QStringLiteral("Pareto front, %1 against %2 (%3 of %4 combinations):\n")
                    .arg(table.objective, table.constraints[k])
                    .arg(front.size())
                    .arg(table.combinations.size());
        TextTable t;
        QStringList header = table.keys;
        header << table.constraints[k] << table.objective;
        t.add(header);
        for (int i : front) {
            const SweepCombination& c = table.combinations[i];
            QStringList row;
            for (qint64 v : c.values) {
                row << QString::number(v);
            }
            row << sweepFigureText(c.constraintFigure(k)) << sweepFigureText(c.objective);
            t.add(row);
        }
        text += t.render(QVector<bool>(header.size(), true));
    }
    return text;
}

QString sweepTieText(const SweepTable& table) {
    const QVector<int> tie = table.bestTie();
    if (tie.size() < 2) {
        return {};
    }
    const QVector<QPair<qint64, qint64>> ranges = table.valueRanges(tie);
    QStringList over;
    for (int k = 0; k < table.keys.size() && k < ranges.size(); ++k) {
        over << (ranges[k].first == ranges[k].second
                     ? QStringLiteral("%1 %2").arg(table.keys[k]).arg(ranges[k].first)
                     : QStringLiteral("%1 %2 to %3")
                           .arg(table.keys[k])
                           .arg(ranges[k].first)
                           .arg(ranges[k].second));
    }
    return QStringLiteral(
               "a tie: %1 feasible combinations give %2 %3, over %4; of them the best has the "
               "most headroom on the constraints, then lies in the middle\n")
        .arg(tie.size())
        .arg(table.objective, sweepFigureText(table.combinations[tie.first()].objective),
             over.join(QStringLiteral(", ")));
}

QString sweepVerdictText(const SweepTable& table) {
    const int best = table.best();
    if (best >= 0) {
        const SweepCombination& c = table.combinations[best];
        return QStringLiteral("best: %1 (%2 %3; %4)\n")
                   .arg(sweepValuesText(table, c), table.objective, sweepFigureText(c.objective),
                        table.constraints.isEmpty() ? QStringLiteral("no constraints")
                                                    : QStringLiteral("every constraint holds")) +
               sweepTieText(table);
    }
    const int nearest = table.nearest();
    if (nearest < 0) {
        return QStringLiteral("no combination finished\n");
    }
    const SweepCombination& c = table.combinations[nearest];
    QStringList misses;
    for (int k = 0; k < table.constraints.size(); ++k) {
        if (!c.holds(k)) {
            misses << QStringLiteral("%1 at %2")
                          .arg(table.constraints[k], sweepFigureText(c.constraintFigure(k)));
        }
    }
    return QStringLiteral(
               "no combination holds every constraint; the nearest: %1 (%2 of %3 "
               "constraints hold; it misses by least: %4)\n")
        .arg(sweepValuesText(table, c))
        .arg(c.checksHeld())
        .arg(table.constraints.size())
        .arg(misses.join(QStringLiteral(", ")));
}

}  // namespace ratelab
