#pragma once

#include <QString>
#include <QStringList>
#include <QVector>
#include <optional>
#include <vector>

#include "limiters/algorithm.h"
#include "limiters/limiter.h"
#include "limiters/limiter_state.h"

namespace ratelab {

// Which request of a scenario's schedule to explain: the N-th (0-based, schedule order), or the
// one nearest a time (ties: the earlier), of one client when given.
struct ExplainTarget {
    qint64 index = -1;  // >= 0: this request
    qint64 atMs = 0;    // else: nearest this time (epoch ms, or ms since the run's start when
                        // below the start)
    QString client;     // with atMs: only this client's requests
};

// A counterfactual of one numeric parameter: the value of that field alone nearest its own that
// grants the request from the same state, found by deciding again on Redis.
struct Counterfactual {
    QString path;  // "rate", "burst", "rules[1].limit"
    qint64 current = 0;
    bool moreAdmits = true;  // the value found is a minimum (a rate, a limit) or a maximum (a
                             // window, an interval)
    bool found = false;
    qint64 value = 0;  // when found
    QString note;      // why not found, or how far the search went
};

// Whose grants stood in the interval that counted against the request (global limiters).
struct ClientUse {
    QString client;
    qint64 permits = 0;
};

// A script limiter's reference deciding the same request (its "reference"): the reference as
// it decided (named as the script limiter's reference), its decision and reason.
struct ReferenceDecision {
    LimiterSpec spec;
    Decision decision;
    QString reason;  // Algorithm::reasonText
};

// One decision explained (decision_explainer.h).
struct Explanation {
    QString scenario;
    LimiterSpec spec;     // the user's limiter (its name, not the scratch one)
    qint64 index = 0;     // the request's place in the schedule
    qint64 requests = 0;  // requests of the schedule up to and including it
    qint64 runMs = 0;     // its time on the run's clock, ms since the run's start
    qint64 startEpochMs = 0;
    Request request;  // the limiter's now (skew included), client, permits
    Decision decision;
    qint64 decideUs = 0;  // how long the decision itself took (its script call)
    QString reason;       // Algorithm::reasonText
    // A script limiter: its reply as Redis gave it ("[1, 9, 0]"; decision.reason.rawReply),
    // and with a "reference" that reference's decision of the same request.
    QString scriptReply;
    std::optional<ReferenceDecision> reference;
    QVector<KeyState> stateBefore;  // the decision's keys, named as the limiter's own
    QVector<KeyState> stateAfter;
    std::vector<HeaderQuota> quotas;
    QStringList headers;     // "RateLimit-Policy: ...", "RateLimit: ...", "Retry-After: ..."
    qint64 passesAtMs = -1;  // the earliest time this request alone is granted; -1 never
    std::vector<Counterfactual> counterfactuals;
    std::vector<ClientUse> capacityUsedBy;  // global limiters; busiest first
    QStringList notes;  // what the explanation assumed ("explained on a virtual clock")
};

}  // namespace ratelab
