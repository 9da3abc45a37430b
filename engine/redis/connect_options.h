#pragma once

#include <chrono>

#include "redis/resp_guard.h"

namespace ratelab {

struct ConnectOptions {
    std::chrono::milliseconds connectTimeout{2000};
    // The deadline of one command (all its reads and writes together, not each read), or of a
    // whole pipeline when the caller sets one with setDeadline().
    std::chrono::milliseconds commandTimeout{2000};
    // A connection idle for longer is checked with PING before its next command and made
    // again if the server dropped it (a server's `timeout` closes idle clients).
    std::chrono::milliseconds idleCheck{500};
    // The most one reply may hold: a reply announcing more is a protocol error the moment its
    // header arrives (redis/resp_guard.h).
    ReplyLimits replyLimits{};
};

}  // namespace ratelab
