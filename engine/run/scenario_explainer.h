#pragma once

#include "explain/explanation.h"
#include "scenario/scenario.h"

namespace ratelab {

class RedisRouter;

// Explains one decision of a scenario's limiter (`ratelab explain`, the window's Step panel
// and click-to-explain): replays the schedule up to that request on real Redis in virtual time,
// as a virtual-clock run decides it, under scratch names ("explain-<random>-…") whose keys are
// deleted before it returns, so no key of the user's limiters is touched. Then it decides the
// request, reads the keys before and after, forms the rate-limit headers, and finds the
// counterfactuals by deciding again from the same state (Counterfactuals).
// A real-clock scenario is explained on a virtual clock (said in the notes), a "time": "redis"
// limiter at the engine's time, and wait mode as try mode (each request decided once).
// Throws InputError for an unknown limiter or a request the schedule does not have (naming
// them), RedisError when Redis fails, Interrupted when an interrupt is requested
// (interrupt_flag.h) while it walks the schedule.
Explanation explainDecision(const Scenario& scenario, const QString& limiterName,
                            const ExplainTarget& target, RedisRouter& router);
// The same for the request of schedule index `index` (explainedRequest's answer): the schedule
// is walked once, as it is decided.
Explanation explainRequest(const Scenario& scenario, const QString& limiterName, qint64 index,
                           RedisRouter& router);

// The checks explainDecision makes before it touches Redis, for callers that check input
// first: the limiter of that name, and the index of the request `target` names. Both throw
// InputError naming what is wrong.
const LimiterSpec& explainedLimiter(const Scenario& scenario, const QString& limiterName);
qint64 explainedRequest(const Scenario& scenario, const ExplainTarget& target);

}  // namespace ratelab
