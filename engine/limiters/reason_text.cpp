#include "limiters/reason_text.h"

#include <QDateTime>

namespace ratelab {

namespace {

constexpr qint64 kEpochTimesFromMs = 100'000'000'000;  // 1973: a scenario clock, not a trace

}  // namespace

QString reasonTime(qint64 ms, const QTimeZone& zone) {
    if (ms < kEpochTimesFromMs) {
        return QStringLiteral("%1 ms").arg(ms);
    }
    return QDateTime::fromMSecsSinceEpoch(ms, zone).toString(QStringLiteral("HH:mm:ss.zzz"));
}

QString reasonInterval(qint64 fromMs, qint64 toMs, bool closedRight, const QTimeZone& zone) {
    return (closedRight ? QStringLiteral("(") : QStringLiteral("[")) + reasonTime(fromMs, zone) +
           QStringLiteral(", ") + reasonTime(toMs, zone) +
           (closedRight ? QStringLiteral("]") : QStringLiteral(")"));
}

QString reasonMs(qint64 numerator, qint64 unitsPerMs) {
    if (unitsPerMs <= 1 || numerator % unitsPerMs == 0) {
        return QStringLiteral("%1 ms").arg(numerator / std::max<qint64>(1, unitsPerMs));
    }
    return QStringLiteral("%1 ms").arg(double(numerator) / double(unitsPerMs), 0, 'f', 3);
}

QString reasonOutcome(const Decision& d) {
    if (d.allowed) {
        QString text = QStringLiteral("granted, %1 left").arg(d.remaining);
        if (d.delayMs > 0) {
            text += QStringLiteral(", held %1 ms (nginx's queue)").arg(d.delayMs);
        }
        return text;
    }
    if (d.retryAfterMs < 0) {
        return QStringLiteral("refused: %1 permits is more than it ever allows")
            .arg(d.reason.permits);
    }
    return QStringLiteral("refused, retry in %1 ms").arg(d.retryAfterMs);
}

}  // namespace ratelab
