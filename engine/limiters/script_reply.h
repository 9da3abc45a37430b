#pragma once

#include <optional>
#include <string>

#include "limiters/decision.h"
#include "limiters/script_spec.h"
#include "redis/reply_view.h"

namespace ratelab {

// A script limiter's reply read through its mapping ("reply"; docs/scenarios.md, "Script
// limiters"): allowed, retry_after_ms (-1 when the mapping names none for a refusal) and
// remaining (-1 when it names none). A reply that fits the mapping nowhere: nothing, and
// `problem` says what came where ("element 1 of a 2-element array is a string \"x\", where
// reply.retry_after_ms expects an integer"). Error replies are the caller's.
std::optional<Decision> decodeScriptReply(ReplyView reply, const ReplyMapping& mapping,
                                          std::string* problem);

// The reply as text, for messages and explanations: 7, nil, "text", +OK, -ERR …, [1, 9, 1000];
// cut at about `maxChars`.
std::string describeReply(ReplyView reply, std::size_t maxChars = 200);

}  // namespace ratelab
