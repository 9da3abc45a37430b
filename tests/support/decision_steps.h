#pragma once

#include <QVector>

#include "limiters/limiter.h"

namespace ratelab::test {

// One request of a hand-written sequence and the answer the design's formulas give for it.
struct DecisionStep {
    qint64 t = 0;
    qint64 permits = 1;
    bool allowed = false;
    qint64 retryAfterMs = 0;
    qint64 remaining = 0;
    qint64 delayMs = 0;
};
using DecisionSteps = QVector<DecisionStep>;

// Runs the steps in order (one scope key) against a fresh limiter on the fixture Redis and
// against its reference model; both must give every step's answer.
void expectSteps(const LimiterSpec& spec, const DecisionSteps& steps);

}  // namespace ratelab::test

Q_DECLARE_METATYPE(ratelab::test::DecisionSteps)
