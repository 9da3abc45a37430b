#pragma once

// The descriptor of each algorithm (one <name>_algorithm.cpp each), for the list in
// algorithm.cpp. Everything else reaches them through algorithmOf() / algorithms().

namespace ratelab {

class Algorithm;

const Algorithm& tokenBucketAlgorithm();
const Algorithm& fixedWindowAlgorithm();
const Algorithm& slidingWindowAlgorithm();
const Algorithm& gcraAlgorithm();
const Algorithm& slidingCounterAlgorithm();
const Algorithm& leakyBucketAlgorithm();
const Algorithm& concurrencyAlgorithm();
const Algorithm& scriptAlgorithm();  // the user's own Lua: not one of the built-in algorithms

}  // namespace ratelab
