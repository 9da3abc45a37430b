#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QMap>
#include <QString>
#include <optional>

namespace ratelab {

// The entries of a queue's streams (docs/distributed.md, "What goes through Redis"). Nothing
// in them is secret: no URL, no password; each worker decides against its own server.

// Refuses (InputError) what would carry a secret through the queue (a scenario, a hunt's
// limiters): any string in its JSON that is a Redis URL with a password.
void checkDistributable(const QJsonObject& json);

// One entry as read from a stream: its id and its fields.
struct StreamEntry {
    QByteArray id;
    QMap<QByteArray, QByteArray> fields;
    QByteArray field(const char* name) const { return fields.value(QByteArray(name)); }
};

// A batch of a job: a sweep's combinations, or a hunt's traces, [first, first + count).
struct BatchMessage {
    enum class Kind { Sweep, Hunt };
    Kind kind = Kind::Sweep;
    QString job;
    qint64 batch = 0;  // 0-based, in the job's order
    QString version;   // the ratelab that published it
    qint64 first = 0;
    qint64 count = 0;
    // Sweep: the scenario as JSON, its sweep included (field "scenario"). Hunt: what is hunted
    // (field "hunt", hunt_job_json.h).
    QByteArray body;
    QString baseDir;  // where the scenario's relative paths (a trace, a script file) point
};

// The fields of a batch's entry: kind "sweep" or "hunt", then the rest.
std::vector<std::string> batchFields(const BatchMessage& batch);
// A batch read back; nullopt with `problem` set when the entry is not one (a field missing or
// not a number). The version is read first, so that an entry of another ratelab, whatever
// its other fields, is refused by its version (batchVersion).
std::optional<BatchMessage> readBatch(const StreamEntry& entry, QString* problem);

// What a worker answers for a batch.
struct ResultMessage {
    enum class Status { Done, Refused };
    QString job;
    qint64 batch = 0;
    QByteArray entry;  // the batch's entry id in the jobs stream
    QString worker;    // the consumer that answered ("host:pid")
    QString version;   // the worker's ratelab
    Status status = Status::Done;
    QByteArray data;  // Done: the combinations (sweep_result_json.h), or a hunt's traces
                      // (hunt_job_json.h)
    QString reason;   // Refused: why, a sentence
};

std::vector<std::string> resultFields(const ResultMessage& result);
// nullopt for an entry that is no result (the results stream's first entry, "start").
std::optional<ResultMessage> readResult(const StreamEntry& entry);

}  // namespace ratelab
