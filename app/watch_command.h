#pragma once

#include <QStringList>

namespace ratelab::cli {

// ratelab watch --redis URL --redisson NAME [--interval-ms N] [--count N]
// Polls a live Redisson RRateLimiter read-only and prints a line per poll (a line per client
// for PER_CLIENT). Needs a URL (--redis or REDIS_URL): a managed local server holds no
// Redisson limiter. Exit: 0 done (after --count polls, or on SIGINT/SIGTERM); 2 bad input,
// including a limiter that does not exist at the first poll; 3 Redis unreachable or failed,
// or the limiter's keys hold something Redisson would not write.
int watchCommand(const QStringList& args);

}  // namespace ratelab::cli
