#include "redis/redis_reply.h"

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
