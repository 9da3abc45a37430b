#pragma once

#include <QString>
#include <string>
#include <vector>

namespace ratelab {

class Limiter;
class RedisConnection;

// Shared by the descriptors' state readers (readChartState) and the key listing.

// Every key matching `pattern` (SCAN, read-only), sorted by name without duplicates.
std::vector<std::string> scanKeys(RedisConnection& connection, const std::string& pattern);
// The SCAN pattern of the limiter's keys that start with "{name}:" + `suffix` (the name's glob
// characters escaped; `suffix` taken as a pattern).
std::string keyPattern(const Limiter& limiter, const std::string& suffix);
// `key` without `prefix`; empty when it does not start with it.
std::string suffixOf(const std::string& key, const std::string& prefix);
QString fromStd(const std::string& text);

}  // namespace ratelab
