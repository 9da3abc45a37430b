#include "limiters/state_keys.h"

#include <algorithm>

#include "limiters/limiter.h"
#include "redis/redis_scan.h"

namespace ratelab {

std::vector<std::string> scanKeys(RedisConnection& c, const std::string& pattern) {
    std::vector<std::string> names;
    scanEach(c, pattern, [&](std::vector<std::string>& keys) {
        names.insert(names.end(), keys.begin(), keys.end());
    });
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

std::string keyPattern(const Limiter& limiter, const std::string& suffix) {
    std::string base = limiter.scanPattern();
    base.pop_back();  // the trailing '*'
    return base + suffix;
}

std::string suffixOf(const std::string& key, const std::string& prefix) {
    return key.compare(0, prefix.size(), prefix) == 0 ? key.substr(prefix.size()) : std::string();
}

QString fromStd(const std::string& text) {
    return QString::fromUtf8(text.data(), int(text.size()));
}

}  // namespace ratelab
