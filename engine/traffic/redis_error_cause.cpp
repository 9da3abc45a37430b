#include "traffic/redis_error_cause.h"

#include "redis/redis_error.h"

namespace ratelab {

ErrorCause errorCauseOf(const RedisError& error) {
    const std::string& cause = error.cause();
    if (!cause.empty()) {
        const ErrorCause named = errorCauseNamed(cause);
        if (named != ErrorCause::Other) {
            return named;
        }
        return errorCauseOfReply(cause);  // an error word of the server's (AUTH, SELECT)
    }
    switch (error.kind()) {
        case RedisError::Kind::Connect:
            return ErrorCause::ConnectionFailed;
        case RedisError::Kind::Io:
            return ErrorCause::ConnectionLost;
        case RedisError::Kind::Timeout:
            return ErrorCause::Timeout;
        case RedisError::Kind::Protocol:
            return ErrorCause::ProtocolError;
        case RedisError::Kind::Reply:
            return ErrorCause::BadReply;
    }
    return ErrorCause::Other;
}

}  // namespace ratelab
