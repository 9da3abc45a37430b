#include "live/hunt_service.h"

#include <QDir>

#include "hunt/counterexample_files.h"
#include "hunt/hunt_report.h"
#include "hunt/violation_text.h"
#include "input_error.h"
#include "redis/redis_error.h"

namespace ratelab {

// Lives on the hunt's thread: runs one hunt at a time, to its end or until its stop flag.
class HuntWorker : public QObject {
public:
    HuntOutcome hunt(const HuntConfig& config, const RedisUrl& url, const QString& outDir,
                     const std::atomic<bool>& stop, LatestValue<HuntProgress>& progress) {
        HuntOutcome outcome;
        outcome.config = config;
        try {
            Hunt hunt(config, url);
            outcome.result =
                hunt.run(&stop, [&](const HuntProgress& seen) { progress.publish(seen); });
            outcome.text = huntResultText(config, outcome.result);
            if (outcome.result.counterexample) {
                const Counterexample& found = *outcome.result.counterexample;
                outcome.written =
                    writeCounterexampleFiles(outDir, config, found,
                                             violationText(config.limiter, config.reference,
                                                           found.trace, *found.checked.violation));
                if (found.regression && found.regression->unwritable.isEmpty()) {
                    outcome.regressionPath = QDir(outDir).filePath(hunt_files::kRegression);
                }
            }
        } catch (const RedisError& e) {
            outcome.error = QString::fromStdString(e.what());
        } catch (const InputError& e) {
            outcome.error = e.message();
        }
        return outcome;
    }
};

HuntService::HuntService(QObject* parent)
    : QObject(parent),
      progress_(std::make_shared<LatestValue<HuntProgress>>()),
      thread_(QStringLiteral("ratelab-hunt")) {}

HuntService::~HuntService() {
    cancel();
}

void HuntService::start(const HuntConfig& config, const RedisUrl& url, const QString& outDir) {
    cancel();
    stop_ = std::make_shared<std::atomic<bool>>(false);
    running_ = true;
    const quint64 generation = ++generation_;
    progressSeen_ = progress_->sequence();
    thread_.post([this, config, url, outDir, generation, stop = stop_,
                  progress = progress_](HuntWorker& worker) {
        const HuntOutcome outcome = worker.hunt(config, url, outDir, *stop, *progress);
        // Queued to this service's thread; the thread ends (and this job with it) before the
        // service is destroyed, so `this` is alive when the call is queued.
        QMetaObject::invokeMethod(this,
                                  [this, generation, outcome] { ended(generation, outcome); });
    });
}

void HuntService::cancel() {
    if (stop_) {
        stop_->store(true);
    }
}

std::optional<HuntProgress> HuntService::takeProgress() {
    const quint64 sequence = progress_->sequence();
    if (sequence == progressSeen_) {
        return std::nullopt;
    }
    progressSeen_ = sequence;
    return progress_->value();
}

void HuntService::ended(quint64 generation, const HuntOutcome& outcome) {
    if (generation != generation_) {
        return;  // a hunt started since
    }
    running_ = false;
    emit finished(outcome);
}

}  // namespace ratelab
