#pragma once

#include <chrono>
#include <vector>

#include "limiters/limiter.h"

namespace ratelab {

// Scratch limiters: the ones a command decides on under names of its own that nothing else
// reads, explain's replay and its counterfactual probes ("explain-<random>-…", also a step
// session's explanations) and a sweep's combinations ("sweep-<random>-…"). Their keys are
// deleted when the command is done with them, on every way it ends; whatever survives that (a
// process killed, Redis gone at the end) expires within kScratchKeyTtlMs.

// The longest any scratch key lives past its last write or keep-alive.
constexpr qint64 kScratchKeyTtlMs = 60LL * 60 * 1000;
// After an interrupt, deleting scratch keys goes on this long at most: the command still ends
// within a second; what a SCAN of a large keyspace did not reach by then expires.
constexpr std::chrono::milliseconds kScratchCleanupAfterInterrupt{400};

// `options` of a scratch limiter: every key it writes lives at most kScratchKeyTtlMs
// (LimiterOptions::ttlCapMs).
LimiterOptions scratchOptions(LimiterOptions options = {});

// Deletes the keys of `limiters` (Limiter::reset), after an interrupt too (for
// kScratchCleanupAfterInterrupt). Never throws: with Redis gone the keys expire.
void deleteScratchKeys(RedisRouter& router, const std::vector<const Limiter*>& limiters) noexcept;

// Keeps a long scratch run's keys: the capped TTLs are half of kScratchKeyTtlMs, so a key that
// a later decision reads may be written longer ago than that. Every `interval` of steady time
// (due() says when) keep() sets each key of the limiters to live kScratchKeyTtlMs from then; a
// TTL only collects state no later decision needs, so a longer one decides the same.
class ScratchKeepAlive {
public:
    explicit ScratchKeepAlive(
        std::chrono::milliseconds interval = std::chrono::milliseconds(kScratchKeyTtlMs / 4));
    bool due() const { return std::chrono::steady_clock::now() >= next_; }
    // Sets the TTLs; the next one is due `interval` from now. Throws RedisError.
    void keep(RedisRouter& router, const std::vector<const Limiter*>& limiters);

private:
    std::chrono::milliseconds interval_;
    std::chrono::steady_clock::time_point next_;
};

}  // namespace ratelab
