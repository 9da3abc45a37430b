#include "limiters/scratch_keys.h"

#include "redis/redis_error.h"
#include "redis/redis_reply.h"
#include "redis/redis_router.h"
#include "redis/redis_scan.h"

namespace ratelab {

LimiterOptions scratchOptions(LimiterOptions options) {
    options.ttlCapMs = kScratchKeyTtlMs;
    return options;
}

void deleteScratchKeys(RedisRouter& router, const std::vector<const Limiter*>& limiters) noexcept {
    // One budget for all of them: an interrupt (now or during it) lets it go on that long.
    const auto goOnUntil = std::chrono::steady_clock::now() + kScratchCleanupAfterInterrupt;
    for (const Limiter* limiter : limiters) {
        try {
            limiter->reset(router, goOnUntil);
        } catch (const RedisError&) {
            return;  // Redis gone, or the budget spent: the rest expire within kScratchKeyTtlMs
        } catch (...) {
            // Not this one's (limiter.h, reset); the others still go.
        }
    }
}

ScratchKeepAlive::ScratchKeepAlive(std::chrono::milliseconds interval)
    : interval_(interval), next_(std::chrono::steady_clock::now() + interval) {}

void ScratchKeepAlive::keep(RedisRouter& router, const std::vector<const Limiter*>& limiters) {
    const std::string ttl = std::to_string(kScratchKeyTtlMs);
    for (const Limiter* limiter : limiters) {
        RedisConnection& node = router.connectionForSlot(limiter->slot());
        // Pipelined on the node that holds every key of the limiter (PEXPIRE of a key that is
        // gone does nothing).
        const auto extend = [&](const std::vector<std::string>& keys) {
            for (const std::string& key : keys) {
                node.append({"PEXPIRE", key, ttl});
            }
            for (std::size_t i = 0; i < keys.size(); ++i) {
                throwIfError(node.readReply().get(), "PEXPIRE");
            }
        };
        extend(limiter->exactKeys());
        scanEach(node, limiter->scanPattern(), extend);
    }
    next_ = std::chrono::steady_clock::now() + interval_;
}

}  // namespace ratelab
