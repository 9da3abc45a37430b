#include "hunt/trace_decider.h"

#include "limiters/limiter.h"
#include "limiters/script_spec.h"
#include "redis/redis_error.h"
#include "redis/redis_router.h"
#include "run/replay.h"
#include "run/replay_options.h"
#include "run/schedule_decider.h"
#include "stats/error_cause.h"
#include "traffic/decision_path.h"

namespace ratelab {
namespace {

// Decisions a pipeline holds at most; more go in the next round trip.
constexpr std::size_t kMaxPipelined = 8192;

[[noreturn]] void failed(const std::exception_ptr& failure, ErrorCause cause) {
    if (failure) {
        std::rethrow_exception(failure);
    }
    throw RedisError(RedisError::Kind::Connect,
                     "the decision failed: " + errorCauseName(cause).toStdString());
}

// Every attempt's decision in its place: [limiter slot][row]; a failed one ends the trace.
class Collect final : public DecisionObserver {
public:
    Collect(int specs, qsizetype rows) : decided_(size_t(specs), std::vector<Decision>(rows)) {}
    void decided(const Attempt& attempt, const DecisionPath::Result& result) override {
        if (!result.decided) {
            failed(result.failure, result.cause);
        }
        decided_[size_t(attempt.job.limiter)][size_t(attempt.job.k)] = result.decision;
    }
    std::vector<std::vector<Decision>> decided_;
};

bool keepsGatewayState(const QVector<LimiterSpec>& specs) {
    for (const LimiterSpec& spec : specs) {
        if (!spec.gateway.isDefault()) {
            return true;
        }
    }
    return false;
}

}  // namespace

TraceDecider::TraceDecider(RedisUrl url, ConnectOptions connect, ScratchNames& names)
    : url_(std::move(url)), connect_(connect), names_(names) {}

TraceDecider::~TraceDecider() = default;

RedisRouter& TraceDecider::router() {
    if (!router_) {
        router_ = std::make_unique<RedisRouter>(url_, connect_);
    }
    return *router_;
}

std::vector<std::vector<Decision>> TraceDecider::decide(const QVector<LimiterSpec>& specs,
                                                        const Trace& trace) {
    return std::move(decide({TraceJob{specs, trace}})[0]);
}

std::vector<std::vector<std::vector<Decision>>> TraceDecider::decide(
    const std::vector<TraceJob>& jobs) {
    std::vector<std::vector<std::vector<Decision>>> out(jobs.size());
    std::vector<const TraceJob*> pipelined;
    std::vector<std::vector<std::vector<Decision>>*> into;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        if (keepsGatewayState(jobs[j].specs) || onRedisClock(jobs[j].specs)) {
            out[j] = decideAsARun(jobs[j]);
        } else {
            pipelined.push_back(&jobs[j]);
            into.push_back(&out[j]);
        }
    }
    if (!pipelined.empty()) {
        decidePipelined(pipelined, into);
    }
    for (const TraceJob& job : jobs) {
        ++traces_;
        decisions_ += qint64(job.specs.size()) * job.trace.size();
    }
    return out;
}

void TraceDecider::decidePipelined(const std::vector<const TraceJob*>& jobs,
                                   std::vector<std::vector<std::vector<Decision>>*> out) {
    struct Place {
        std::vector<Decision>* decisions;
        qsizetype row;
    };
    std::vector<std::unique_ptr<Limiter>> limiters;
    std::vector<Place> places;  // each added request's place, in the order added
    DecisionPath path([&](int index) -> const Limiter& { return *limiters[size_t(index)]; },
                      nullptr);
    const auto runBatch = [&] {
        if (path.size() == 0) {
            return;
        }
        path.run(router(), connect_.commandTimeout, {}, 0);
        roundTrips_ += path.roundTrips();
        for (std::size_t i = 0; i < path.size(); ++i) {
            const DecisionPath::Result& result = path.result(i);
            if (!result.decided) {
                router_.reset();  // its replies may be half read
                failed(result.failure, result.cause);
            }
            (*places[i].decisions)[size_t(places[i].row)] = result.decision;
        }
        path.clear();
        places.clear();
    };
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        const TraceJob& job = *jobs[j];
        std::vector<std::vector<Decision>>& decided = *out[j];
        decided.assign(size_t(job.specs.size()), std::vector<Decision>(size_t(job.trace.size())));
        const LimiterOptions options = replayLimiterOptions(job.trace);
        const int first = int(limiters.size());
        for (LimiterSpec spec : job.specs) {
            spec.name = names_.next();
            limiters.push_back(makeLimiter(spec, options));
        }
        // Row by row, each spec's decision of it: every spec's rows stay in time order.
        for (qsizetype row = 0; row < job.trace.size(); ++row) {
            const TraceRow r = job.trace[row];
            for (int s = 0; s < job.specs.size(); ++s) {
                if (places.size() >= kMaxPipelined) {
                    runBatch();
                }
                path.add(router(), first + s, 0, Request{r.tMs, r.client, r.permits, false, row},
                         r.tMs - job.trace.tMsAt(0));
                places.push_back(Place{&decided[size_t(s)], row});
            }
        }
    }
    runBatch();
}

std::vector<std::vector<Decision>> TraceDecider::decideAsARun(const TraceJob& job) {
    QVector<LimiterSpec> scratch = job.specs;
    for (LimiterSpec& spec : scratch) {
        spec.name = names_.next();
    }
    Scenario scenario = replayScenario(scratch, job.trace);
    const qint64 startMs = scenario.traffic.clock.startMs;
    ScheduleDecider::Options options;
    options.limiters = replayLimiterOptions(job.trace);
    options.connect = connect_;
    options.keepAcceptedLogs = false;
    options.speed = onRedisClock(job.specs) ? 1 : 0;
    ScheduleDecider decider(std::move(scenario), url_, startMs, options);
    Collect collect(int(job.specs.size()), job.trace.size());
    decider.setObserver(&collect);
    if (router_) {
        decider.adoptRouter(std::move(router_));
    }
    if (!job.trace.isEmpty()) {
        decider.advanceThrough(job.trace.size() - 1);
    }
    router_ = decider.takeRouter();
    return std::move(collect.decided_);
}

}  // namespace ratelab
