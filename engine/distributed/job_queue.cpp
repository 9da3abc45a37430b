#include "distributed/job_queue.h"

#include <cstring>

#include "redis/redis_error.h"
#include "redis/redis_reply.h"
#include "redis/redis_router.h"

namespace ratelab {
namespace {

bool isError(const redisReply* r, const char* prefix) {
    return r != nullptr && r->type == REDIS_REPLY_ERROR &&
           std::strncmp(r->str, prefix, std::strlen(prefix)) == 0;
}

QByteArray bytesOf(const redisReply* r) {
    return r != nullptr && (r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS)
               ? QByteArray(r->str, qsizetype(r->len))
               : QByteArray();
}

// [id, [field, value, ...]]; nullopt for an entry deleted meanwhile (fields nil).
std::optional<StreamEntry> entryOf(const redisReply* r) {
    if (r == nullptr || r->type != REDIS_REPLY_ARRAY || r->elements != 2) {
        return std::nullopt;
    }
    StreamEntry e;
    e.id = bytesOf(r->element[0]);
    const redisReply* fields = r->element[1];
    if (fields == nullptr || fields->type != REDIS_REPLY_ARRAY) {
        return std::nullopt;
    }
    for (size_t i = 0; i + 1 < fields->elements; i += 2) {
        e.fields.insert(bytesOf(fields->element[i]), bytesOf(fields->element[i + 1]));
    }
    return e;
}

// The first live entry of an array of entries.
std::optional<StreamEntry> firstEntry(const redisReply* entries) {
    if (entries == nullptr || entries->type != REDIS_REPLY_ARRAY) {
        return std::nullopt;
    }
    for (size_t i = 0; i < entries->elements; ++i) {
        if (std::optional<StreamEntry> e = entryOf(entries->element[i])) {
            return e;
        }
    }
    return std::nullopt;
}

// XREAD/XREADGROUP's reply: [[key, [entry, ...]]] or nil.
const redisReply* streamEntries(const redisReply* r) {
    if (r == nullptr || r->type != REDIS_REPLY_ARRAY || r->elements < 1) {
        return nullptr;
    }
    const redisReply* stream = r->element[0];
    return stream != nullptr && stream->type == REDIS_REPLY_ARRAY && stream->elements == 2
               ? stream->element[1]
               : nullptr;
}

}  // namespace

JobQueue::JobQueue(QueueKeys keys, RedisUrl url, ConnectOptions options)
    : keys_(std::move(keys)), url_(std::move(url)), options_(options) {}

JobQueue::~JobQueue() = default;

RedisRouter& JobQueue::router() {
    if (router_ == nullptr) {
        router_ = std::make_unique<RedisRouter>(url_, options_);
    }
    return *router_;
}

RedisReply JobQueue::send(const RedisArgs& args) {
    try {
        return router().command(keys_.slot(), args);
    } catch (const RedisError& e) {
        if (e.connectionBroken()) {
            router_.reset();  // the next command connects anew
        }
        throw;
    }
}

void JobQueue::ensureGroup() {
    RedisReply r =
        send((RedisArgs{"XGROUP", "CREATE", keys_.jobs(), QueueKeys::kGroup, "0", "MKSTREAM"}));
    if (!isError(r.get(), "BUSYGROUP")) {
        throwIfError(r.get(), "XGROUP CREATE");
    }
}

std::optional<StreamEntry> JobQueue::take(const QString& consumer, qint64 claimMs, qint64 blockMs,
                                          bool* claimed) {
    *claimed = false;
    const std::string name = consumer.toStdString();
    RedisReply r = send(RedisArgs{"XAUTOCLAIM", keys_.jobs(), QueueKeys::kGroup, name,
                                  std::to_string(claimMs), "0-0", "COUNT", "1"});
    if (isError(r.get(), "NOGROUP")) {
        ensureGroup();
        return std::nullopt;
    }
    throwIfError(r.get(), "XAUTOCLAIM");
    if (r->type == REDIS_REPLY_ARRAY && r->elements >= 2) {
        if (std::optional<StreamEntry> e = firstEntry(r->element[1])) {
            *claimed = true;
            return e;
        }
    }
    RedisArgs read{"XREADGROUP", "GROUP", QueueKeys::kGroup, name, "COUNT", "1"};
    if (blockMs > 0) {
        read.insert(read.end(), {"BLOCK", std::to_string(blockMs)});
    }
    read.insert(read.end(), {"STREAMS", keys_.jobs(), ">"});
    r = send(read);
    if (isError(r.get(), "NOGROUP")) {
        ensureGroup();
        return std::nullopt;
    }
    throwIfError(r.get(), "XREADGROUP");
    return firstEntry(streamEntries(r.get()));
}

std::optional<StreamEntry> JobQueue::claim(const QString& consumer, const QByteArray& id) {
    RedisReply r = send(RedisArgs{"XCLAIM", keys_.jobs(), QueueKeys::kGroup, consumer.toStdString(),
                                  "0", id.toStdString()});
    if (isError(r.get(), "NOGROUP")) {
        return std::nullopt;
    }
    throwIfError(r.get(), "XCLAIM");
    return firstEntry(r.get());
}

void JobQueue::ack(const QByteArray& id) {
    RedisReply r = send(RedisArgs{"XACK", keys_.jobs(), QueueKeys::kGroup, id.toStdString()});
    if (!isError(r.get(), "NOGROUP")) {
        throwIfError(r.get(), "XACK");
    }
}

bool JobQueue::jobAlive(const QString& job) {
    RedisReply r = send(RedisArgs{"EXISTS", keys_.job(job)});
    return replyInteger(r.get(), "EXISTS") == 1;
}

bool JobQueue::postResult(const ResultMessage& result) {
    RedisArgs args{"XADD", keys_.results(result.job), "NOMKSTREAM", "*"};
    const std::vector<std::string> fields = resultFields(result);
    args.insert(args.end(), fields.begin(), fields.end());
    RedisReply r = send(args);
    throwIfError(r.get(), "XADD");
    return r->type != REDIS_REPLY_NIL;
}

void JobQueue::leave(const QString& consumer) {
    RedisReply r = send(RedisArgs{"XPENDING", keys_.jobs(), QueueKeys::kGroup, "-", "+", "1",
                                  consumer.toStdString()});
    if (r->type == REDIS_REPLY_ARRAY && r->elements == 0) {
        send(RedisArgs{"XGROUP", "DELCONSUMER", keys_.jobs(), QueueKeys::kGroup,
                       consumer.toStdString()});
    }
}

void JobQueue::startJob(const QString& job) {
    const std::string ttl = std::to_string(kJobTtlMs);
    throwIfError(send(RedisArgs{"SET", keys_.job(job), "running", "PX", ttl}).get(), "SET");
    throwIfError(send(RedisArgs{"XADD", keys_.results(job), "*", "kind", "start"}).get(), "XADD");
    throwIfError(send(RedisArgs{"PEXPIRE", keys_.results(job), ttl}).get(), "PEXPIRE");
    ensureGroup();
    throwIfError(send(RedisArgs{"PEXPIRE", keys_.jobs(), std::to_string(kStreamTtlMs)}).get(),
                 "PEXPIRE");
}

QByteArray JobQueue::publish(const BatchMessage& batch) {
    RedisArgs args{"XADD", keys_.jobs(), "*"};
    const std::vector<std::string> fields = batchFields(batch);
    args.insert(args.end(), fields.begin(), fields.end());
    RedisReply r = send(args);
    return QByteArray::fromStdString(replyString(r.get(), "XADD"));
}

bool JobQueue::keepJob(const QString& job) {
    const std::string ttl = std::to_string(kJobTtlMs);
    RedisReply r = send(RedisArgs{"PEXPIRE", keys_.job(job), ttl});
    if (replyInteger(r.get(), "PEXPIRE") != 1) {
        return false;
    }
    send(RedisArgs{"PEXPIRE", keys_.results(job), ttl});
    send(RedisArgs{"PEXPIRE", keys_.jobs(), std::to_string(kStreamTtlMs)});
    return true;
}

QVector<StreamEntry> JobQueue::results(const QString& job, const QByteArray& after,
                                       qint64 blockMs) {
    RedisArgs args{"XREAD", "COUNT", "100"};
    if (blockMs > 0) {
        args.insert(args.end(), {"BLOCK", std::to_string(blockMs)});
    }
    args.insert(args.end(), {"STREAMS", keys_.results(job), after.toStdString()});
    RedisReply r = send(args);
    throwIfError(r.get(), "XREAD");
    QVector<StreamEntry> out;
    const redisReply* entries = streamEntries(r.get());
    for (size_t i = 0; entries != nullptr && i < entries->elements; ++i) {
        if (std::optional<StreamEntry> e = entryOf(entries->element[i])) {
            out.append(*e);
        }
    }
    return out;
}

void JobQueue::endJob(const QString& job, const QVector<QByteArray>& entries,
                      qint64 claimMs) noexcept {
    try {
        for (const QByteArray& id : entries) {
            send(RedisArgs{"XACK", keys_.jobs(), QueueKeys::kGroup, id.toStdString()});
            send(RedisArgs{"XDEL", keys_.jobs(), id.toStdString()});
        }
        send(RedisArgs{"DEL", keys_.job(job), keys_.results(job)});
        for (const Consumer& c : consumers()) {
            if (c.pending == 0 && c.idleMs > claimMs) {
                send(RedisArgs{"XGROUP", "DELCONSUMER", keys_.jobs(), QueueKeys::kGroup,
                               c.name.toStdString()});
            }
        }
        // Other jobs' batches are newer than what any worker could still need from before a
        // day; the stream as a whole goes a day after its last job.
        send(RedisArgs{"XTRIM", keys_.jobs(), "MAXLEN", "~", "100000"});
        send(RedisArgs{"PEXPIRE", keys_.jobs(), std::to_string(kStreamTtlMs)});
    } catch (...) {
        // Redis gone: the job's mark and results expire within kJobTtlMs, the stream later.
    }
}

QVector<JobQueue::Consumer> JobQueue::consumers() {
    RedisReply r = send(RedisArgs{"XINFO", "CONSUMERS", keys_.jobs(), QueueKeys::kGroup});
    throwIfError(r.get(), "XINFO CONSUMERS");  // no stream or no group yet
    QVector<Consumer> out;
    if (r->type != REDIS_REPLY_ARRAY) {
        return out;
    }
    for (size_t i = 0; i < r->elements; ++i) {
        const redisReply* c = r->element[i];
        Consumer consumer;
        for (size_t k = 0; c != nullptr && c->type == REDIS_REPLY_ARRAY && k + 1 < c->elements;
             k += 2) {
            const QByteArray key = bytesOf(c->element[k]);
            const redisReply* value = c->element[k + 1];
            if (key == "name") {
                consumer.name = QString::fromUtf8(bytesOf(value));
            } else if (key == "pending" && value->type == REDIS_REPLY_INTEGER) {
                consumer.pending = value->integer;
            } else if (key == "idle" && value->type == REDIS_REPLY_INTEGER) {
                consumer.idleMs = value->integer;
            }
        }
        out.append(consumer);
    }
    return out;
}

}  // namespace ratelab
