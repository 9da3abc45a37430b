#pragma once

#include <QByteArray>
#include <QVector>

#include "output/sweep_table.h"

namespace ratelab {

// A sweep batch's result as it crosses the queue (engine/distributed): its combinations in
// compact JSON, every figure exact (doubles as their shortest exact text, NaN and infinities
// included), so that a combination merged from a worker equals the one a local sweep computes.
QByteArray sweepResultJson(const QVector<SweepCombination>& combinations);

// The combinations of a result, checked field by field against the batch they answer: exactly
// `count` combinations, indexes first ... first + count - 1 in order. Anything else throws
// InputError naming the JSON path ("$.combinations[2].rows[0].fired: expected an integer").
QVector<SweepCombination> parseSweepResult(const QByteArray& json, qint64 first, qint64 count);

}  // namespace ratelab
