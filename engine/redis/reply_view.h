#pragma once

#include <cstddef>
#include <string>
#include <string_view>

struct redisReply;  // hiredis's reply, known only to engine/redis

namespace ratelab {

// A read-only look at one reply (or one element of an array reply) for code that decodes
// replies without knowing the client library: the limiters' reply parsers. Cheap to copy;
// valid while the reply it looks at lives. A null reply reads as Type::Missing.
class ReplyView {
public:
    enum class Type { Missing, Nil, Integer, String, Status, Error, Array, Other };

    explicit ReplyView(const redisReply* reply) : reply_(reply) {}

    Type type() const;
    bool is(Type t) const { return type() == t; }
    // The integer of an integer reply (0 otherwise).
    long long integer() const;
    // The text of a string, status or error reply (empty otherwise).
    std::string_view text() const;
    // An array's elements (0 for anything else) and one of them.
    std::size_t size() const;
    ReplyView element(std::size_t i) const;
    // Readable name of the type ("integer", "array", ...), for messages.
    const char* typeName() const;
    // A text reply "<prefix><n1> <n2> ... <nk>" of exactly `count` integers into out[0..count)
    // (redis/redis_reply.h's replyIntegers).
    bool integers(const char* prefix, long long* out, std::size_t count) const;
    // Throws RedisError(Kind::Reply) with the server's text, naming `context`, if this is an
    // error reply or missing.
    void throwIfError(const std::string& context) const;

    const redisReply* raw() const { return reply_; }

private:
    const redisReply* reply_;
};

}  // namespace ratelab
