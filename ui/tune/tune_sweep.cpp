#include "tune/tune_sweep.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <algorithm>

#include "distributed/queue_messages.h"
#include "input_error.h"
#include "json_input.h"

namespace ratelab {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("TuneSweep", text);
}

QString batches(qint64 n) {
    return n == 1 ? tr("1 batch") : tr("%1 batches").arg(n);
}

QString idleText(qint64 ms) {
    if (ms < 0) {
        return tr("connected");
    }
    if (ms < 60000) {
        return tr("idle %1 s").arg(double(ms) / 1000.0, 0, 'f', 1);
    }
    return tr("idle %1 min").arg(ms / 60000);
}

}  // namespace

TuneSweep::TuneSweep(SweepPlan plan) : plan_(std::move(plan)) {}

TuneSweep::~TuneSweep() {
    distributed_.reset();  // stops it: the job's keys go, the window leaves the group
    local_.reset();
}

std::unique_ptr<TuneSweep> TuneSweep::local(SweepPlan plan, const RedisUrl& url) {
    std::unique_ptr<TuneSweep> s(new TuneSweep(plan));
    s->local_ = std::make_unique<SweepRunner>(std::move(plan), url);
    return s;
}

std::unique_ptr<TuneSweep> TuneSweep::distributed(const Scenario& scenario, const RedisUrl& url,
                                                  const QueueKeys& queue, const QString& baseDir,
                                                  QString* problem) {
    const QJsonObject json = scenarioToJson(scenario);
    try {
        checkDistributable(json);  // nothing secret through the queue
    } catch (const InputError& e) {
        *problem = tr("the scenario cannot be distributed: %1").arg(e.message());
        return nullptr;
    }
    const SweepPlan plan(scenario);
    const DistributedSweepJob::Options options{queue,
                                               QJsonDocument(json).toJson(QJsonDocument::Compact),
                                               baseDir,
                                               QCoreApplication::applicationVersion(),
                                               QStringLiteral("window"),
                                               30000};
    std::unique_ptr<TuneSweep> s(new TuneSweep(plan));
    s->distributed_ = std::make_unique<DistributedSweepJob>(plan, url, options);
    return s;
}

void TuneSweep::start() {
    local_ ? local_->start() : distributed_->start();
}

void TuneSweep::requestStop() {
    local_ ? local_->requestStop() : distributed_->requestStop();
}

bool TuneSweep::finished() const {
    return local_ ? local_->finished() : distributed_->finished();
}

void TuneSweep::wait() {
    local_ ? local_->wait() : distributed_->wait();
}

QString TuneSweep::error() const {
    return local_ ? local_->error() : distributed_->error();
}

SweepProgress TuneSweep::progress() const {
    return local_ ? local_->progress() : distributed_->progress();
}

SweepTable TuneSweep::table() const {
    return local_ ? local_->table() : distributed_->table();
}

QString TuneSweep::workersText() const {
    if (!distributed_) {
        return QString();
    }
    const DistributedSweepJob::Workers w = distributed_->workers();
    if (!w.read.read) {
        return w.read.error.isEmpty()
                   ? tr("Reading the queue's workers…")
                   : tr("The queue's workers could not be read: %1").arg(w.read.error);
    }
    return ratelab::workersText(w.read.consumers, w.done, w.self, w.over);
}

QString workersText(const QVector<QueueConsumer>& consumers, const QMap<QString, qint64>& batchesBy,
                    const QString& self, bool over) {
    const auto done = [&](const QString& name) {
        return tr("%1 done").arg(batches(batchesBy.value(name)));
    };
    QStringList connected;
    for (const QueueConsumer& c : consumers) {
        if (c.name != self) {
            // Over, what each was doing at the last read is history: only what it did stays.
            connected << (over ? tr("%1 (%2)").arg(json_input::printable(c.name), done(c.name))
                               : tr("%1 (%2, %3)")
                                     .arg(json_input::printable(c.name),
                                          c.pending > 0 ? tr("working") : idleText(c.idleMs),
                                          done(c.name)));
        }
    }
    // A worker that answered batches and left the group since (or before a read saw it) took
    // part all the same: named as gone, with what it did.
    QStringList gone;
    for (auto it = batchesBy.begin(); it != batchesBy.end(); ++it) {
        const QString& name = it.key();
        if (name != self && std::none_of(consumers.begin(), consumers.end(),
                                         [&](const QueueConsumer& c) { return c.name == name; })) {
            gone << tr("%1 (gone, %2)").arg(json_input::printable(name), done(name));
        }
    }
    const QString own = tr("this window: %1").arg(done(self));
    if (connected.isEmpty() && gone.isEmpty()) {
        return over ? tr("No workers: the window worked every batch itself (%1).").arg(own)
                    : tr("No workers: the window works every batch itself (%1).").arg(own);
    }
    const QString count =
        over                    ? (connected.size() + gone.size() == 1
                                       ? tr("1 worker on the queue")
                                       : tr("%1 workers on the queue").arg(connected.size() + gone.size()))
        : connected.size() == 1 ? tr("1 worker connected")
                                : tr("%1 workers connected").arg(connected.size());
    return tr("%1: %2; %3.").arg(count, (connected + gone).join(QStringLiteral(", ")), own);
}

}  // namespace ratelab
