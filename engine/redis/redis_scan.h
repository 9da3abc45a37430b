#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "redis/redis_connection.h"

namespace ratelab {

// `text` with SCAN MATCH's glob characters (* ? [ ] \) escaped, so that it matches only itself.
std::string escapeGlob(const std::string& text);

// Walks SCAN MATCH `pattern` on one connection (one node of a cluster) and hands each batch of
// keys to `batch`. Read-only. Every reply is checked; an error reply, a reply of the wrong
// shape or a cursor that never comes back to 0 throws RedisError(Kind::Reply), its message
// starting with `context`. Once RedisConnection::interrupted(), the next page is not asked for:
// RedisError(Kind::Timeout, cause "interrupted"); before `goOnUntil` it still is (a cleanup that
// runs after an interrupt, for a bounded time).
void scanEach(RedisConnection& connection, const std::string& pattern,
              const std::function<void(std::vector<std::string>&)>& batch,
              const std::string& context = std::string(),
              std::chrono::steady_clock::time_point goOnUntil = {});

}  // namespace ratelab
