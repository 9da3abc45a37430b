#pragma once

#include <QByteArray>
#include <QString>

namespace ratelab::test {

// A lesson file over the scenario the lesson tests play: a fixed window of 10 per second named
// `fixed` and, when `log` is given, a sliding log of 10 per 1000 ms beside it, fed bursts of 10
// every 200 ms (and one request every 2 s) from 0.900 s past a second, 3 s in virtual time,
// buckets of 50 ms. The first burst fills the window with 10 of 11; the second, 200 ms later,
// passes whole in the next window (20 in all) and meets a full log. `beats` is the lesson's JSON
// array of beats.
QByteArray boundaryLesson(const QString& title, const QString& beats, const QString& fixed,
                          const QString& log = QString());

}  // namespace ratelab::test
