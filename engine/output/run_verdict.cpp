#include "output/run_verdict.h"

#include <QStringList>

#include "json_input.h"

namespace ratelab {
namespace {

bool decidedNothing(const LimiterSummary& l) {
    return l.counts.accepted + l.counts.rejected == 0;
}

QString causesText(const QMap<QString, qint64>& causes) {
    QStringList parts;
    for (auto it = causes.begin(); it != causes.end(); ++it) {
        parts << QStringLiteral("%1 %2").arg(it.key()).arg(it.value());
    }
    return parts.join(QStringLiteral(", "));
}

QString decidedNothingText(const LimiterSummary& l) {
    const QString name = json_input::quoted(l.name);
    if (l.counts.fired == 0) {
        return QStringLiteral("limiter %1 decided nothing: no request was sent to it").arg(name);
    }
    QString text = QStringLiteral("limiter %1 decided nothing: %2 of %3 decisions failed")
                       .arg(name)
                       .arg(l.counts.errors)
                       .arg(l.counts.fired);
    if (!l.errorsByCause.isEmpty()) {
        text += QStringLiteral(" (%1)").arg(causesText(l.errorsByCause));
    }
    return text;
}

}  // namespace

QString incompleteReason(const RunSummary& s) {
    QStringList reasons;
    if (!s.finished) {
        reasons << (s.stoppedEarly ? QStringLiteral("the run stopped after %1 s of %2 s")
                                   : QStringLiteral("the run had not finished (%1 s of %2 s)"))
                       .arg(s.runS, 0, 'f', 3)
                       .arg(s.durationS, 0, 'f', 3);
    }
    for (const LimiterSummary& l : s.limiters) {
        if (decidedNothing(l)) {
            reasons << decidedNothingText(l);
        }
    }
    return reasons.join(QStringLiteral("; "));
}

QString runVerdict(const RunSummary& s) {
    return incompleteReason(s).isEmpty() ? expectationVerdict(s.expectations)
                                         : QString(output_format::verdict::kIncomplete);
}

bool incompleteByFailedDecisions(const RunSummary& s) {
    if (!s.finished) {
        return false;
    }
    for (const LimiterSummary& l : s.limiters) {
        if (decidedNothing(l) && l.counts.errors > 0) {
            return true;
        }
    }
    return false;
}

}  // namespace ratelab
