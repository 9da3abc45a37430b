#pragma once

#include <QByteArray>

#include "hunt/hunt.h"

namespace ratelab {

// What a distributed hunt's batches carry and answer (engine/distributed, docs/distributed.md).

// The hunt as its batches carry it: the limiter and the reference with their scripts inline,
// the properties, the seed and the rows a trace has at most (nothing secret: no URL).
QByteArray huntJobJson(const HuntConfig& config);
// Read back (traces, budget and firstTrace left at their defaults). InputError naming the JSON
// path ("$.limiter.rate: ...").
HuntConfig parseHuntJob(const QByteArray& json);

// What a worker found in a batch of traces [first, first + count).
struct HuntBatchResult {
    qint64 traces = 0;  // tried: all of the batch's, or up to the failing one and it
    qint64 rows = 0;    // their rows
    qint64 decisions = 0;
    qint64 failing = -1;  // the first failing trace's index; -1: none failed
};

QByteArray huntBatchResultJson(const HuntBatchResult& result);
// Checked against the batch it answers: without a failing trace it tried all `count`; with
// one, that trace is the last it tried. Anything else throws InputError naming the JSON path.
HuntBatchResult parseHuntBatchResult(const QByteArray& json, qint64 first, qint64 count);

}  // namespace ratelab
