-- Redisson RRateLimiter.tryAcquire(permits): the script RedissonRateLimiter.tryAcquireAsync
-- (RedisCommand, Long) sends with EVAL (github.com/redisson/redisson,
-- redisson/src/main/java/org/redisson/RedissonRateLimiter.java, read in its 2026 version).
-- Restated here in our own words with the same Redis calls, in the same order, with the same
-- arguments and the same arithmetic, so that Redis spends on it what it spends on Redisson's.
-- KEYS: <name>, {<name>}:value, {<name>}:value:<client id>, {<name>}:permits,
--       {<name>}:permits:<client id>
-- ARGV: permits, now_ms, 16 random bytes
-- Returns nil when granted, else the wait in ms Redisson computes (3 + interval - age of the
-- oldest grant). The config hash must exist (trySetRate).
local rate = redis.call('hget', KEYS[1], 'rate')
local interval = redis.call('hget', KEYS[1], 'interval')
local kind = redis.call('hget', KEYS[1], 'type')
assert(rate ~= false and interval ~= false and kind ~= false, 'RateLimiter is not initialized')

local valueKey, permitsKey = KEYS[2], KEYS[4]
if kind == '1' then
    valueKey, permitsKey = KEYS[3], KEYS[5]
end
assert(tonumber(rate) >= tonumber(ARGV[1]), 'Requested permits amount cannot exceed defined rate')

local function record()
    return struct.pack('Bc0I', string.len(ARGV[3]), ARGV[3], ARGV[1])
end

local wait
local value = redis.call('get', valueKey)
if value ~= false then
    local cutoff = tonumber(ARGV[2]) - interval
    local released = 0
    for _, member in ipairs(redis.call('zrangebyscore', permitsKey, 0, cutoff)) do
        local _, p = struct.unpack('Bc0I', member)
        released = released + p
    end
    if released > 0 then
        redis.call('zremrangebyscore', permitsKey, 0, cutoff)
        if tonumber(value) + released > tonumber(rate) then
            local used = 0
            for _, member in ipairs(redis.call('zrange', permitsKey, 0, -1)) do
                local _, p = struct.unpack('Bc0I', member)
                used = used + p
            end
            value = tonumber(rate) - used
        else
            value = tonumber(value) + released
        end
        redis.call('set', valueKey, value)
    end
    if tonumber(value) < tonumber(ARGV[1]) then
        local oldest = redis.call('zrange', permitsKey, 0, 0, 'withscores')
        wait = 3 + interval - (tonumber(ARGV[2]) - tonumber(oldest[2]))
    else
        redis.call('zadd', permitsKey, ARGV[2], record())
        redis.call('decrby', valueKey, ARGV[1])
    end
else
    redis.call('set', valueKey, rate)
    redis.call('zadd', permitsKey, ARGV[2], record())
    redis.call('decrby', valueKey, ARGV[1])
end

local keepAlive = redis.call('hget', KEYS[1], 'keepAliveTime')
if keepAlive ~= false and tonumber(keepAlive) > 0 then
    redis.call('pexpire', KEYS[1], keepAlive)
    redis.call('pexpire', valueKey, keepAlive)
    redis.call('pexpire', permitsKey, keepAlive)
else
    local ttl = redis.call('pttl', KEYS[1])
    if ttl > 0 then
        redis.call('pexpire', valueKey, ttl)
        redis.call('pexpire', permitsKey, ttl)
    end
end
return wait
