#pragma once

#include <stdexcept>
#include <string>

namespace ratelab {

// A failure talking to Redis. Connection-level kinds mean the connection is unusable and
// must be re-established; Reply means Redis answered with an error or with something the
// caller cannot use (the connection itself is still fine).
class RedisError : public std::runtime_error {
public:
    enum class Kind { Connect, Io, Timeout, Protocol, Reply };

    RedisError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}

    Kind kind() const { return kind_; }
    bool connectionBroken() const { return kind_ != Kind::Reply; }

private:
    Kind kind_;
};

}  // namespace ratelab
