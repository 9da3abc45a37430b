#include "live/run_time_sampler.h"

#include <utility>

#include "limiters/limiter_state.h"
#include "redis/redis_router.h"
#include "run/scenario_runner.h"

namespace ratelab {

RunTimeSampler::RunTimeSampler(const ScenarioRunner& runner, RedisUrl url,
                               std::shared_ptr<StateMailbox> mailbox,
                               std::shared_ptr<MailboxNotifier> notifier)
    : runner_(runner),
      url_(std::move(url)),
      mailbox_(std::move(mailbox)),
      notifier_(std::move(notifier)) {}

RunTimeSampler::~RunTimeSampler() = default;

void RunTimeSampler::attach(ScenarioRunner& runner, const RedisUrl& url,
                            std::shared_ptr<StateMailbox> mailbox,
                            std::shared_ptr<MailboxNotifier> notifier) {
    if (!runner.scenario().traffic.clock.isVirtual) {
        return;
    }
    // The runner's clock keeps the sampler (and so its connection) as long as the runner lives.
    auto sampler =
        std::make_shared<RunTimeSampler>(runner, url, std::move(mailbox), std::move(notifier));
    runner.setStateSampler(kSamples, [sampler](qint64 runUs) { sampler->sample(runUs); });
}

void RunTimeSampler::sample(qint64 runUs) {
    const qint64 nowMs = runner_.startEpochMs() + runUs / 1000;
    bool first = false;
    for (int i = 0; i < runner_.scenario().limiters.size(); ++i) {
        const Limiter& limiter = runner_.stateLimiter(i);
        try {
            if (!router_) {
                router_ = std::make_unique<RedisRouter>(url_);
            }
            LimiterState state =
                readLimiterChartState(router_->connectionForSlot(limiter.slot()), limiter, nowMs);
            first = mailbox_->putSample(i, std::move(state)) || first;
        } catch (const std::exception& e) {
            if (router_ && router_->isCluster()) {
                try {
                    router_->refreshSlotMap();  // the slot may have moved
                } catch (const std::exception&) {
                }
            }
            first = mailbox_->putError(i, QString::fromStdString(e.what())) || first;
        }
    }
    if (first) {
        notifier_->notify();
    }
}

}  // namespace ratelab
