#include "distributed/distributed_hunt.h"

#include <algorithm>

#include "json_input.h"
#include "redis/redis_error.h"

namespace ratelab {

qint64 distributedHuntBatchSize(qint64 traces) {
    return std::clamp<qint64>((traces + 7) / 8, 1, kMaxHuntBatch);
}

namespace {

qint64 batchSizeOf(const HuntConfig& config, const DistributedHuntOptions& options) {
    return options.batchSize > 0 ? options.batchSize : distributedHuntBatchSize(config.traces);
}

}  // namespace

DistributedHunt::DistributedHunt(HuntConfig config, DistributedHuntOptions options, Log log)
    : JobCoordinator(
          options.identity, options.giveUpAfter,
          (config.traces + batchSizeOf(config, options) - 1) / batchSizeOf(config, options),
          std::move(log)),
      config_(std::move(config)),
      options_(std::move(options)),
      batchSize_(batchSizeOf(config_, options_)) {}

DistributedHunt::~DistributedHunt() {
    stopAndWait();
}

BatchMessage DistributedHunt::batchMessage(qint64 batch) const {
    BatchMessage m;
    m.kind = BatchMessage::Kind::Hunt;
    m.first = batch * batchSize_;
    m.count = std::min(batchSize_, config_.traces - m.first);
    m.body = huntJobJson(config_);
    return m;
}

void DistributedHunt::accept(qint64 batch, const QByteArray& data, const QString& worker) {
    const qint64 first = batch * batchSize_;
    const HuntBatchResult r =
        parseHuntBatchResult(data, first, std::min(batchSize_, config_.traces - first));
    if (r.failing >= 0) {
        log_(QStringLiteral("trace %1 fails (batch %2, found by %3)")
                 .arg(r.failing)
                 .arg(batch)
                 .arg(json_input::printable(worker)));
    }
    std::lock_guard<std::mutex> lock(mutex_);
    results_.insert(batch, r);
    if (worker == identity().consumer) {
        trusted_.insert(batch);
    }
}

std::optional<qint64> DistributedHunt::settledBatch() const {
    for (qint64 b = 0; b < batches(); ++b) {
        const auto it = results_.constFind(b);
        if (it == results_.constEnd()) {
            return std::nullopt;
        }
        if (it->failing >= 0) {
            return b;
        }
    }
    return -1;
}

HuntResult DistributedHunt::huntHere(qint64 first, qint64 end) {
    HuntConfig here = config_;
    here.firstTrace = first;
    here.traces = end;
    here.shrink = false;
    Hunt hunt(here, identity().url, identity().options);
    const HuntResult r = hunt.run(&stopFlag());
    std::lock_guard<std::mutex> lock(mutex_);
    ownDecisions_ += r.decisions;
    return r;
}

bool DistributedHunt::answered() {
    qint64 batch = -1;
    qint64 failing = -1;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        const std::optional<qint64> settled = settledBatch();
        if (!settled) {
            return false;
        }
        if (*settled < 0 || trusted_.contains(*settled)) {
            return true;
        }
        batch = *settled;
        failing = results_.value(batch).failing;
    }
    // Another process found it: it must fail here too, or its batch is decided here.
    if (huntHere(failing, failing + 1).counterexample) {
        std::lock_guard<std::mutex> lock(mutex_);
        trusted_.insert(batch);
        return true;
    }
    if (stopFlag().load()) {
        return false;
    }
    log_(QStringLiteral("trace %1 fails at another worker but not here: batch %2 is worked here")
             .arg(failing)
             .arg(batch));
    const qint64 first = batch * batchSize_;
    const HuntResult here = huntHere(first, std::min(first + batchSize_, config_.traces));
    if (here.interrupted) {
        return false;
    }
    HuntBatchResult r;
    r.traces = here.traces;
    r.rows = here.rows;
    r.decisions = 0;  // counted in ownDecisions_
    r.failing = here.counterexample ? here.counterexample->traceIndex : -1;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        results_.insert(batch, r);
        trusted_.insert(batch);
    }
    return answered();
}

void DistributedHunt::finish() {
    qint64 failing = -1;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        const std::optional<qint64> settled = settledBatch();
        if (settled && *settled >= 0) {
            failing = results_.value(*settled).failing;
        }
    }
    if (failing >= 0) {
        // Shrinking stays here: the trace checked again and shrunk as a local hunt does.
        HuntConfig here = config_;
        here.firstTrace = failing;
        here.traces = failing + 1;
        try {
            Hunt hunt(here, identity().url, identity().options);
            HuntResult shrunk = hunt.run(&stopFlag(), [this](const HuntProgress& p) {
                std::lock_guard<std::mutex> lock(mutex_);
                shrinking_ = p;
            });
            std::lock_guard<std::mutex> lock(mutex_);
            ownDecisions_ += shrunk.decisions;
            counterexample_ = std::move(shrunk.counterexample);
            shrinkInterrupted_ = shrunk.interrupted;
        } catch (const RedisError& e) {
            setError(QString::fromStdString(e.what()));
        }
    }
    std::lock_guard<std::mutex> lock(mutex_);
    seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

HuntProgress DistributedHunt::progress() const {
    std::lock_guard<std::mutex> lock(mutex_);
    HuntProgress p;
    for (const HuntBatchResult& r : results_) {
        p.traces += r.traces;
        p.rows += r.rows;
    }
    p.shrinking = shrinking_.shrinking;
    p.candidates = shrinking_.candidates;
    return p;
}

HuntResult DistributedHunt::result() const {
    std::lock_guard<std::mutex> lock(mutex_);
    HuntResult r;
    const std::optional<qint64> settled = settledBatch();
    const qint64 last = settled && *settled >= 0 ? *settled : batches() - 1;
    for (auto it = results_.constBegin(); it != results_.constEnd(); ++it) {
        if (!settled || it.key() <= last) {
            r.traces += it->traces;
            r.rows += it->rows;
        }
        r.decisions += it->decisions;
    }
    r.decisions += ownDecisions_;
    r.counterexample = counterexample_;
    r.interrupted = stopFlag().load() || shrinkInterrupted_;
    r.seconds =
        seconds_ > 0
            ? seconds_
            : std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    return r;
}

}  // namespace ratelab
