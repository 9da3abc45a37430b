#pragma once

// The view of each algorithm (one <name>_view.cpp each), for the list in algorithm_view.cpp.

namespace ratelab {

class AlgorithmView;

const AlgorithmView& tokenBucketView();
const AlgorithmView& fixedWindowView();
const AlgorithmView& slidingWindowView();
const AlgorithmView& gcraView();
const AlgorithmView& slidingCounterView();
const AlgorithmView& leakyBucketView();
const AlgorithmView& concurrencyView();
const AlgorithmView& scriptView();

}  // namespace ratelab
