#pragma once

#include <functional>

#include "scenario/scenario.h"
#include "stats/run_snapshot.h"
#include "url/redis_url.h"

namespace ratelab::test {

// Runs `scenario` against `url` (connect and command timeouts of 300 ms), calls `fault` 0.8 s
// in, and returns the snapshot once every worker is done. A run that hangs fails through
// CTest's timeout.
RunSnapshot runWithFault(const Scenario& scenario, const RedisUrl& url,
                         const std::function<void()>& fault);

// Runs `scenario` to its end against the test Redis fixture, then deletes its limiters' keys.
RunSnapshot runOnFixture(const Scenario& scenario);

// The accounting identity everywhere: for every limiter fired == scheduled and fired ==
// accepted + rejected + errors, and the same per client and summed over the time buckets.
// Records a test failure (QCOMPARE) naming the limiter; callers stop on
// QTest::currentTestFailed().
void expectExactAccounting(const RunSnapshot& run);

// Two runs of one scenario (or a run and its steps) decided one limiter alike: the same
// decisions in every time bucket, Redis calls (per gateway too) and lease counts. Records a test
// failure (QCOMPARE); callers stop on QTest::currentTestFailed().
void expectSameDecisions(const LimiterSnapshot& want, const LimiterSnapshot& got);

// Every limiter decided (accepted or rejected) in the last `buckets` time buckets: decisions
// went on after a fault earlier in the run.
void expectResumed(const RunSnapshot& run, int buckets = 5);

}  // namespace ratelab::test
