#pragma once

#include <QString>
#include <chrono>
#include <string>

#include "redis/redis_connection.h"
#include "url/redis_url.h"

namespace ratelab {

// One connection asks the sentinels at most this often; reconnects in between fail at once.
constexpr std::chrono::milliseconds kSentinelAskInterval{100};
// A connection to a primary asks its sentinel again this often (before a round of commands),
// and moves when the answer changed: a failover whose old primary is still up and still takes
// writes until the sentinels reconfigure it is noticed within this period.
constexpr std::chrono::milliseconds kSentinelRecheck{500};
// A sentinel gets at most this long to connect and to answer before the next one is asked.
constexpr std::chrono::milliseconds kSentinelTimeout{1000};

// What one sentinel said about the primary of url.masterName.
struct SentinelAnswer {
    QString sentinel;      // "host:port" of the sentinel asked
    bool reached = false;  // it answered at all
    bool known = false;    // it knows a primary by that name: host and port hold its address
    QString host;
    int port = 0;
    std::string problem;  // why not (unreachable, unknown name, odd reply), for messages
};

// Asks sentinel `index` of url.seeds with SENTINEL GET-MASTER-ADDR-BY-NAME (AUTH with the
// URL's sentinel_user/sentinel_password). Never throws for a sentinel that cannot be reached or
// answers oddly: that is in the answer.
SentinelAnswer askSentinel(const RedisUrl& url, int index, const ConnectOptions& options);
// The same on a connection to that sentinel that the caller keeps. Throws RedisError on I/O
// failure (the answer's problem holds the rest).
SentinelAnswer askSentinel(RedisConnection& sentinel, const QString& masterName);

// The first element of ROLE on `connection`: "master", "replica" (Redis says "slave"),
// "sentinel"; empty when the server refuses ROLE (an ACL user without it), so the caller cannot
// tell. Throws RedisError on I/O failure.
std::string roleOf(RedisConnection& connection);

}  // namespace ratelab
