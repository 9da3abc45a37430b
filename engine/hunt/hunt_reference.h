#pragma once

#include <QString>

#include <optional>

#include "limiters/limiter_spec.h"

namespace ratelab {

// `ratelab hunt --reference REF.json`: a built-in limiter spec without "name" and "scope", which
// decides with the hunted limiter's scope (and a scratch name of its own, as every limiter a
// hunt decides). Errors are InputErrors naming the file and the JSON path.
LimiterSpec loadHuntReference(const QString& path, const LimiterSpec& limiter);
// The same from its JSON text (the window's Hunt dialog); errors name the JSON path.
LimiterSpec parseHuntReference(const QByteArray& json, const LimiterSpec& limiter);

// The reference `agree` compares a script limiter with when no --reference is given: the
// script's own "reference" (named "reference", the script limiter's scope); none without one.
// The hunted copy then drops it (`limiter` loses its reference): the hunt decides it beside the
// limiter as a limiter of its own.
std::optional<LimiterSpec> takeScriptReference(LimiterSpec& limiter);

// A limiter the hunt decides in virtual time: one on Redis's own clock ("time": "redis")
// decides at a time no trace sets. An InputError naming `file` and $.time otherwise.
void refuseRedisTime(const LimiterSpec& spec, const QString& file);

}  // namespace ratelab
