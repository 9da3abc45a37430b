#include "distributed/distributed_sweep.h"

#include <QJsonArray>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QThread>
#include <algorithm>

#include "distributed/sweep_result_json.h"
#include "input_error.h"
#include "json_input.h"
#include "redis/redis_error.h"

namespace ratelab {
namespace {

using Clock = std::chrono::steady_clock;

// How often the coordinator renews its job's TTLs (JobQueue::kJobTtlMs) and checks its mark.
constexpr std::chrono::seconds kKeepEvery{2};

void refuseSecrets(const QJsonValue& value, const QString& path) {
    static const QRegularExpression urlWithPassword(
        QStringLiteral(R"((rediss?|redis-cluster|redis-sentinel|unix)://[^\s/@]*:[^\s/@]+@)"),
        QRegularExpression::CaseInsensitiveOption);
    if (value.isString() && urlWithPassword.match(value.toString()).hasMatch()) {
        throw InputError(path, QStringLiteral("holds a Redis URL with a password; nothing secret "
                                              "goes through the queue (each worker brings its "
                                              "own URL and credentials): take it out to run "
                                              "--distributed"));
    }
    if (value.isObject()) {
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            refuseSecrets(it.value(), json_input::memberPath(path, it.key()));
        }
    } else if (value.isArray()) {
        const QJsonArray a = value.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            refuseSecrets(a[i], json_input::elementPath(path, i));
        }
    }
}

}  // namespace

qint64 distributedBatchSize(const SweepPlan& plan, qint64 localBatchSize) {
    const qint64 spread = (plan.combinations() + 7) / 8;
    return std::clamp<qint64>(spread, 1, std::max<qint64>(1, localBatchSize));
}

void checkDistributable(const QJsonObject& scenarioJson) {
    refuseSecrets(scenarioJson, QStringLiteral("$"));
}

DistributedSweep::DistributedSweep(SweepPlan plan, DistributedOptions options, Log log)
    : plan_(std::move(plan)), options_(std::move(options)), log_(std::move(log)) {
    batchSize_ =
        options_.batchSize > 0
            ? options_.batchSize
            : distributedBatchSize(plan_, plan_.batchSize(SweepRunner::kDefaultBatchBudgetBytes));
    batches_ = (plan_.combinations() + batchSize_ - 1) / batchSize_;
    job_ = QStringLiteral("%1").arg(QRandomGenerator::global()->generate64() & 0xffffffffffULL, 10,
                                    16, QLatin1Char('0'));
}

DistributedSweep::~DistributedSweep() {
    requestStop();
    wait();
}

void DistributedSweep::start() {
    if (thread_.joinable() || finished_.load()) {
        return;
    }
    started_ = Clock::now();
    thread_ = std::thread([this] { runAll(); });
}

void DistributedSweep::wait() {
    if (thread_.joinable()) {
        thread_.join();
    }
}

QString DistributedSweep::error() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return error_;
}

void DistributedSweep::publishMissing(JobQueue& queue) {
    qint64 published = 0;
    for (qint64 b = 0; b < batches_; ++b) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (merged_.contains(b)) {
                continue;
            }
        }
        if (entries_.contains(b)) {
            continue;
        }
        BatchMessage m;
        m.job = job_;
        m.batch = b;
        m.version = options_.identity.version;
        m.first = b * batchSize_;
        m.count = std::min(batchSize_, plan_.combinations() - m.first);
        m.scenario = options_.scenarioJson;
        m.baseDir = options_.baseDir;
        const QByteArray id = queue.publish(m);
        entries_.insert(b, id);
        published_.append(id);
        ++published;
    }
    log_(QStringLiteral("published %1 batches of job %2 to queue %3")
             .arg(published)
             .arg(job_, options_.identity.queue.name()));
}

void DistributedSweep::merge(qint64 batch, QVector<SweepCombination> combinations) {
    qint64 decided = 0;
    for (const SweepCombination& c : combinations) {
        for (const SweepFigures& row : c.rows) {
            decided += row.group == QLatin1String("*") ? row.fired : 0;
        }
    }
    std::lock_guard<std::mutex> lock(mutex_);
    combinationsDone_ += combinations.size();
    decisions_ += decided;
    merged_.insert(batch, std::move(combinations));
}

void DistributedSweep::readResults(JobQueue& queue, QueueWorker& self) {
    for (const StreamEntry& entry : queue.results(job_, lastResult_, 0)) {
        lastResult_ = entry.id;
        const std::optional<ResultMessage> r = readResult(entry);
        if (!r || r->job != job_) {
            continue;
        }
        const QString from = json_input::printable(r->worker);
        if (r->batch < 0 || r->batch >= batches_) {
            log_(QStringLiteral("a result from %1 names a batch job %2 does not have: ignored")
                     .arg(from, job_));
            continue;
        }
        bool done = false;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            done = merged_.contains(r->batch);
        }
        if (r->status == ResultMessage::Status::Refused) {
            if (refusals_.value(r->worker) != r->reason) {
                refusals_.insert(r->worker, r->reason);
                log_(QStringLiteral("worker %1 refused batch %2: %3")
                         .arg(from)
                         .arg(r->batch)
                         .arg(json_input::printable(r->reason)));
            }
            if (!done && !stop_.load() && r->worker != options_.identity.consumer) {
                self.workClaimed(stop_, r->entry);  // here, now, rather than after the claim time
            }
            continue;
        }
        if (done) {
            log_(QStringLiteral("batch %1 done twice (again by %2): counted once")
                     .arg(r->batch)
                     .arg(from));
            continue;
        }
        const qint64 first = r->batch * batchSize_;
        try {
            merge(r->batch, parseSweepResult(r->data, first,
                                             std::min(batchSize_, plan_.combinations() - first)));
        } catch (const InputError& e) {
            log_(QStringLiteral("error: the result of batch %1 from %2 does not parse (%3): "
                                "nothing of it counted; the batch is worked here")
                     .arg(r->batch)
                     .arg(from, e.message()));
            entries_.remove(r->batch);
            publishMissing(queue);
            self.workClaimed(stop_, entries_.value(r->batch));
        }
    }
}

void DistributedSweep::runAll() {
    QueueWorker self(options_.identity, log_);
    JobQueue& queue = self.queue();
    bool started = false;
    bool down = false;
    auto lastGood = Clock::now();
    auto nextKeep = Clock::now() + kKeepEvery;
    while (!stop_.load()) {
        try {
            if (!started) {
                queue.startJob(job_);
                publishMissing(queue);
                started = true;
            } else if (Clock::now() >= nextKeep) {
                nextKeep = Clock::now() + kKeepEvery;
                if (!queue.keepJob(job_)) {
                    log_(QStringLiteral("job %1 is gone from Redis (a restart without its data?): "
                                        "publishing its batches again")
                             .arg(job_));
                    queue.startJob(job_);
                    entries_.clear();
                    published_.clear();
                    lastResult_ = "0-0";
                    publishMissing(queue);
                }
            }
            readResults(queue, self);
            {
                std::lock_guard<std::mutex> lock(mutex_);
                if (merged_.size() == batches_) {
                    break;
                }
            }
            self.step(stop_, 100);  // a batch of its own, or a wait for one
            lastGood = Clock::now();
            if (down) {
                log_(QStringLiteral("redis is back"));
                down = false;
            }
        } catch (const RedisError& e) {
            if (stop_.load()) {
                break;
            }
            if (!down) {
                log_(QStringLiteral("redis: %1; trying again")
                         .arg(QString::fromStdString(e.what())));
                down = true;
            }
            if (Clock::now() - lastGood > options_.giveUpAfter) {
                std::lock_guard<std::mutex> lock(mutex_);
                error_ = QString::fromStdString(e.what());
                break;
            }
            QThread::msleep(200);
        }
    }
    queue.endJob(job_, published_);
    finished_ = true;
}

SweepProgress DistributedSweep::progress() const {
    SweepProgress p;
    p.total = plan_.combinations();
    p.finished = finished_.load();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        p.done = combinationsDone_;
        p.decisions = decisions_;
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - started_).count();
    if (seconds > 0 && started_ != Clock::time_point{}) {
        p.decisionsPerS = double(p.decisions) / seconds;
        if (p.done > 0) {
            p.secondsLeft = double(p.total - p.done) * seconds / double(p.done);
        }
    }
    p.plannedDecisions = p.done > 0 ? p.decisions * p.total / p.done : 0;
    if (p.finished) {
        p.secondsLeft = 0;
    }
    return p;
}

SweepTable DistributedSweep::table() const {
    QVector<SweepCombination> all;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        for (const QVector<SweepCombination>& batch : merged_) {
            all += batch;  // QMap: ascending by batch, so by combination
        }
    }
    return sweepTableOf(plan_, all);
}

}  // namespace ratelab
