#pragma once

#include "stats/error_cause.h"

namespace ratelab {

class RedisError;

// The cause a failed decision is counted by, from the RedisError that failed it: the error's
// cause() when it names one (a connection cause, a sentinel cause, or an error word of the
// server's such as WRONGPASS), else by its kind. The request loop (traffic/decision_batch.*),
// the worker's connect and the bench count failures with it.
ErrorCause errorCauseOf(const RedisError& error);

}  // namespace ratelab
