#pragma once

#include "limiters/calendar_window.h"
#include "limiters/limiter.h"

namespace ratelab {

// At most `rate` permits per natural calendar window (calendar_window.h); one counter per
// window keyed by the window's start and a fingerprint of the config
// ({name}:fw:<fingerprint>:<start>[:<client>]), so a changed rate/interval/unit/zone counts in
// new counters and the old ones are deleted (fixed_window.lua). The script answers one integer
// (a one-permit request's: the window's count, which the engine compares with the rate); the
// engine adds the time and a refusal's wait to the window's end (ScriptCall).
class FixedWindowLimiter final : public Limiter {
public:
    FixedWindowLimiter(LimiterSpec spec, LimiterOptions options);

    const LuaScript& script() const override;
    ScriptCall prepare(const Request& request) const override;
    qint64 nextKeysMs(qint64 nowMs) const override;  // the end of nowMs's window

    const CalendarWindows& windows() const { return windows_; }
    std::string configKey() const;  // {name}:config {fingerprint, rate} (fixed_window.lua)
    std::string counterKey(qint64 windowStartMs, const QString& client) const;
    std::optional<CountedWindow> countedWindow(const Request& request) const override;

    // A full window's counter stands above the rate (refusals are not taken back): "12 · 10
    // granted (refusals counted above the rate)".
    QString describeValue(const std::string& key, const QString& value) const override;

protected:
    // A one-permit request's reply: 2 x the window's count + reset (fixed_window.lua); notes
    // that a call with the config hash has checked the config.
    std::optional<Decision> decodeOwnReply(ReplyView reply, const ScriptCall& call) const override;
    void explain(Decision* decision, const ScriptCall& call) const override;

private:
    // The keys of one decision: the counter, and the config hash until a decision of this
    // limiter has checked the config (fixed_window.lua).
    ScriptArgs decisionKeys(qint64 windowStartMs, const QString& client) const;

    CalendarWindows windows_;
    mutable std::atomic<bool> configChecked_{false};
    std::string configKey_;
    std::string rateArg_;
    std::string counterPrefix_;  // {name}:fw:<fingerprint of rate|interval|unit|timezone>:
};

}  // namespace ratelab
