#pragma once

#include <QVector>
#include <limits>
#include <memory>

namespace ratelab {

// The shape of the offered load over time (scenario "traffic.shape").
struct ShapeSpec {
    enum class Type { Constant, Poisson, Linear, Sine, Burst, Step, Replay };
    struct Stage {
        double rate = 0;       // requests per second
        double durationS = 0;  // seconds
    };

    Type type = Type::Constant;
    double rate = 0;        // constant, poisson: requests/s; burst: the steady rate between bursts
    double from = 0;        // linear: rate at t = 0 ...
    double to = 0;          // ... and at t = duration
    double mean = 0;        // sine: mean rate
    double amplitude = 0;   // sine: 0 <= amplitude <= mean
    double periodS = 0;     // sine
    int burst = 0;          // burst: requests sent at once at t = 0, every_s, 2*every_s, ...
    double everyS = 0;      // burst
    QVector<Stage> stages;  // step: consecutive constant-rate stages
    QVector<qint64> replayOffsetsMs;  // replay: each row's t_ms minus the first row's t_ms
};

// Produces a run's scheduled send times, in microseconds since the start of the run, in
// non-decreasing order. Open model: the schedule is fixed in advance and never waits for
// replies. Every worker walks its own clone of the same schedule and takes every N-th send,
// so clones must produce identical sequences (Poisson uses a seeded generator).
class Pacer {
public:
    static constexpr qint64 kNoMore = std::numeric_limits<qint64>::max();

    virtual ~Pacer() = default;
    // The next scheduled send time, or kNoMore once the schedule reaches the run's end.
    virtual qint64 next() = 0;
    // A fresh pacer producing the same sequence from the start.
    virtual std::unique_ptr<Pacer> clone() const = 0;
    // The target rate (requests/s) at a time, for charts and the summary. Bursts count as their
    // average over every_s; replay as its average over the run.
    virtual double targetRate(qint64 atUs) const = 0;

    // Where the send next() last returned comes from in a schedule merged from traffic groups
    // (traffic/traffic_schedule.h): the group and the send's index among that group's sends.
    // A pacer of one shape is group 0 and leaves the index to the caller (-1).
    struct Origin {
        int group = 0;
        qint64 index = -1;
    };
    virtual Origin origin() const { return {}; }
};

// A pacer for the shape, ending at durationUs (sends at or after it are not produced).
// `seed` drives the Poisson shape. The spec must be valid (parseScenario checks it).
std::unique_ptr<Pacer> makePacer(const ShapeSpec& shape, qint64 durationUs, quint64 seed);

// Expected number of sends of the shape over [0, durationUs): the integral of its rate.
double expectedSends(const ShapeSpec& shape, qint64 durationUs);

// The highest rate (requests/s) the shape asks for at any time, as its pacer sends it:
// constant and poisson their rate, linear the larger end, sine mean + amplitude, step the
// busiest stage, burst the steady rate plus one burst per every_s (every_s in whole µs, at
// least 1 µs, as the pacer uses it), replay its busiest second (busiestSecond()).
double peakRate(const ShapeSpec& shape);

// The most replay offsets (ms, non-decreasing) within any 1000 ms, [t, t + 1000); *startMs
// gets the offset that window starts at.
qint64 busiestSecond(const QVector<qint64>& offsetsMs, qint64* startMs = nullptr);

}  // namespace ratelab
