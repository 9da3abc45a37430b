#pragma once

#include <QString>
#include <memory>
#include <set>
#include <string>

#include "redis/redis_connection.h"

namespace ratelab::test {

// Writes a Redisson RRateLimiter's keys the way Redisson's own Lua does (HSET of the config as
// setRate does, records packed with struct.pack('Bc0I', string.len(id), id, permits), the value
// string), on a connection of its own, and deletes every key it touched when destroyed.
class RedissonWriter {
public:
    explicit RedissonWriter(QString name);
    ~RedissonWriter();

    RedisConnection& connection() { return *connection_; }
    const QString& name() const { return name_; }
    std::string configKey() const { return name_.toStdString(); }
    std::string valueKey(const QString& client = QString()) const;
    std::string permitsKey(const QString& client = QString()) const;

    // As RRateLimiter.setRate(type, rate, interval, keepAlive): hset rate, interval, type,
    // keepAliveTime (type 0 OVERALL, 1 PER_CLIENT).
    void setRate(qint64 rate, qint64 intervalMs, bool perClient, qint64 keepAliveMs = 0);
    // One grant record: zadd permitsKey timeMs struct.pack('Bc0I', n, <n random bytes>, permits).
    void grant(qint64 timeMs, qint64 permits, const QString& client = QString(), int idBytes = 16);
    void setValue(qint64 value, const QString& client = QString());
    // Redisson's tryAcquire(permits) at nowMs (the same algorithm as its script): returns true
    // when granted.
    bool acquire(qint64 permits, qint64 nowMs, const QString& client = QString());
    // Any command; `key` is remembered for deletion.
    void raw(const RedisArgs& args, const std::string& key);

private:
    void eval(const char* script, const RedisArgs& keys, const RedisArgs& args);

    QString name_;
    std::unique_ptr<RedisConnection> connection_;
    std::set<std::string> touched_;
};

}  // namespace ratelab::test
