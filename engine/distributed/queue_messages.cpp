#include "distributed/queue_messages.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <vector>

#include "input_error.h"
#include "json_input.h"

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

void checkDistributable(const QJsonObject& json) {
    refuseSecrets(json, QStringLiteral("$"));
}

std::vector<std::string> batchFields(const BatchMessage& b) {
    const bool hunt = b.kind == BatchMessage::Kind::Hunt;
    return {"kind",
            hunt ? "hunt" : "sweep",
            "version",
            text(b.version),
            "job",
            text(b.job),
            "batch",
            text(b.batch),
            "first",
            text(b.first),
            "count",
            text(b.count),
            "base_dir",
            text(b.baseDir),
            hunt ? "hunt" : "scenario",
            text(b.body)};
}

std::optional<BatchMessage> readBatch(const StreamEntry& e, QString* problem) {
    BatchMessage b;
    b.version = QString::fromUtf8(e.field("version"));
    b.job = QString::fromUtf8(e.field("job"));
    if (e.field("kind") == "sweep") {
        b.kind = BatchMessage::Kind::Sweep;
    } else if (e.field("kind") == "hunt") {
        b.kind = BatchMessage::Kind::Hunt;
    } else {
        *problem = QStringLiteral("its kind is neither \"sweep\" nor \"hunt\"");
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
    b.body = e.field(b.kind == BatchMessage::Kind::Hunt ? "hunt" : "scenario");
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
