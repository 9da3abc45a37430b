#include "support/lesson_documents.h"

namespace ratelab::test {

QByteArray boundaryLesson(const QString& title, const QString& beats, const QString& fixed,
                          const QString& log) {
    const QString limiters =
        QStringLiteral(R"({"type": "fixed_window", "name": "%1", "rate": 10, "interval": 1,
                          "unit": "seconds", "timezone": "UTC"})")
            .arg(fixed) +
        (log.isEmpty() ? QString()
                       : QStringLiteral(R"(, {"type": "sliding_window", "name": "%1",
                                           "rules": [{"limit": 10, "window_ms": 1000}]})")
                             .arg(log));
    return QStringLiteral(R"({"title": "%1",
  "scenario": {"name": "boundary lesson", "limiters": [%2],
               "traffic": {"shape": {"type": "burst", "rate": 0.5, "burst": 10, "every_s": 0.2},
                           "duration_s": 3, "mode": "try",
                           "clock": {"type": "virtual", "start": "2024-01-01T00:00:00.900Z",
                                     "speed": 1}},
               "bucket_ms": 50},
  "beats": %3})")
        .arg(title, limiters, beats)
        .toUtf8();
}

}  // namespace ratelab::test
