#pragma once

#include "scenario/scenario.h"
#include "stats/run_snapshot.h"

namespace ratelab::test {

// Makes `scenario` replay `requests` random rows in virtual time as fast as possible (one
// worker: reproducible) from startMs: gaps of 0 (a quarter of them) or up to maxGapMs, clients
// c0 .. c<clients - 1>, 2 permits now and then.
void setRandomReplay(Scenario& scenario, quint32 seed, int clients, int requests, int maxGapMs,
                     qint64 startMs);

// Runs `scenario` on the fixture Redis to its end, then deletes its limiters' keys (and those of
// their gateways' own limiters, mode local).
RunSnapshot runToEnd(const Scenario& scenario);

}  // namespace ratelab::test
