#include "hunt/hunt.h"

#include <chrono>

#include "hunt/hunt_generator.h"
#include "hunt/scratch_names.h"
#include "hunt/shrinker.h"
#include "hunt/trace_decider.h"
#include "redis/redis_error.h"
#include "redis/redis_router.h"

namespace ratelab {
namespace {

// The scratch keys are deleted whenever this many more names were handed out (and at the end):
// a long hunt leaves no more than that many limiters' keys behind at any time.
constexpr qint64 kNamesBetweenCleanups = 4096;

}  // namespace

Hunt::Hunt(HuntConfig config, RedisUrl url, ConnectOptions connect)
    : config_(std::move(config)), url_(std::move(url)), connect_(connect) {}

HuntResult Hunt::run(const std::atomic<bool>* stop,
                     const std::function<void(const HuntProgress&)>& progress) {
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    const auto seconds = [&] {
        return std::chrono::duration<double>(Clock::now() - start).count();
    };
    HuntResult result;
    const auto outOfTime = [&] { return config_.budgetS > 0 && seconds() >= config_.budgetS; };
    const auto stopped = [&] {
        result.interrupted = result.interrupted || (stop != nullptr && stop->load());
        result.outOfTime = result.outOfTime || (!result.interrupted && outOfTime());
        return result.interrupted || result.outOfTime;
    };

    RedisRouter router(url_, connect_);
    ScratchNames names;
    TraceDecider decider(url_, connect_, names);
    const PropertyCheck check(decider, config_.limiter, config_.reference, config_.properties);
    const HuntCorners corners =
        huntCorners(config_.limiter, config_.reference ? &*config_.reference : nullptr);
    const std::vector<qint64> windows = corners.windowsMs;
    const HuntGenerator generator(corners, config_.seed, config_.maxRows);
    HuntProgress seen;
    const auto report = [&] {
        if (progress) {
            progress(seen);
        }
    };
    try {
        qint64 cleanedAt = 0;
        for (qint64 index = config_.firstTrace; config_.traces == 0 || index < config_.traces;
             ++index) {
            if (stopped()) {
                break;
            }
            const Trace trace = generator.trace(index);
            const CheckedTrace checked = check.check(trace);
            ++result.traces;
            result.rows += trace.size();
            seen.traces = result.traces;
            seen.rows = result.rows;
            report();
            if (checked.violation) {
                if (!config_.shrink) {
                    Counterexample found;
                    found.traceIndex = index;
                    found.found = trace;
                    found.trace = trace;
                    found.checked = checked;
                    result.counterexample = std::move(found);
                    break;
                }
                const HuntProperty property = checked.violation->property;
                seen.shrinking = true;
                Shrinker shrinker(
                    [&](const Trace& candidate) {
                        ++seen.candidates;
                        report();
                        return check.check(candidate, property);
                    },
                    stopped, windows);
                const Shrinker::Result shrunk = shrinker.shrink(trace, checked);
                Counterexample found;
                found.traceIndex = index;
                found.found = trace;
                found.trace = shrunk.trace;
                found.checked = shrunk.checked;
                found.minimal = shrunk.minimal;
                found.candidates = shrunk.candidates;
                if (!result.interrupted) {
                    found.regression = regressionCase(decider, check, found.trace, found.checked);
                }
                result.counterexample = std::move(found);
                break;
            }
            if (names.handedOut() - cleanedAt >= kNamesBetweenCleanups) {
                names.deleteKeys(router);
                cleanedAt = names.handedOut();
            }
        }
    } catch (const RedisError&) {
        try {
            names.deleteKeys(router);
        } catch (const RedisError&) {
            // Redis is gone: the keys expire on their own (every one has a TTL).
        }
        throw;
    }
    names.deleteKeys(router);
    result.decisions = decider.decisions();
    result.seconds = seconds();
    return result;
}

}  // namespace ratelab
