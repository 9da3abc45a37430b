-- Token bucket in Redisson RRateLimiter's layout (OVERALL and PER_CLIENT), one decision.
-- KEYS[1] config hash <name> {rate, interval, type, keepAliveTime}
-- KEYS[2] bucket value {<name>}:value[:<client>]
-- KEYS[3] grants zset {<name>}:permits[:<client>], score = grant time (ms),
--         member = struct.pack('Bc0I', 16, <16 random bytes>, permits)
-- KEYS[4] clock {<name>}:clock[:<client>]: the latest time this bucket decided at (ratelab's
--         own key; Redisson ignores it)
-- ARGV: rate, interval_ms, type (0 overall, 1 per client), permits, now_ms, random bytes,
--       ttl_ms for the state keys
-- Returns {allowed, retry_after_ms, remaining, at_ms, config_reset}.
local rate = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local permits = tonumber(ARGV[4])
local now = tonumber(ARGV[5])

-- Config: create it like trySetRate; a different config is applied like setRate (state reset).
local reset = 0
local cfg = redis.call('hmget', KEYS[1], 'rate', 'interval', 'type')
if cfg[1] ~= ARGV[1] or cfg[2] ~= ARGV[2] or cfg[3] ~= ARGV[3] then
    if cfg[1] or cfg[2] or cfg[3] then
        redis.call('del', KEYS[2], KEYS[3])
        reset = 1
    end
    redis.call('hset', KEYS[1], 'rate', ARGV[1], 'interval', ARGV[2], 'type', ARGV[3])
    redis.call('hsetnx', KEYS[1], 'keepAliveTime', '0')
end

-- Time never runs backwards for this bucket: a worker whose clock lags (or whose request was
-- delayed) decides at the latest time already used, so it cannot reuse permits that a later
-- decision released.
local last = redis.call('get', KEYS[4])
if last then
    last = tonumber(last)
    if last == nil then
        return redis.error_reply('ratelab: ' .. KEYS[4] .. ' does not hold a number')
    end
    if last > now then
        now = last
    end
end

local function permitsOf(member)
    local _, p = struct.unpack('Bc0I', member)
    return p
end

local function heldPermits()
    local used = 0
    for _, member in ipairs(redis.call('zrange', KEYS[3], 0, -1)) do
        used = used + permitsOf(member)
    end
    return used
end

-- Grants that are interval_ms old come back to the bucket.
local cutoff = now - interval
local released = 0
local expired = redis.call('zrangebyscore', KEYS[3], '-inf', cutoff)
for _, member in ipairs(expired) do
    released = released + permitsOf(member)
end
if #expired > 0 then
    redis.call('zremrangebyscore', KEYS[3], '-inf', cutoff)
end

local value = redis.call('get', KEYS[2])
if value == false then
    value = rate - heldPermits()  -- new bucket, or its value key expired: rebuild from grants
else
    value = tonumber(value)
    if value == nil then
        return redis.error_reply('ratelab: ' .. KEYS[2] .. ' does not hold a number')
    end
    value = value + released
    if value > rate then
        value = rate - heldPermits()  -- drifted state (as Redisson repairs it)
    end
end

local function touch()
    redis.call('set', KEYS[4], string.format('%d', now), 'PX', ARGV[7])
    local keepAlive = tonumber(redis.call('hget', KEYS[1], 'keepAliveTime') or '0') or 0
    if keepAlive > 0 then
        redis.call('pexpire', KEYS[1], keepAlive)
        redis.call('pexpire', KEYS[2], keepAlive)
        redis.call('pexpire', KEYS[3], keepAlive)
    else
        -- After interval_ms (plus a grace for lagging clocks) without grants every permit is
        -- back: the state may go.
        redis.call('pexpire', KEYS[2], ARGV[7])
        redis.call('pexpire', KEYS[3], ARGV[7])
    end
end

redis.call('set', KEYS[2], value)

if permits > rate then
    touch()
    return {0, -1, value, now, reset}
end

if permits <= value then
    redis.call('zadd', KEYS[3], now, struct.pack('Bc0I', string.len(ARGV[6]), ARGV[6], permits))
    value = redis.call('decrby', KEYS[2], permits)
    touch()
    return {1, 0, value, now, reset}
end

-- Exact wait: walk grants oldest first until the released permits cover the shortfall.
local shortfall = permits - value
local held = redis.call('zrange', KEYS[3], 0, -1, 'WITHSCORES')
local covered = 0
for i = 1, #held, 2 do
    covered = covered + permitsOf(held[i])
    if covered >= shortfall then
        touch()
        return {0, tonumber(held[i + 1]) + interval - now, value, now, reset}
    end
end
return redis.error_reply('ratelab: token bucket state in ' .. KEYS[2] .. ' and ' .. KEYS[3] ..
                         ' is inconsistent (value ' .. value .. ', grants ' .. covered .. ')')
