#pragma once

#include <QLatin1String>

// The output folder of a run (`ratelab run --out DIR`, the window's "Save as output folder…"):
// its file names, summary.json's keys and buckets.csv's columns, named once. The writer
// (summary_json.h, buckets_csv.h, output_folder.h) and the reader (the same files) use these
// names; nothing else names a key.
//
// summary.json carries its format in the top-level "format": an integer, kFormat as this build
// writes it. A summary without it is format 1 (every summary written before the field existed)
// and reads the same way. A reader refuses a format newer than kFormat: that file was written by
// a newer ratelab whose figures may mean something else. A field added to the summary keeps the
// format (readers skip fields they do not know, and read a missing field as 0 or empty); a field
// whose meaning or type changes, or that goes, takes a new format number.

namespace ratelab::output_format {

constexpr int kFormat = 2;             // what this build writes, the newest it reads
constexpr int kUnversionedFormat = 1;  // a summary.json without "format"

inline constexpr QLatin1String kSummaryFile("summary.json");
inline constexpr QLatin1String kBucketsFile("buckets.csv");
inline constexpr QLatin1String kReportPngFile("report.png");
inline constexpr QLatin1String kReportHtmlFile("report.html");

// summary.json, top level.
namespace key {
inline constexpr QLatin1String kFormat("format");
inline constexpr QLatin1String kScenario("scenario");
inline constexpr QLatin1String kClock("clock");  // kVirtualClock or kRealClock
inline constexpr QLatin1String kClockSpeed("clock_speed");
// Traffic "round_trips": kSharedRoundTrips (one per batch for every limiter, their latencies one
// round trip's) or kPerLimiterRoundTrips (each latency its limiter's own); absent: shared.
inline constexpr QLatin1String kRoundTrips("round_trips");
// How the decisions shared round trips: an object of kRequested (traffic "pipeline"), kThreads,
// kBatches, kRoundTrips (a count here), kDecisions (sent to Redis), kEndedBy (batches by what
// ended them) and kLimitedBy; absent in older summaries.
inline constexpr QLatin1String kPipeline("pipeline");
inline constexpr QLatin1String kRequested("requested");
inline constexpr QLatin1String kThreads("threads");
inline constexpr QLatin1String kBatches("batches");
inline constexpr QLatin1String kEndedBy("ended_by");
inline constexpr QLatin1String kLimitedBy("limited_by");
inline constexpr QLatin1String kExpectations("expectations");
inline constexpr QLatin1String kVerdict("verdict");  // a verdict name below
// Why the verdict is "incomplete" (absent or empty otherwise).
inline constexpr QLatin1String kVerdictReason("verdict_reason");
inline constexpr QLatin1String kStartEpochMs("start_epoch_ms");
inline constexpr QLatin1String kDurationS("duration_s");
inline constexpr QLatin1String kRunS("run_s");
inline constexpr QLatin1String kFinished("finished");
inline constexpr QLatin1String kStoppedEarly("stopped_early");
inline constexpr QLatin1String kErrorsByCause("errors_by_cause");  // also per limiter
inline constexpr QLatin1String kBucketMs("bucket_ms");
inline constexpr QLatin1String kRequests("requests");
inline constexpr QLatin1String kTargetRate("target_rate");
inline constexpr QLatin1String kAchievedRate("achieved_rate");
inline constexpr QLatin1String kScheduleLag("schedule_lag");
inline constexpr QLatin1String kLimiters("limiters");  // also a disagreement's pair
inline constexpr QLatin1String kDisagreements("disagreements");
// Sentinel failovers: [{"at_ms", "from", "to", "accepted_around": {limiter: n}}] (absent: none).
inline constexpr QLatin1String kFailovers("failovers");
inline constexpr QLatin1String kAtMs("at_ms");
inline constexpr QLatin1String kFrom("from");
inline constexpr QLatin1String kTo("to");
inline constexpr QLatin1String kAcceptedAround("accepted_around");

// A limiter (the counts also per client).
inline constexpr QLatin1String kName("name");
inline constexpr QLatin1String kType("type");
inline constexpr QLatin1String kOnError("on_error");
inline constexpr QLatin1String kFired("fired");
inline constexpr QLatin1String kAccepted("accepted");
inline constexpr QLatin1String kRejected("rejected");
inline constexpr QLatin1String kErrors("errors");
inline constexpr QLatin1String kErrorsOpen("errors_open");
inline constexpr QLatin1String kErrorsClosed("errors_closed");
inline constexpr QLatin1String kAttempts("attempts");
inline constexpr QLatin1String kAccountingExact("accounting_exact");
// A limiter whose grants hold slots, under a traffic with a hold: {"released", "late_releases",
// "leaked", "expired"} (LeaseCounts); absent when all four are 0.
inline constexpr QLatin1String kLeases("leases");
inline constexpr QLatin1String kReleased("released");
inline constexpr QLatin1String kLateReleases("late_releases");
inline constexpr QLatin1String kLeaked("leaked");
inline constexpr QLatin1String kExpired("expired");
// Several gateways, or a limiter's non-default "gateway" use: "redis_calls" (decisions that
// called Redis) and "gateways": [{"gateway", "decisions", "redis_calls", "accepted"}] (its
// grants: what it admitted; absent in older files, read as 0).
inline constexpr QLatin1String kRedisCalls("redis_calls");
inline constexpr QLatin1String kGateways("gateways");
inline constexpr QLatin1String kGateway("gateway");
inline constexpr QLatin1String kDecisions("decisions");
inline constexpr QLatin1String kLatency("latency");
inline constexpr QLatin1String kWaited("waited");
inline constexpr QLatin1String kFairness("fairness_jain");
inline constexpr QLatin1String kClients("clients");  // also a group's and other_clients' count
inline constexpr QLatin1String kGroups("groups");    // the traffic's groups ("traffic.groups")
// The clients past output_limits::kMaxListedClients, added up: {"clients": N, the counts,
// "waited_ms_total"}; only when some are not listed.
inline constexpr QLatin1String kOtherClients("other_clients");
// The limiter's spec as the scenario gives it (limiterSpecToJson). A spec this build cannot
// parse (a newer ratelab's limiter type or field) reads as none: the report then draws no limit.
inline constexpr QLatin1String kSpec("spec");
// The admitted burst's lists; beside each, one figure per window named by burstMetricName
// (stats/expectation.h): "max_accepted_in_any_<N>ms", "max_admitted_in_any_<N>ms_run_clock".
inline constexpr QLatin1String kAdmittedBurst("admitted_burst");
inline constexpr QLatin1String kAdmittedBurstRunClock("admitted_burst_run_clock");

// A script limiter with a "reference" (also per client, group and other_clients): of the
// decisions both made, how many the reference made otherwise; absent for any other limiter.
inline constexpr QLatin1String kComparedWithReference("compared_with_reference");
inline constexpr QLatin1String kDisagreementsWithReference("disagreements_with_reference");

// A client.
inline constexpr QLatin1String kClient("client");
inline constexpr QLatin1String kWaitedMsTotal("waited_ms_total");

// A traffic group: kGroup, kClients (its client count), the counts, kWaitedMsTotal,
// kFairness and the admitted burst on both clocks. A client of a group has its kGroup too.
inline constexpr QLatin1String kGroup("group");

// Percentiles (latency, waited, schedule_lag), in ms.
inline constexpr QLatin1String kCount("count");
inline constexpr QLatin1String kP50Ms("p50_ms");
inline constexpr QLatin1String kP90Ms("p90_ms");
inline constexpr QLatin1String kP99Ms("p99_ms");
inline constexpr QLatin1String kP999Ms("p999_ms");
inline constexpr QLatin1String kMaxMs("max_ms");
inline constexpr QLatin1String kMeanMs("mean_ms");

// An admitted burst: one window.
inline constexpr QLatin1String kWindowMs("window_ms");
// kAccepted: the permits accepted in it
inline constexpr QLatin1String kFromMs("from_ms");
inline constexpr QLatin1String kFirstMs("first_ms");
inline constexpr QLatin1String kLastMs("last_ms");

// An expectation (kLimiter: the limiter's own name).
inline constexpr QLatin1String kLimiter("limiter");
inline constexpr QLatin1String kExpression("expression");
inline constexpr QLatin1String kMetric("metric");
inline constexpr QLatin1String kOp("op");
inline constexpr QLatin1String kThreshold("threshold");
inline constexpr QLatin1String kMeasured("measured");  // null: the run has no such figure
inline constexpr QLatin1String kHeld("held");

// A disagreement: kLimiters (the pair's two names) and these.
inline constexpr QLatin1String kCompared("compared");
inline constexpr QLatin1String kDisagreed("disagreed");
}  // namespace key

// "verdict": the expectations' (stats/expectation.h: "passed", "failed", "none"), or "incomplete":
// the run did not finish, or a limiter decided nothing (output/run_verdict.h).
namespace verdict {
inline constexpr QLatin1String kPassed("passed");
inline constexpr QLatin1String kFailed("failed");
inline constexpr QLatin1String kNone("none");
inline constexpr QLatin1String kIncomplete("incomplete");
}  // namespace verdict

inline constexpr QLatin1String kVirtualClock("virtual");
inline constexpr QLatin1String kSharedRoundTrips("shared");
inline constexpr QLatin1String kPerLimiterRoundTrips("per_limiter");
inline constexpr QLatin1String kRealClock("real");

// buckets.csv's columns, in order: one row per bucket and limiter. errors_open and
// errors_closed came last (older readers keep their columns); a reader needs bucket, limiter,
// accepted and rejected and reads a column the file lacks as 0. A run with traffic groups adds,
// after these, two columns per group in the traffic's order: kGroupPrefix + its name +
// kGroupAccepted, then + kGroupRejected ("group.users.accepted", "group.users.rejected", as the
// expectations name a group's figure); the row's limiter's counts of that group. A run without
// groups has none of them, and a file without them reads with no group series. A run with a
// script limiter that has a "reference" adds kDisagreementsWithReference after errors_closed
// (0 in the other limiters' rows); a file without it reads with no disagreement series. A run
// whose traffic holds grants (a "hold") adds kReleased and kLeaked after those, before the
// groups' columns: the grants released in the bucket and those made then that never release
// (0 in the rows of limiters without leases); a file without them reads with no such series.
namespace column {
inline constexpr QLatin1String kBucket("bucket");
inline constexpr QLatin1String kTMs("t_ms");  // the bucket's start in run time: bucket x bucket_ms
inline constexpr QLatin1String kLimiter("limiter");
inline constexpr QLatin1String kAccepted("accepted");
inline constexpr QLatin1String kRejected("rejected");
inline constexpr QLatin1String kErrors("errors");
inline constexpr QLatin1String kTargetRate("target_rate");
inline constexpr QLatin1String kErrorsOpen("errors_open");
inline constexpr QLatin1String kErrorsClosed("errors_closed");
inline constexpr QLatin1String kDisagreementsWithReference("disagreements_with_reference");
inline constexpr QLatin1String kReleased("released");
inline constexpr QLatin1String kLeaked("leaked");
inline constexpr QLatin1String kGroupPrefix("group.");
inline constexpr QLatin1String kGroupAccepted(".accepted");
inline constexpr QLatin1String kGroupRejected(".rejected");
}  // namespace column

}  // namespace ratelab::output_format
