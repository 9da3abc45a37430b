#pragma once

#include <hiredis/hiredis.h>

#include <cstddef>
#include <memory>
#include <string>

namespace ratelab {

// Owns one hiredis reply tree (freeReplyObject on destruction).
struct RedisReplyDeleter {
    void operator()(redisReply* reply) const { freeReplyObject(reply); }
};
using RedisReply = std::unique_ptr<redisReply, RedisReplyDeleter>;

// Readable name of a reply type, for error messages ("integer", "array", ...).
const char* replyTypeName(int type);

// Checked accessors: each throws RedisError(Kind::Reply) naming `context` when the reply is
// not of the expected type. Redis on the other end is not trusted.
long long replyInteger(const redisReply* reply, const char* context);
std::string replyString(const redisReply* reply, const char* context);  // string or status
void expectStatusOk(const redisReply* reply, const char* context);
// Throws RedisError(Kind::Reply) with the server's text if the reply is an error.
void throwIfError(const redisReply* reply, const char* context);
// A text reply (string or status) "<prefix><n1> <n2> ... <nk>" of exactly `count` integers,
// into out[0..count): the scripts' few text replies ("retime <ms>", "at <ms> <packed>", ...).
// False for anything else, out then unspecified.
bool replyIntegers(const redisReply* reply, const char* prefix, long long* out, std::size_t count);

}  // namespace ratelab
