#pragma once

#include <QString>
#include <atomic>
#include <functional>
#include <optional>
#include <vector>

#include "hunt/hunt_property.h"
#include "hunt/property_check.h"
#include "hunt/regression_case.h"
#include "limiters/limiter_spec.h"
#include "redis/connect_options.h"
#include "traffic/trace.h"
#include "url/redis_url.h"

namespace ratelab {

// What to hunt (docs/command-line.md, "hunt"): a limiter, the reference `agree` compares it
// with (named and scoped as it decides), the properties, the seed, how many traces or how long.
struct HuntConfig {
    LimiterSpec limiter;
    std::optional<LimiterSpec> reference;
    std::vector<HuntProperty> properties;  // not empty
    quint64 seed = 1;
    qint64 traces = 0;   // 0: as many as the budget allows
    double budgetS = 0;  // 0: no time bound
    int maxRows = 12;
    // The traces tried are [firstTrace, traces) of the seed (a distributed hunt's batch, or the
    // one trace its coordinator checks again and shrinks).
    qint64 firstTrace = 0;
    // false: the first failing trace is returned as found (`trace` = `found`, not minimal, no
    // regression): a worker's batch, whose counterexample the coordinator shrinks.
    bool shrink = true;
};

// A counterexample: the trace that broke a property as it was generated, and shrunk.
struct Counterexample {
    qint64 traceIndex = 0;  // which trace of the seed
    Trace found;
    Trace trace;  // shrunk (1-minimal when `minimal`)
    CheckedTrace checked;
    bool minimal = false;
    qint64 candidates = 0;  // traces the shrinking decided
    // The regression check replaying it; none when the hunt was interrupted before it was made.
    std::optional<RegressionCase> regression;
};

struct HuntProgress {
    qint64 traces = 0;  // tried
    qint64 rows = 0;    // their rows
    bool shrinking = false;
    qint64 candidates = 0;
};

struct HuntResult {
    qint64 traces = 0;  // tried before the counterexample (it included) or the end
    qint64 rows = 0;
    qint64 decisions = 0;  // every decision Redis made (the reference's and the probes' too)
    double seconds = 0;
    bool interrupted = false;  // `stop` ended it
    bool outOfTime = false;    // the budget ended it
    std::optional<Counterexample> counterexample;
};

// Generates the seed's traces (HuntGenerator), decides each on Redis in virtual time and checks
// the properties (PropertyCheck); the first that fails is shrunk (Shrinker). Every key it
// writes is under scratch names (ScratchNames), deleted before it returns, also after a failure.
// Runs on the caller's thread; `stop` (and the budget) are checked between two traces and two
// shrinking candidates; Redis's own waits end on RedisConnection's interrupt flag.
class Hunt {
public:
    Hunt(HuntConfig config, RedisUrl url, ConnectOptions connect = {});

    // Throws RedisError (after deleting what it wrote, as far as Redis lets it).
    HuntResult run(const std::atomic<bool>* stop = nullptr,
                   const std::function<void(const HuntProgress&)>& progress = {});

    const HuntConfig& config() const { return config_; }

private:
    HuntConfig config_;
    RedisUrl url_;
    ConnectOptions connect_;
};

}  // namespace ratelab
