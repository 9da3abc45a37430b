#include "limiters/sliding_counter_limiter.h"

#include "limiters/floor_div.h"
#include "limiters/request_ids.h"

namespace ratelab {
namespace lua {
extern const char* const kLua_sliding_counter;
}

SlidingCounterLimiter::SlidingCounterLimiter(LimiterSpec spec, LimiterOptions options)
    : Limiter(std::move(spec), options),
      configArgs_{std::to_string(this->spec().limit), std::to_string(this->spec().windowMs),
                  std::to_string(this->spec().limit) + '/' + std::to_string(this->spec().windowMs)},
      // A window's counts matter until the next window ends; a lagging worker finds them for
      // the grace.
      stateTtl_(ttlArg(2 * this->spec().windowMs + kStateGraceMs)) {}

const LuaScript& SlidingCounterLimiter::script() const {
    static const LuaScript kScript(lua::kLua_sliding_counter);
    return kScript;
}

std::string SlidingCounterLimiter::stateKey(const QString& client) const {
    return scopedKey("sc", client);
}

ScriptCall SlidingCounterLimiter::prepare(const Request& request) const {
    checkPermits(request.permits);
    RedisArgs args{configArgs_[0],  configArgs_[1], std::to_string(request.permits),
                   nowArg(request), stateTtl_,      configArgs_[2]};
    if (!readsRedisTime(request)) {
        // The window and the offset in it, which the script would otherwise work out (and
        // convert its window back to text to write it).
        const qint64 window = floorDiv(request.nowMs, spec().windowMs);
        args.push_back(std::to_string(window));
        args.push_back(std::to_string(request.nowMs - window * spec().windowMs));
    }
    return packedCall({stateKey(request.client)}, std::move(args), request, spec().limit);
}

}  // namespace ratelab
