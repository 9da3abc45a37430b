#include "support/replay_runs.h"

#include <QRandomGenerator>

#include "run/scenario_runner.h"
#include "support/test_redis.h"
#include "traffic/gateway_state.h"

namespace ratelab::test {

void setRandomReplay(Scenario& s, quint32 seed, int clients, int requests, int maxGapMs,
                     qint64 startMs) {
    QRandomGenerator rng(seed);
    qint64 t = startMs;
    s.traffic.trace.clear();
    s.traffic.shape.replayOffsetsMs.clear();
    for (int i = 0; i < requests; ++i) {
        t += rng.bounded(4) == 0 ? 0 : rng.bounded(maxGapMs);
        s.traffic.trace.append(TraceRow{t, QStringLiteral("c%1").arg(rng.bounded(clients)),
                                        rng.bounded(5) == 0 ? 2 : 1, 0});
        s.traffic.shape.replayOffsetsMs.append(t - startMs);
    }
    s.traffic.shape.type = ShapeSpec::Type::Replay;
    s.traffic.durationS = double(t - startMs + 1) / 1000.0;
    s.traffic.clock.isVirtual = true;
    s.traffic.clock.speed = 0;
    s.traffic.clock.startMs = startMs;
}

RunSnapshot runToEnd(const Scenario& scenario) {
    ScenarioRunner runner(scenario, fixtureUrl());
    runner.start();
    runner.wait();
    const RunSnapshot run = runner.snapshot();
    auto router = routeFixture();
    for (int i = 0; i < scenario.limiters.size(); ++i) {
        runner.limiter(i).reset(*router);
        if (scenario.limiters[i].gateway.mode != GatewayMode::Local) {
            continue;
        }
        for (int g = 0; g < scenario.traffic.gateways.count; ++g) {
            LimiterSpec local = scenario.limiters[i];
            local.name = GatewayState::localName(local.name, g);
            makeLimiter(local)->reset(*router);
        }
    }
    return run;
}

}  // namespace ratelab::test
