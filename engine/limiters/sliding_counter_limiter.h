#pragma once

#include "limiters/limiter.h"

namespace ratelab {

// The sliding-window counter (Cloudflare, upstash ratelimit): the current and previous
// epoch-aligned windows' counts, the previous one weighted by how much of it still overlaps the
// sliding window. One integer string per window and scope key,
// {name}:sc:<config fingerprint>:<window index>[:client], that INCRBY updates in place
// (sliding_counter.lua); the engine works out remaining and the wait from the counts.
class SlidingCounterLimiter final : public Limiter {
public:
    SlidingCounterLimiter(LimiterSpec spec, LimiterOptions options);

    const LuaScript& script() const override;
    ScriptCall prepare(const Request& request) const override;
    qint64 nextKeysMs(qint64 nowMs) const override;  // the start of the next window

    // {name}:sc:<fingerprint>:<window>[:client]; the prefix is "{name}:sc:<fingerprint>:".
    std::string windowKey(qint64 window, const QString& client) const;
    const std::string& windowKeyPrefix() const { return windowPrefix_; }
    // A window key's value counts grants; a closed window's (one that has a successor) is
    // kClosedMark above its count.
    static constexpr qint64 kClosedMark = qint64(1) << 50;
    // A window key's value as the state panel shows it: "3", or a closed window's
    // "3 · closed (stored 2^50 + 3)"; anything else as it is.
    static QString describeCount(const QString& stored);
    // A window key's value is shown with describeCount.
    QString describeValue(const std::string& key, const QString& value) const override;
    // floor(prev x (W - offset) / W) + cur: the estimate at `offset` ms into the current window.
    qint64 estimate(qint64 cur, qint64 prev, qint64 offset) const;

protected:
    std::optional<Decision> decodeOwnReply(ReplyView reply, const ScriptCall& call) const override;
    void explain(Decision* decision, const ScriptCall& call) const override;

private:
    // Window `window`'s key and the one before (the client converted once).
    ScriptArgs windowKeys(qint64 window, const QString& client) const;
    // The decision from the script's packed counts, decided at atMs.
    Decision decodePacked(long long packed, qint64 atMs, qint64 permits) const;
    // The smallest whole wait w >= 1 after which `permits` would pass with no other request.
    qint64 retryAfter(qint64 cur, qint64 prev, qint64 offset, qint64 permits) const;

    std::string limitArg_, windowArg_, configArg_;  // limit, window_ms, "limit/window_ms"
    std::string stateTtl_;                          // a window key's TTL, ms as text
    std::string windowPrefix_;
};

}  // namespace ratelab
