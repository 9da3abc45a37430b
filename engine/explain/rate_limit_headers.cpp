#include "explain/rate_limit_headers.h"

#include <algorithm>

namespace ratelab {
namespace {

qint64 seconds(qint64 ms) {
    return std::max<qint64>(0, (ms + 999) / 1000);
}

QString partition(const QString& key) {
    return key.isEmpty()
               ? QString()
               : QStringLiteral(";pk=:%1:").arg(QString::fromLatin1(key.toUtf8().toBase64()));
}

}  // namespace

QStringList rateLimitHeaders(const std::vector<HeaderQuota>& quotas, const Decision& decision,
                             const QString& partitionKey) {
    QStringList policies;
    QStringList current;
    const QString pk = partition(partitionKey);
    for (const HeaderQuota& q : quotas) {
        // Names are sf-strings of ratelab's own ("default", "rule-2"): nothing to escape.
        // A quota without a window (a burst) says how many at once: no w.
        const QString window =
            q.windowMs > 0 ? QStringLiteral(";w=%1").arg(std::max<qint64>(1, seconds(q.windowMs)))
                           : QString();
        policies << QStringLiteral("\"%1\";q=%2%3%4").arg(q.name).arg(q.quota).arg(window, pk);
        if (q.deciding) {
            current << QStringLiteral("\"%1\";r=%2;t=%3%4")
                           .arg(q.name)
                           .arg(q.remaining)
                           .arg(seconds(q.resetMs))
                           .arg(pk);
        }
    }
    QStringList headers{QStringLiteral("RateLimit-Policy: ") + policies.join(QStringLiteral(", ")),
                        QStringLiteral("RateLimit: ") + current.join(QStringLiteral(", "))};
    if (!decision.allowed && decision.retryAfterMs >= 0) {
        headers << QStringLiteral("Retry-After: %1").arg(seconds(decision.retryAfterMs));
    }
    return headers;
}

}  // namespace ratelab
