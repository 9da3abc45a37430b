#include "redis/redis_reply.h"

#include <cstdlib>
#include <cstring>

#include "redis/redis_error.h"

namespace ratelab {

const char* replyTypeName(int type) {
    switch (type) {
        case REDIS_REPLY_STRING:
            return "string";
        case REDIS_REPLY_ARRAY:
            return "array";
        case REDIS_REPLY_INTEGER:
            return "integer";
        case REDIS_REPLY_NIL:
            return "nil";
        case REDIS_REPLY_STATUS:
            return "status";
        case REDIS_REPLY_ERROR:
            return "error";
        default:
            return "unknown";
    }
}

void throwIfError(const redisReply* reply, const char* context) {
    if (reply == nullptr) {
        throw RedisError(RedisError::Kind::Protocol, std::string(context) + ": no reply");
    }
    if (reply->type == REDIS_REPLY_ERROR) {
        throw RedisError(RedisError::Kind::Reply,
                         std::string(context) + ": " + std::string(reply->str, reply->len));
    }
}

bool replyIntegers(const redisReply* reply, const char* prefix, long long* out, std::size_t count) {
    if (reply == nullptr ||
        (reply->type != REDIS_REPLY_STRING && reply->type != REDIS_REPLY_STATUS)) {
        return false;
    }
    const std::size_t prefixLength = std::strlen(prefix);
    if (reply->len <= prefixLength || std::strncmp(reply->str, prefix, prefixLength) != 0) {
        return false;
    }
    const char* at = reply->str + prefixLength;
    const char* const last = reply->str + reply->len;
    for (std::size_t i = 0; i < count; ++i) {
        char* end = nullptr;
        out[i] = std::strtoll(at, &end, 10);
        if (end == at || end > last) {
            return false;  // not a number
        }
        if (i + 1 < count) {
            if (end == last || *end != ' ') {
                return false;
            }
            at = end + 1;
        } else if (end != last) {
            return false;  // more than `count` fields, or garbage after the last
        }
    }
    return true;
}

long long replyInteger(const redisReply* reply, const char* context) {
    throwIfError(reply, context);
    if (reply->type != REDIS_REPLY_INTEGER) {
        throw RedisError(
            RedisError::Kind::Reply,
            std::string(context) + ": expected an integer, got " + replyTypeName(reply->type));
    }
    return reply->integer;
}

std::string replyString(const redisReply* reply, const char* context) {
    throwIfError(reply, context);
    if (reply->type != REDIS_REPLY_STRING && reply->type != REDIS_REPLY_STATUS) {
        throw RedisError(
            RedisError::Kind::Reply,
            std::string(context) + ": expected a string, got " + replyTypeName(reply->type));
    }
    return std::string(reply->str, reply->len);
}

void expectStatusOk(const redisReply* reply, const char* context) {
    if (replyString(reply, context) != "OK") {
        throw RedisError(RedisError::Kind::Reply, std::string(context) + ": expected OK");
    }
}

}  // namespace ratelab
