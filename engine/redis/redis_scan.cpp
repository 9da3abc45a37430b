#include "redis/redis_scan.h"

#include "redis/redis_error.h"

namespace ratelab {

std::string escapeGlob(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
            out.push_back('\\');
        }
        out.push_back(c);
    }
    return out;
}

void scanEach(RedisConnection& connection, const std::string& pattern,
              const std::function<void(std::vector<std::string>&)>& batch,
              const std::string& context, std::chrono::steady_clock::time_point goOnUntil) {
    // COUNT 1000 a round: a million rounds would be a billion keys, i.e. a server that never
    // ends the iteration.
    constexpr int kMaxRounds = 1'000'000;
    std::string cursor = "0";
    std::vector<std::string> keys;
    int rounds = 0;
    do {
        // A keyspace of millions of keys takes thousands of pages: an interrupt ends the walk
        // between two of them, not after the last.
        if (RedisConnection::interrupted() && std::chrono::steady_clock::now() >= goOnUntil) {
            throw RedisError(RedisError::Kind::Timeout, context + "SCAN: interrupted",
                             "interrupted");
        }
        RedisReply reply = connection.command({"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"});
        throwIfError(reply.get(), (context + "SCAN").c_str());
        if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2 ||
            reply->element[1]->type != REDIS_REPLY_ARRAY) {
            throw RedisError(RedisError::Kind::Reply, context + "SCAN: unexpected reply");
        }
        cursor = replyString(reply->element[0], "SCAN cursor");
        keys.clear();
        const redisReply* found = reply->element[1];
        for (std::size_t i = 0; i < found->elements; ++i) {
            keys.push_back(replyString(found->element[i], "SCAN key"));
        }
        batch(keys);
        if (++rounds > kMaxRounds) {
            throw RedisError(RedisError::Kind::Reply, context + "SCAN does not finish");
        }
    } while (cursor != "0");
}

}  // namespace ratelab
