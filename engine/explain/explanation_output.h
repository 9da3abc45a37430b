#pragma once

#include <QJsonObject>
#include <QString>

#include "explain/explanation.h"

namespace ratelab {

// `ratelab explain`'s output: the decision and its reason with the numbers filled in, the
// limiter's keys before and after (type, TTL, value; long values summarised), the headers a
// server would send, the counterfactuals and, for a global limiter, whose grants counted.
QString explanationText(const Explanation& explanation);

// How the counterfactuals are found, said alike by `ratelab explain` and the window: "each
// setting alone, decided again on Redis from the same state".
QString counterfactualBasisText();

// The same as one JSON object: allowed, rule, reason, retry_after_ms, remaining, delay_ms,
// passes_at_ms (absolute ms, like trace times; -1 never), request {index, t_ms, run_ms, client,
// permits}, reason_details, state_before and state_after ([{key, type, ttl_ms, size, value |
// fields | members}]), headers {name: value}, counterfactuals {path: value} (the values found),
// counterfactual_notes {path: why none}, capacity_used_by [{client, permits}], notes.
QJsonObject explanationJson(const Explanation& explanation);

}  // namespace ratelab
