#include "limiters/gcra_limiter.h"

#include "limiters/request_ids.h"

namespace ratelab {
namespace lua {
extern const char* const kLua_gcra;
}

GcraLimiter::GcraLimiter(LimiterSpec spec, LimiterOptions options)
    : Limiter(std::move(spec), options),
      configArgs_{std::to_string(this->spec().rate), std::to_string(this->spec().periodMs),
                  std::to_string(this->spec().burst),
                  std::to_string(this->spec().rate) + '/' + std::to_string(this->spec().periodMs) +
                      '/' + std::to_string(this->spec().burst)},
      // A grant leaves TAT at most tau = burst x period / rate ahead of now: the state may go
      // after that (absent = now), and a lagging worker still finds it for the grace.
      stateTtl_(ttlArg(ceilDiv(this->spec().burst * this->spec().periodMs, this->spec().rate) + 1 +
                       kStateGraceMs)) {}

const LuaScript& GcraLimiter::script() const {
    static const LuaScript kScript(lua::kLua_gcra);
    return kScript;
}

std::string GcraLimiter::stateKey(const QString& client) const {
    return scopedKey("tat", client);
}

ScriptCall GcraLimiter::prepare(const Request& request) const {
    checkPermits(request.permits);
    return packedCall({stateKey(request.client)},
                      {configArgs_[0], configArgs_[1], configArgs_[2],
                       std::to_string(request.permits), nowArg(request), stateTtl_, configArgs_[3]},
                      request, spec().burst);
}

}  // namespace ratelab
