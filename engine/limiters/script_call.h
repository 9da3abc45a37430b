#pragma once

#include <QtGlobal>
#include <string>
#include <vector>

namespace ratelab {

// A script's keys or arguments, as sent (the same type as RedisArgs).
using ScriptArgs = std::vector<std::string>;

// How a script invocation looks: keys (all sharing one hash tag) and arguments, and what a
// compact reply leaves out because the engine knows it already (see Limiter::parseReply).
struct ScriptCall {
    ScriptArgs keys;
    ScriptArgs args;
    qint64 atMs = 0;            // the time the request decides at
    qint64 refusedRetryMs = 0;  // a refusal's wait (fixed window: to the window's end; -1 never)
    // > 0: an integer reply is packed with this radix (above any remaining) and carries the
    // wait and the delay itself (every limiter but the fixed window; see Limiter::parseReply).
    qint64 radix = 0;
    qint64 permits = 0;  // the request's (for replies the limiter decodes itself)
    // The interval the decision counts in when the engine knows it before the reply (the fixed
    // window's calendar window); 0 and 0 otherwise.
    qint64 fromMs = 0;
    qint64 toMs = 0;
    // The Redis Cluster hash slot the call goes to; -1: the limiter's (Limiter::slot(), every
    // built-in's keys share its hash tag). A script limiter's keys come from the user's
    // templates: the slot of its call's first key.
    int slot = -1;
};

}  // namespace ratelab
