#include "limiters/leaky_bucket_limiter.h"

#include "limiters/request_ids.h"

namespace ratelab {
namespace lua {
extern const char* const kLua_leaky_bucket;
}

LeakyBucketLimiter::LeakyBucketLimiter(LimiterSpec spec, LimiterOptions options)
    : Limiter(std::move(spec), options),
      configArgs_{std::to_string(this->spec().rate), std::to_string(this->spec().periodMs),
                  std::to_string(this->spec().burst), this->spec().nodelay ? "1" : "0",
                  std::to_string(this->spec().rate) + '/' + std::to_string(this->spec().periodMs) +
                      '/' + std::to_string(this->spec().burst)},
      // A grant leaves at most 1000 x burst milli-requests, which drain (to the level a new key
      // has) in ceil((burst + 1) x period / rate) ms; a lagging worker finds it for the grace.
      stateTtl_(
          ttlArg(ceilDiv((this->spec().burst + 1) * this->spec().periodMs, this->spec().rate) + 1 +
                 kStateGraceMs)) {}

const LuaScript& LeakyBucketLimiter::script() const {
    static const LuaScript kScript(lua::kLua_leaky_bucket);
    return kScript;
}

std::string LeakyBucketLimiter::stateKey(const QString& client) const {
    return scopedKey("lb", client);
}

ScriptCall LeakyBucketLimiter::prepare(const Request& request) const {
    checkPermits(request.permits);
    return packedCall({stateKey(request.client)},
                      {configArgs_[0], configArgs_[1], configArgs_[2], configArgs_[3],
                       std::to_string(request.permits), nowArg(request), stateTtl_, configArgs_[4]},
                      request, spec().burst);
}

}  // namespace ratelab
