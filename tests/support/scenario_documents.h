#pragma once

// Scenario documents for the scenario tests (tst_scenario, tst_scenario_errors,
// tst_scenario_files): JSON built around one token bucket "api" and a constant 100/s, what
// it parses to, and the traces its replays name.

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QVector>

#include <functional>

#include "scenario/scenario.h"

Q_DECLARE_METATYPE(ratelab::Scenario)

namespace ratelab::test {

inline constexpr char kApi[] =
    R"({"type": "token_bucket", "name": "api", "rate": 10, "interval_ms": 1000})";
inline constexpr char kConstant[] =
    R"("shape": {"type": "constant", "rate": 100}, "duration_s": 10)";

// {"limiters": [api], "traffic": {<traffic>}<top>}
QByteArray doc(const QByteArray& traffic, const QByteArray& top = QByteArray());
// The constant shape with more traffic members.
QByteArray withTraffic(const QByteArray& more);
// Another shape, 10 s long.
QByteArray withShape(const QByteArray& shape);
// More top-level members.
QByteArray withTop(const QByteArray& top);
// Other limiters.
QByteArray withLimiters(const QByteArray& limiters);
// A virtual clock.
QByteArray withClock(const QByteArray& clock);
// A JSON array of `count` token buckets l0, l1, ...
QByteArray manyLimiters(int count);

// A global token bucket "api" of 10 per 1000 ms.
LimiterSpec api();
// What doc(kConstant) parses to: every default.
Scenario defaults();
Scenario edited(const std::function<void(Scenario&)>& edit);
// Every field; the caller checks QTest::currentTestFailed() if it goes on.
void compareScenarios(const Scenario& actual, const Scenario& expected);
// "line:t_ms|client|permits" per trace row, so that a mismatch prints readably.
QStringList describe(const Trace& rows);
// The rows of login.csv (writeScenarioTraces).
QVector<TraceRow> loginRows();
// `call` throws an InputError at `where` whose problem contains `message`.
void expectError(const std::function<void()>& call, const QString& where, const QString& message);

// The traces the documents' replays name, in `dir`: login.csv, traces/sub.csv, bad.csv,
// empty.csv, long.csv, and ceiling.csv / above-ceiling.csv (a busiest second of exactly the
// replay ceiling, 1,000,000 requests, and of one more).
void writeScenarioTraces(const QString& dir);

}  // namespace ratelab::test
