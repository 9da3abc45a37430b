#include "output/sweep_verdict.h"

#include <QStringList>

namespace ratelab {

qint64 sweepFailedDecisions(const SweepTable& table) {
    qint64 errors = 0;
    for (const SweepCombination& c : table.combinations) {
        for (const SweepFigures& row : c.rows) {
            errors += row.group == QLatin1String("*") ? row.errors : 0;  // a group's are in it
        }
    }
    return errors;
}

QString sweepIncompleteReason(const SweepTable& table, const QString& stoppedBy) {
    QStringList reasons;
    if (!table.complete) {
        QString stopped = QStringLiteral("the sweep stopped after %1 of %2 combinations")
                              .arg(table.combinations.size())
                              .arg(table.total);
        if (!stoppedBy.isEmpty()) {
            stopped += QStringLiteral(" (%1)").arg(stoppedBy);
        }
        reasons << stopped;
    }
    const qint64 failed = sweepFailedDecisions(table);
    if (failed > 0) {
        reasons << QStringLiteral(
                       "%1 decisions failed: combinations compare only on the same "
                       "decisions")
                       .arg(failed);
    }
    return reasons.join(QStringLiteral("; "));
}

}  // namespace ratelab
