#include "support/redisson_writer.h"

#include <QRandomGenerator>
#include <QtTest>

#include "redis/redis_error.h"
#include "redisson/redisson_limiter_reader.h"
#include "support/test_redis.h"

namespace ratelab::test {
namespace {

std::string randomId(int bytes) {
    std::string id(size_t(bytes), '\0');
    for (char& c : id) {
        c = char(QRandomGenerator::global()->bounded(256));
    }
    return id;
}

// Redisson's tryAcquire, rewritten for the test with the same keys, arithmetic and record
// packing. KEYS: config, value, permits. ARGV: permits, now, random id. Returns 1 granted,
// 0 refused.
const char kAcquire[] = R"lua(
local rate = redis.call('hget', KEYS[1], 'rate')
local interval = redis.call('hget', KEYS[1], 'interval')
assert(rate ~= false and interval ~= false, 'RateLimiter is not initialized')
local now = tonumber(ARGV[2])
local value = redis.call('get', KEYS[2])
if value == false then
    redis.call('set', KEYS[2], rate)
    redis.call('zadd', KEYS[3], ARGV[2], struct.pack('Bc0I', string.len(ARGV[3]), ARGV[3], ARGV[1]))
    redis.call('decrby', KEYS[2], ARGV[1])
    return 1
end
local expired = redis.call('zrangebyscore', KEYS[3], 0, now - interval)
local released = 0
for _, v in ipairs(expired) do
    local _, p = struct.unpack('Bc0I', v)
    released = released + p
end
if released > 0 then
    redis.call('zremrangebyscore', KEYS[3], 0, now - interval)
    if tonumber(value) + released > tonumber(rate) then
        local used = 0
        for _, v in ipairs(redis.call('zrange', KEYS[3], 0, -1)) do
            local _, p = struct.unpack('Bc0I', v)
            used = used + p
        end
        value = tonumber(rate) - used
    else
        value = tonumber(value) + released
    end
    redis.call('set', KEYS[2], value)
end
if tonumber(value) < tonumber(ARGV[1]) then
    return 0
end
redis.call('zadd', KEYS[3], ARGV[2], struct.pack('Bc0I', string.len(ARGV[3]), ARGV[3], ARGV[1]))
redis.call('decrby', KEYS[2], ARGV[1])
return 1
)lua";

}  // namespace

RedissonWriter::RedissonWriter(QString name)
    : name_(std::move(name)), connection_(connectFixture()) {}

RedissonWriter::~RedissonWriter() {
    try {
        if (connection_->broken()) {
            connection_->reconnect();
        }
        for (const std::string& key : touched_) {
            connection_->command({"DEL", key});
        }
    } catch (const std::exception& e) {
        qWarning("could not delete the keys of %s: %s", qPrintable(name_), e.what());
    }
}

std::string RedissonWriter::valueKey(const QString& client) const {
    return redissonSuffixName(configKey(),
                              client.isEmpty() ? "value" : "value:" + client.toStdString());
}

std::string RedissonWriter::permitsKey(const QString& client) const {
    return redissonSuffixName(configKey(),
                              client.isEmpty() ? "permits" : "permits:" + client.toStdString());
}

void RedissonWriter::eval(const char* script, const RedisArgs& keys, const RedisArgs& args) {
    RedisArgs cmd{"EVAL", script, std::to_string(keys.size())};
    cmd.insert(cmd.end(), keys.begin(), keys.end());
    cmd.insert(cmd.end(), args.begin(), args.end());
    for (const std::string& k : keys) {
        touched_.insert(k);
    }
    RedisReply r = connection_->command(cmd);
    throwIfError(r.get(), "EVAL");
}

void RedissonWriter::setRate(qint64 rate, qint64 intervalMs, bool perClient, qint64 keepAliveMs) {
    eval(
        "redis.call('hset', KEYS[1], 'rate', ARGV[1]);"
        "redis.call('hset', KEYS[1], 'interval', ARGV[2]);"
        "redis.call('hset', KEYS[1], 'type', ARGV[3]);"
        "redis.call('hset', KEYS[1], 'keepAliveTime', ARGV[4]);",
        {configKey()},
        {std::to_string(rate), std::to_string(intervalMs), perClient ? "1" : "0",
         std::to_string(keepAliveMs)});
}

void RedissonWriter::grant(qint64 timeMs, qint64 permits, const QString& client, int idBytes) {
    eval(
        "redis.call('zadd', KEYS[1], ARGV[1], "
        "struct.pack('Bc0I', string.len(ARGV[2]), ARGV[2], ARGV[3]))",
        {permitsKey(client)}, {std::to_string(timeMs), randomId(idBytes), std::to_string(permits)});
}

void RedissonWriter::setValue(qint64 value, const QString& client) {
    eval("redis.call('set', KEYS[1], ARGV[1])", {valueKey(client)}, {std::to_string(value)});
}

bool RedissonWriter::acquire(qint64 permits, qint64 nowMs, const QString& client) {
    RedisArgs cmd{"EVAL",
                  kAcquire,
                  "3",
                  configKey(),
                  valueKey(client),
                  permitsKey(client),
                  std::to_string(permits),
                  std::to_string(nowMs),
                  randomId(16)};
    touched_.insert(valueKey(client));
    touched_.insert(permitsKey(client));
    RedisReply r = connection_->command(cmd);
    return replyInteger(r.get(), "EVAL acquire") == 1;
}

void RedissonWriter::raw(const RedisArgs& args, const std::string& key) {
    touched_.insert(key);
    RedisReply r = connection_->command(args);
    throwIfError(r.get(), args.front().c_str());
}

}  // namespace ratelab::test
