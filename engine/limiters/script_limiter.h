#pragma once

#include <memory>

#include "limiters/limiter.h"
#include "limiters/script_spec.h"
#include "redis/lua_script.h"

namespace ratelab {

// A limiter of type "script": the user's Lua, called exactly as their code calls it — the
// keys and arguments of its templates filled per request, SCRIPT LOAD once (loadScripts),
// EVALSHA per decision, EVAL on NOSCRIPT — and its reply read through the spec's mapping. Its
// keys are the user's, so each call goes to the slot of its own first key (ScriptCall::slot),
// and only keys matching its reset patterns are ever deleted. With a "reference", a built-in
// limiter named referenceName() decides every request too (DecisionPath), on its own keys.
class ScriptLimiter final : public Limiter {
public:
    ScriptLimiter(LimiterSpec spec, LimiterOptions options);
    ~ScriptLimiter() override;

    const ScriptSpec& scriptSpec() const { return *spec().script; }
    const LuaScript& script() const override { return script_; }
    ScriptCall prepare(const Request& request) const override;
    const Limiter* reference() const override { return reference_.get(); }
    bool userScript() const override { return true; }

    // The key a template names for `client` ("" for a global limiter: "global"), with the
    // prefix of a renamed copy: the state key's, and the keys a call names.
    std::string keyFor(const ScriptTemplate& key, const QString& client) const;
    // The patterns of reset(): the spec's "reset", or each key template with {client} as *
    // (a global limiter: "global"), glob characters of the rest escaped; a renamed copy's
    // prefix before each.
    std::vector<std::string> keyPatterns() const override { return patterns_; }
    bool keysInOneSlot() const override { return false; }
    using Limiter::reset;
    long long reset(RedisConnection& connection) const override;
    long long reset(RedisRouter& router,
                    std::chrono::steady_clock::time_point goOnUntil) const override;
    void loadScripts(RedisRouter& router) const override;

protected:
    std::optional<Decision> decodeOwnReply(ReplyView reply, const ScriptCall& call) const override;
    void explain(Decision* decision, const ScriptCall& call) const override;
    std::string errorContext() const override;

private:
    // The text of every placeholder a template of this limiter names, for one request.
    void fill(const Request& request, ScriptTemplate::Values& values) const;

    LuaScript script_;
    std::unique_ptr<Limiter> reference_;
    std::string name_;
    std::string prefix_;  // "<name>:" for a renamed copy (ScriptSpec::declaredName), else ""
    std::vector<std::string> patterns_;
    bool uses_[ScriptTemplate::kSlots] = {};
};

}  // namespace ratelab
