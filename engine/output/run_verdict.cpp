#include "output/run_verdict.h"

#include <QStringList>
#include <algorithm>

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

// Whether an expectation checks the limiter's own errors ("errors <= 50" on it or on "*").
bool errorsChecked(const RunSummary& s, const QString& limiter) {
    return std::any_of(
        s.expectations.begin(), s.expectations.end(), [&](const ExpectationResult& r) {
            return r.limiter == limiter && r.expectation.metric == QLatin1String("errors");
        });
}

// Errors the run did not expect: a limiter that decided something, whose decisions partly
// failed, and on which no expectation checks the errors.
bool unexpectedErrors(const RunSummary& s, const LimiterSummary& l) {
    return !decidedNothing(l) && l.counts.errors > 0 && !errorsChecked(s, l.name);
}

QString failedText(const LimiterSummary& l) {
    QString text =
        QStringLiteral("%1 of %2 decisions failed").arg(l.counts.errors).arg(l.counts.fired);
    if (!l.errorsByCause.isEmpty()) {
        text += QStringLiteral(" (%1)").arg(causesText(l.errorsByCause));
    }
    return text;
}

QString decidedNothingText(const LimiterSummary& l) {
    const QString name = json_input::quoted(l.name);
    if (l.counts.fired == 0) {
        return QStringLiteral("limiter %1 decided nothing: no request was sent to it").arg(name);
    }
    return QStringLiteral("limiter %1 decided nothing: %2").arg(name, failedText(l));
}

QString unexpectedErrorsText(const LimiterSummary& l) {
    return QStringLiteral("limiter %1: %2, and no expectation checks its errors")
        .arg(json_input::quoted(l.name), failedText(l));
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
        } else if (unexpectedErrors(s, l)) {
            reasons << unexpectedErrorsText(l);
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
        if ((decidedNothing(l) && l.counts.errors > 0) || unexpectedErrors(s, l)) {
            return true;
        }
    }
    return false;
}

}  // namespace ratelab
