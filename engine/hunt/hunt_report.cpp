#include "hunt/hunt_report.h"

#include <QStringList>

#include "hunt/violation_text.h"
#include "limiters/reason_text.h"

namespace ratelab {
namespace {

QString rowsText(qint64 rows) {
    return rows == 1 ? QStringLiteral("1 row") : QStringLiteral("%1 rows").arg(rows);
}

QString tracesText(qint64 traces) {
    return traces == 1 ? QStringLiteral("1 trace") : QStringLiteral("%1 traces").arg(traces);
}

// Each row with the decisions on it: the limiter's and the reference's (agree).
QString rowsTable(const HuntConfig& config, const Counterexample& c) {
    const Trace& trace = c.trace;
    const bool agree = !c.checked.reference.empty();
    QStringList header{QStringLiteral("row"), QStringLiteral("t_ms"), QStringLiteral("client"),
                       QStringLiteral("permits"), config.limiter.name};
    if (agree) {
        header << QStringLiteral("reference");
    }
    QList<QStringList> lines{header};
    for (qsizetype i = 0; i < trace.size(); ++i) {
        const TraceRow row = trace[i];
        QStringList line{QString::number(i), QStringLiteral("+%1").arg(row.tMs - trace.tMsAt(0)),
                         row.client, QString::number(row.permits),
                         reasonOutcome(c.checked.limiter[size_t(i)])};
        if (agree) {
            line << reasonOutcome(c.checked.reference[size_t(i)]);
        }
        lines << line;
    }
    QVector<int> widths(header.size(), 0);
    for (const QStringList& line : lines) {
        for (int col = 0; col < line.size(); ++col) {
            widths[col] = std::max(widths[col], int(line[col].size()));
        }
    }
    QString out = QStringLiteral("rows (t_ms from %1):\n").arg(trace.tMsAt(0));
    for (const QStringList& line : lines) {
        QString text = QStringLiteral(" ");
        for (int col = 0; col < line.size(); ++col) {
            text += QLatin1Char(' ') + line[col].leftJustified(widths[col]);
        }
        out += text.trimmed().prepend(QStringLiteral("  ")) + QLatin1Char('\n');
    }
    return out;
}

}  // namespace

QString huntResultText(const HuntConfig& config, const HuntResult& result) {
    if (!result.counterexample) {
        QString text = QStringLiteral("no counterexample in %1 (%2)")
                           .arg(tracesText(result.traces), rowsText(result.rows));
        if (result.outOfTime) {
            text += QStringLiteral(", when the budget of %1 s ran out").arg(config.budgetS);
        }
        return text + QLatin1Char('\n');
    }
    const Counterexample& c = *result.counterexample;
    const Violation& v = *c.checked.violation;
    QString text = QStringLiteral(
                       "counterexample: %1 breaks at row %2 of %3 (trace %4 of seed "
                       "%5, %6 as found; %7 tried in shrinking)\n")
                       .arg(huntPropertyName(v.property))
                       .arg(v.row)
                       .arg(rowsText(c.trace.size()))
                       .arg(c.traceIndex)
                       .arg(config.seed)
                       .arg(rowsText(c.found.size()), tracesText(c.candidates));
    text += c.minimal ? QStringLiteral(
                            "1-minimal: without any one of its rows, the property "
                            "holds\n")
                      : QStringLiteral(
                            "not shrunk to the end (%1): it fails, but a row may be "
                            "one too many\n")
                            .arg(result.interrupted ? QStringLiteral("interrupted")
                                                    : QStringLiteral("the budget ran out"));
    text += violationText(config.limiter, config.reference, c.trace, v) + QLatin1Char('\n');
    text += rowsTable(config, c);
    return text;
}

QString huntProgressText(const HuntProgress& progress, double seconds) {
    if (progress.shrinking) {
        return QStringLiteral("hunt: counterexample found after %1; shrinking: %2 tried")
            .arg(tracesText(progress.traces), tracesText(progress.candidates));
    }
    return QStringLiteral("hunt: %1 (%2) in %3 s")
        .arg(tracesText(progress.traces), rowsText(progress.rows))
        .arg(seconds, 0, 'f', 1);
}

QString huntSpeedText(const HuntResult& result) {
    const double s = std::max(result.seconds, 1e-9);
    return QStringLiteral(
               "%1 in %2 s: %3 traces/s, %4 rows/s, %5 decisions/s (probes and the "
               "reference included)")
        .arg(tracesText(result.traces))
        .arg(result.seconds, 0, 'f', 2)
        .arg(double(result.traces) / s, 0, 'f', 0)
        .arg(double(result.rows) / s, 0, 'f', 0)
        .arg(double(result.decisions) / s, 0, 'f', 0);
}

}  // namespace ratelab
