#include "distributed/queue_messages.h"

#include <vector>

namespace ratelab {
namespace {

std::string text(const QString& s) {
    return s.toStdString();
}

std::string text(qint64 n) {
    return std::to_string(n);
}

std::string text(const QByteArray& b) {
    return b.toStdString();
}

bool readInteger(const StreamEntry& e, const char* name, qint64* out, QString* problem) {
    bool ok = false;
    *out = e.field(name).toLongLong(&ok);
    if (!ok || *out < 0) {
        *problem = QStringLiteral("its field \"%1\" is not a count").arg(QLatin1String(name));
    }
    return ok && *out >= 0;
}

}  // namespace

std::vector<std::string> batchFields(const BatchMessage& b) {
    return {"kind",     "sweep",         "version",  text(b.version), "job",   text(b.job),
            "batch",    text(b.batch),   "first",    text(b.first),   "count", text(b.count),
            "base_dir", text(b.baseDir), "scenario", text(b.scenario)};
}

std::optional<BatchMessage> readBatch(const StreamEntry& e, QString* problem) {
    BatchMessage b;
    b.version = QString::fromUtf8(e.field("version"));
    b.job = QString::fromUtf8(e.field("job"));
    if (e.field("kind") != "sweep") {
        *problem = QStringLiteral("its kind is not \"sweep\"");
        return std::nullopt;
    }
    if (b.job.isEmpty() || b.version.isEmpty()) {
        *problem = QStringLiteral("it names no job or no version");
        return std::nullopt;
    }
    if (!readInteger(e, "batch", &b.batch, problem) ||
        !readInteger(e, "first", &b.first, problem) ||
        !readInteger(e, "count", &b.count, problem)) {
        return std::nullopt;
    }
    b.scenario = e.field("scenario");
    b.baseDir = QString::fromUtf8(e.field("base_dir"));
    return b;
}

std::vector<std::string> resultFields(const ResultMessage& r) {
    const bool done = r.status == ResultMessage::Status::Done;
    return {"kind",
            "result",
            "job",
            text(r.job),
            "batch",
            text(r.batch),
            "entry",
            text(r.entry),
            "worker",
            text(r.worker),
            "version",
            text(r.version),
            "status",
            done ? "done" : "refused",
            done ? "data" : "reason",
            done ? text(r.data) : text(r.reason)};
}

std::optional<ResultMessage> readResult(const StreamEntry& e) {
    if (e.field("kind") != "result") {
        return std::nullopt;
    }
    ResultMessage r;
    r.job = QString::fromUtf8(e.field("job"));
    bool ok = false;
    r.batch = e.field("batch").toLongLong(&ok);
    if (!ok) {
        r.batch = -1;  // the coordinator names it as a result it cannot place
    }
    r.entry = e.field("entry");
    r.worker = QString::fromUtf8(e.field("worker"));
    r.version = QString::fromUtf8(e.field("version"));
    r.status =
        e.field("status") == "done" ? ResultMessage::Status::Done : ResultMessage::Status::Refused;
    r.data = e.field("data");
    r.reason = QString::fromUtf8(e.field("reason"));
    return r;
}

}  // namespace ratelab
