#pragma once

#include <stdexcept>
#include <string>

namespace ratelab {

// A failure talking to Redis. Connection-level kinds mean the connection is unusable and
// must be re-established; Reply means Redis answered with an error or with something the
// caller cannot use (the connection itself is still fine). `cause` names why in a word or
// two when it is known ("connection refused", "timeout", "WRONGPASS"...): what failed
// decisions are counted by (stats/error_cause.h; traffic/redis_error_cause.h maps an error
// to its cause).
class RedisError : public std::runtime_error {
public:
    enum class Kind { Connect, Io, Timeout, Protocol, Reply };

    RedisError(Kind kind, const std::string& message, std::string cause = {})
        : std::runtime_error(message), kind_(kind), cause_(std::move(cause)) {}

    Kind kind() const { return kind_; }
    bool connectionBroken() const { return kind_ != Kind::Reply; }
    const std::string& cause() const { return cause_; }

private:
    Kind kind_;
    std::string cause_;
};

}  // namespace ratelab
