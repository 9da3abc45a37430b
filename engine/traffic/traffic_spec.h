#pragma once

#include <QMap>
#include <QString>
#include <QVector>

#include "traffic/pacer.h"
#include "traffic/trace.h"

namespace ratelab {

// How a worker asks: try once (tryAcquire), or wait (acquire: sleep retry_after_ms and try
// again until granted or timeout_ms since the first try has run out, as Redisson's acquire).
enum class AcquireMode { Try, Wait };

struct ClockSpec {
    bool isVirtual = false;
    qint64 startMs = 0;  // virtual: the epoch ms the run starts at
    double speed = 1.0;  // virtual: virtual ms per real ms (0.1 = slow motion); 0 = as fast as
                         // possible (discrete events, no sleeping)
};

// A named group of clients with a shape of its own (traffic "groups"): an attacker beside the
// users, a batch job beside interactive clients. Its clients are "<name>-0" .. "<name>-<n-1>",
// or, replaying a trace, the trace's own clients.
struct ClientGroup {
    QString name;
    int clients = 1;  // generated clients (not with a replay shape)
    ShapeSpec shape;
    QString tracePath;  // replay: as in TrafficSpec
    Trace trace;        // replay: its rows
};

// How long a granted request keeps what it holds (the concurrency limiter's slots) before it
// releases them: none (it holds nothing), a constant, or drawn from an exponential
// distribution of this mean (seeded by the traffic's seed and the request's place).
struct HoldSpec {
    enum class Type { None, Constant, Exponential };
    Type type = Type::None;
    qint64 ms = 0;  // constant: the hold; exponential: its mean
};

// "gateways": G gateway instances between the clients and Redis, each with its own clock offset
// and its own local state (a limiter's "gateway" option says what it keeps). The i-th request
// of the schedule goes to gateway i mod G (round robin), or client c always to gateway
// FNV-1a-32(c) mod G (sticky).
struct GatewaysSpec {
    enum class Balance { RoundRobin, Sticky };
    int count = 1;
    Balance balance = Balance::RoundRobin;
    QVector<qint64> clockSkewMs;  // empty: none; else one per gateway
};

// The traffic of a scenario: its shape, its clients and permits, how workers ask, its clock.
struct TrafficSpec {
    ShapeSpec shape;
    QString tracePath;              // replay: the trace file (relative paths: to the scenario file)
    Trace trace;                    // replay: its rows (clients and permits come from them)
    double durationS = 0;           // replay: defaults to the trace's span + 1 ms
    int clients = 1;                // client ids "c0" .. "c<clients-1>"
    QVector<double> clientWeights;  // empty: uniform; else one non-negative weight per client
    int threads = 1;
    int pipeline = 1;  // requests in flight per connection
    // "round_trips": "per_limiter": a worker's batch goes to Redis one limiter at a time, each
    // limiter's replies read before the next limiter's are sent, so each limiter's latency is
    // its own round trip; "shared" (default): one pipeline for every limiter, as cheap as it
    // gets, their latencies equal but for the microseconds between their replies.
    bool roundTripPerLimiter = false;
    qint64 permitsMin = 1;
    qint64 permitsMax = 1;  // permits per request uniform in [min, max]
    AcquireMode mode = AcquireMode::Try;
    qint64 timeoutMs = 0;  // wait mode: give up after this long (>= 1 when mode is wait)
    ClockSpec clock;
    // "clock_skew_ms": how far clients' clocks are off, as app servers with a wrong clock
    // (+ ahead, - behind): every client's by clockSkewMs, or, when clientSkewMs is not empty,
    // the named clients' (a group of them, say a few of one app server) and the others' 0.
    // The "now" a limiter is asked at is the run's clock plus the client's skew.
    qint64 clockSkewMs = 0;
    QMap<QString, qint64> clientSkewMs;
    quint64 seed = 1;
    // "groups": when not empty, the traffic is these groups' requests merged in time order
    // (traffic/traffic_schedule.h), and shape, tracePath, trace and clientWeights are unused;
    // clients is then the groups' clients added up. Permits apply to every generated group.
    QVector<ClientGroup> groups;
    // "hold" and "leak_pct": a granted request releases what it holds after its hold, unless
    // it leaks (leakPct percent of the grants, chosen by the seed, never release, as crashed
    // workers). Limiters whose grants hold nothing ignore both.
    HoldSpec hold;
    double leakPct = 0;
    GatewaysSpec gateways;
};

}  // namespace ratelab
