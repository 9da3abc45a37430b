#pragma once

#include <QVector>

#include "limiters/limiter.h"

namespace ratelab::test {

// Shape of a randomized, reproducible request trace for model-vs-Redis tests.
struct TraceShape {
    quint32 seed = 1;
    int count = 3000;
    int clients = 1;
    qint64 maxPermits = 1;  // permits are 1..maxPermits, and now and then maxPermits + 1
    qint64 edgeMs = 1000;   // some gaps land exactly on, just before or just after this
    qint64 meanGapMs = 10;
    qint64 startMs = 1'700'000'000'000;
};

// Non-decreasing times mixing bursts inside one millisecond (30%), gaps exactly at window edges
// (edgeMs - 1, edgeMs, edgeMs + 1; 5%) and ordinary gaps of 0..2*meanGapMs.
QVector<Request> generateTrace(const TraceShape& shape);

// Feeds the trace to the limiter on the fixture Redis and to its reference model, comparing
// every decision; on the first difference the test fails with the request and both answers.
void expectMatchesModel(const LimiterSpec& spec, const QVector<Request>& trace);

}  // namespace ratelab::test
