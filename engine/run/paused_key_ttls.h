#pragma once

#include <string>
#include <vector>

#include "limiters/limiter.h"
#include "traffic/request_factory.h"

namespace ratelab {

// A paused virtual run's clock stands still while Redis's TTLs run on: state its next decisions
// need would expire during a long pause. hold() gives each key those decisions may read
// kClockStandstillMs more, release() gives each the TTL it had when held, so the run's keys
// age in run time only, and the keys of a run left paused still go a day later.
//
// The keys are the ones each limiter's prepare() names for each client at the times its
// decisions may still read: from the earliest time a later decision can have to the latest one
// made so far, on the client's own clock (traffic "clock_skew_ms"); for a global limiter up to
// the latest any client's clock reached, whose keys a lagging client reads (the fixed window's
// and the counter's keys are per window: Limiter::nextKeysMs steps through them, at most
// kMaxWindows per client). No SCAN: one pipeline of PTTL and one of PEXPIRE per limiter.
// Limiters that read Redis's own time ("time": "redis") are left alone: their clock does not
// stand still. Not thread-safe: the run's one worker, with no decision in flight.
class PausedKeyTtls {
public:
    static constexpr int kMaxWindows = 1000;

    // `fromMs`: no later decision is before it; `toMs`: no decision so far was after it (both
    // on the run's clock, before a client's skew). Throws RedisError when Redis fails (the keys
    // held so far are released by release()).
    void hold(RedisRouter& router, const std::vector<const Limiter*>& limiters,
              const RequestFactory& requests, qint64 fromMs, qint64 toMs);
    // Gives every held key the TTL it had when held (a key gone meanwhile stays gone).
    void release(RedisRouter& router);

private:
    struct Held {
        int slot = 0;
        std::string key;
        qint64 ttlMs = 0;
    };
    // Reads the TTLs of `keys` (one limiter's, in `slot`) and adds kClockStandstillMs to each.
    void holdKeys(RedisRouter& router, int slot, const std::vector<std::string>& keys);

    std::vector<Held> held_;
};

}  // namespace ratelab
