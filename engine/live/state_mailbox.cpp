#include "live/state_mailbox.h"

#include <utility>

namespace ratelab {

bool StateMailbox::putState(int limiter, LimiterState state, bool listed, bool chart) {
    std::lock_guard<std::mutex> lock(mutex_);
    contents_.errors.remove(limiter);
    if (listed) {
        contents_.keys.insert(limiter, state);
    }
    if (chart) {
        contents_.charts.insert(limiter, std::move(state));
    }
    return !std::exchange(pending_, true);
}

bool StateMailbox::putSample(int limiter, LimiterState state) {
    std::lock_guard<std::mutex> lock(mutex_);
    contents_.errors.remove(limiter);
    contents_.samples[limiter].push_back(std::move(state));
    return !std::exchange(pending_, true);
}

bool StateMailbox::putError(int limiter, const QString& message) {
    std::lock_guard<std::mutex> lock(mutex_);
    contents_.errors.insert(limiter, message);
    contents_.keys.remove(limiter);
    return !std::exchange(pending_, true);
}

bool StateMailbox::putCost(RunCost cost) {
    std::lock_guard<std::mutex> lock(mutex_);
    contents_.cost = std::move(cost);
    contents_.hasCost = true;
    return !std::exchange(pending_, true);
}

StateMailbox::Contents StateMailbox::take() {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_ = false;
    Contents taken = std::exchange(contents_, Contents());
    taken.generation = generation_;
    return taken;
}

void StateMailbox::dropAll() {
    std::lock_guard<std::mutex> lock(mutex_);
    contents_ = Contents();
    ++generation_;
}

}  // namespace ratelab
