#include "run/sweep_runner.h"

#include <algorithm>

#include "redis/redis_error.h"
#include "run/sweep_batch.h"
#include "traffic/pacer.h"

namespace ratelab {
SweepRunner::SweepRunner(SweepPlan plan, RedisUrl url, ConnectOptions options,
                         qint64 memoryBudgetBytes)
    : plan_(std::move(plan)), url_(std::move(url)), options_(options) {
    batchSize_ = plan_.batchSize(memoryBudgetBytes);
    const TrafficSpec& traffic = plan_.scenario().traffic;
    requestsPerRun_ = static_cast<qint64>(std::llround(
        expectedSends(traffic.shape, static_cast<qint64>(std::llround(traffic.durationS * 1e6)))));
}

SweepRunner::~SweepRunner() {
    requestStop();
    wait();
}

void SweepRunner::start() {
    if (thread_.joinable() || finished_.load()) {
        return;
    }
    started_ = std::chrono::steady_clock::now();
    thread_ = std::thread([this] { runAll(); });
}

void SweepRunner::requestStop() {
    stop_ = true;
}

void SweepRunner::wait() {
    if (thread_.joinable()) {
        thread_.join();
    }
}

QString SweepRunner::error() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return error_;
}

void SweepRunner::runAll() {
    const qint64 total = plan_.combinations();
    try {
        for (qint64 first = 0; first < total && !stop_.load(); first += batchSize_) {
            runBatch(first, std::min(batchSize_, total - first));
        }
    } catch (const RedisError& e) {
        std::lock_guard<std::mutex> lock(mutex_);
        error_ = QString::fromStdString(e.what());
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopped_ = done_.size() < total;
    }
    finished_ = true;
}

void SweepRunner::runBatch(qint64 first, qint64 count) {
    const qint64 limiters = plan_.batch(first, count).limiters.size();
    const SweepBatchRun run =
        runSweepBatch(plan_, url_, options_, first, count, stop_, [&](double reached) {
            std::lock_guard<std::mutex> lock(mutex_);
            currentDecisions_ = qint64(reached * double(requestsPerRun_ * limiters));
        });
    std::lock_guard<std::mutex> lock(mutex_);
    decidedBefore_ += run.decided;
    currentDecisions_ = 0;
    done_ += run.combinations;
}

SweepProgress SweepRunner::progress() const {
    SweepProgress p;
    p.total = plan_.combinations();
    p.finished = finished_.load();
    const qint64 fixed = plan_.scenario().limiters.size() - plan_.sweep().variedLimiters().size();
    const qint64 batches = (p.total + batchSize_ - 1) / batchSize_;
    p.plannedDecisions =
        requestsPerRun_ * (p.total * plan_.sweep().variedLimiters().size() + batches * fixed);
    {
        std::lock_guard<std::mutex> lock(mutex_);
        p.done = done_.size();
        p.decisions = decidedBefore_ + currentDecisions_;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    if (seconds > 0 && started_ != std::chrono::steady_clock::time_point{}) {
        p.decisionsPerS = double(p.decisions) / seconds;
    }
    if (p.finished) {
        p.secondsLeft = 0;
    } else if (p.decisionsPerS > 0) {
        p.secondsLeft =
            double(std::max<qint64>(0, p.plannedDecisions - p.decisions)) / p.decisionsPerS;
    }
    return p;
}

QVector<SweepCombination> SweepRunner::takeFinished() {
    std::lock_guard<std::mutex> lock(mutex_);
    QVector<SweepCombination> out = done_.mid(taken_);
    taken_ = done_.size();
    return out;
}

SweepTable SweepRunner::table() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return sweepTableOf(plan_, done_);
}

}  // namespace ratelab
