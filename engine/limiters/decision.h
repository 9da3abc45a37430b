#pragma once

#include <QString>
#include <QtGlobal>
#include <string>

namespace ratelab {

// One request to a limiter: at nowMs (the engine's clock, real or virtual), from client, asking
// for permits (>= 1).
struct Request {
    qint64 nowMs = 0;
    QString client;
    qint64 permits = 1;
    // time: redis: nowMs was read from Redis's clock (the retry after a "retime" answer):
    // decide at it as given instead of reading TIME again.
    bool nowFromRedis = false;
    // The request's place in the schedule (a trace's row), or -1: names what a grant holds
    // until it is released (the concurrency limiter's slots, "<id in hex>[:<i>]"); -1 draws a
    // random name, which no release can name.
    qint64 id = -1;
};

// Why a decision went the way it did, from what the script saw (its reply; never recomputed
// from a model): the rule that decided and what counted against it. Filled by parseReply for
// every decision; Algorithm::reasonText says it in a sentence. Fields that do not apply to an
// algorithm keep their defaults.
struct DecisionReason {
    qint64 permits = 0;  // the request's
    // The deciding rule (sliding log: for a refusal the violated rule with the largest wait,
    // ties to the lowest index; for a grant the rule with the least room left after it); 0 for
    // single-rule limiters.
    int rule = 0;
    qint64 limit = 0;  // that rule's limit, the window's or bucket's rate, GCRA's burst, the
                       // counter's limit, the leaky bucket's burst + 1 (requests)
    // What stood against the request just before it, in permits: the rule's or window's count,
    // the permits the bucket held (rate - available), the counter's estimate, the leaky
    // bucket's water level (rounded up); -1 when the reply does not carry it.
    qint64 counted = -1;
    // The interval that counted, epoch ms (the limiter's time): the rule's (now - window, now],
    // the calendar window [start, end), the bucket's (now - interval, now], the counter's
    // current window; 0 and 0 when none.
    qint64 fromMs = 0;
    qint64 toMs = 0;
    qint64 releaseAtMs = -1;  // token bucket, refused: when enough permits are back
    // GCRA: times in units of 1/unitsPerMs ms (exact); tat is max(TAT, now) before the request,
    // allowAt = tat + permits x T - tolerance. hasTat false: the reply did not carry it.
    bool hasTat = false;
    qint64 tat = 0;
    qint64 tolerance = 0;
    qint64 allowAt = 0;
    qint64 unitsPerMs = 1;
    // Sliding-window counter: the previous and current windows' counts, the previous window's
    // weight in per mille of (window - offset) / window, and the estimate.
    qint64 previous = -1;
    qint64 current = -1;
    qint64 weightPerMille = 0;
    qint64 estimate = -1;
    // Leaky bucket: the level the request found and the capacity, in milli-requests.
    qint64 levelMilli = -1;
    qint64 capacityMilli = 0;
    // A script limiter's reply as Redis gave it ("[1, 9, 1000]", "nil"), when its limiter keeps
    // them (LimiterOptions::keepRawReplies: explanations); empty otherwise.
    std::string rawReply;
};

// The answer (docs/architecture.md, "Limiter semantics the code depends on").
struct Decision {
    bool allowed = false;
    qint64 retryAfterMs = 0;   // rejections: exact wait until this request would pass; -1 never
    qint64 remaining = 0;      // permits left after the decision
    qint64 atMs = 0;           // the time the script decided at (see below)
    bool configReset = false;  // this decision found a changed config and reset the counters
    qint64 delayMs = 0;        // accepted: how long the limiter holds the request before it
                               // proceeds (the leaky bucket without nodelay; 0 for the others)
    // The concurrency limiter: leases this decision found run out and removed (slots whose
    // holders never released them in time).
    qint64 expiredLeases = 0;
    // Whether the decision called Redis: false when a gateway decided it from its own state
    // (a cached refusal, a batched window's local count).
    bool calledRedis = true;
    DecisionReason reason;
};

}  // namespace ratelab
