#pragma once

#include <QtGlobal>

// (Not "limits.h": engine/ is on the include path, and that name would hide <limits.h>.)
// Every limit on accepted input in one place: the parsers refuse values outside them, and the
// editors bound their fields with the same constants (so a file the window writes always reads
// back). Changing one changes what every reader accepts.

namespace ratelab {

// Limiter specs (limiters/limiter_spec_parser.cpp).
namespace spec_limits {
constexpr qint64 kMaxSpecFileBytes = 1024 * 1024;
constexpr qint64 kMaxRate = 1'000'000'000;  // permits
// The sliding-window log holds one Redis zset member per permit granted inside its window.
constexpr qint64 kMaxSlidingLimit = 1'000'000;
constexpr qint64 kMaxIntervalMs = 366LL * 24 * 3600 * 1000;  // one (leap) year
constexpr int kMaxNameLength = 200;                          // limiter and scenario names
constexpr int kMaxRules = 32;
// gcra, sliding_counter and leaky_bucket decide in exact integer arithmetic inside Lua, whose
// numbers are doubles: these bounds keep every product the scripts form (burst x period,
// (burst + 1) x 1000 x period, limit x window) below 2^53, so no rounding can change a decision.
constexpr qint64 kMaxAlgoRate = 1'000'000;
constexpr qint64 kMaxAlgoPeriodMs = 24LL * 3600 * 1000;  // one day
constexpr qint64 kMaxAlgoBurst = 100'000;
constexpr qint64 kMaxCounterLimit = 1'000'000;
// concurrency: one zset member per slot held. A refusal packs (retry + 1) x (limit + 2)^2 into
// one integer, below 2^53 with a lease of at most a day.
constexpr qint64 kMaxConcurrencyLimit = 10'000;
constexpr qint64 kMaxLeaseMs = kMaxAlgoPeriodMs;
}  // namespace spec_limits

// Scenario files and their traffic (scenario/*_parser.cpp, the traffic editor).
namespace scenario_limits {
constexpr qint64 kMaxScenarioFileBytes = 1024 * 1024;
constexpr int kMaxNameLength = spec_limits::kMaxNameLength;
constexpr int kMaxLimiters = 16;
constexpr int kMaxClients = 10000;
constexpr int kMaxGroups = 64;           // traffic "groups"
constexpr int kMaxGroupNameLength = 64;  // letters, digits, '_' and '-'
constexpr int kMaxThreads = 64;
constexpr int kMaxGateways = 16;
constexpr int kMaxPipeline = 1024;
constexpr double kMaxDurationS = 24 * 3600;
constexpr double kMaxRate = 1e6;  // requests/s
constexpr qint64 kMinBucketMs = 1;
constexpr qint64 kMaxBuckets = 1'000'000;  // duration / bucket_ms
constexpr int kMaxStages = 1000;
constexpr int kMaxExpectations = 1000;  // "expect": checks over all limiters
// "sweep": the combinations of its varied values (their product), and its constraints
constexpr qint64 kMaxSweepCombinations = 10'000;
constexpr int kMaxSweepConstraints = 100;
constexpr int kMaxBurst = 1'000'000;
constexpr double kMaxWeight = 1e9;
constexpr double kMaxSpeed = 1000;  // virtual clock: virtual ms per real ms
// The slowest slow motion: TTLs are stretched by 1 / speed, so a day's window keeps its keys
// 1000 days at most, in range of every TTL argument (0 is apart: as fast as possible).
constexpr double kMinSpeed = 0.001;
constexpr qint64 kMaxSeed = 1LL << 53;  // exact as a double
// traffic "clock_skew_ms": a client's clock off by up to a day either way
constexpr qint64 kMaxClockSkewMs = 24LL * 3600 * 1000;
// What a run may hold in memory unless told otherwise (scenario/scenario_budget.h).
constexpr qint64 kDefaultMaxMemoryBytes = 1LL << 30;
}  // namespace scenario_limits

// A run's output folder read back (output/output_folder.h: `ratelab compare`, the window's
// "compare with" a folder).
namespace output_limits {
// summary.json grows with clients x limiters, buckets.csv with buckets x limiters; far below
// this even for the largest scenario.
constexpr qint64 kMaxOutputFileBytes = 512LL * 1024 * 1024;
// summary.json and report.html list at most this many clients one by one per limiter: the ones
// that sent the most requests; the others are added up in one row (RunSummary's
// OtherClients), so a run of 16 limiters and 10,000 clients writes a few MB, not 220.
constexpr int kMaxListedClients = 1000;
// The largest summary.json `ratelab compare` reads: one far larger would cost gigabytes as a
// JSON document. `run` says before it starts when its summary may be larger
// (scenario/summary_size.h).
constexpr qint64 kMaxCompareSummaryBytes = 64LL * 1024 * 1024;
}  // namespace output_limits

// Lesson files (lessons/lesson_parser.cpp).
namespace lesson_limits {
constexpr qint64 kMaxLessonFileBytes = 1024 * 1024;
constexpr int kMaxBeats = 500;
constexpr int kMaxTextLength = 4000;  // a beat's say, ask or answer, in characters
constexpr int kMaxTitleLength = 200;
}  // namespace lesson_limits

}  // namespace ratelab
