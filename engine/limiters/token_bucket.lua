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
--
-- Cost: O(log n + k) per decision, k = the grants that must expire to cover the request.
-- Grants interval_ms old are released (read and removed) only when a grant is made; a
-- rejection writes nothing but the clock, so the value key always equals rate minus the
-- permits of every grant still in the zset, expired or not.
local rate = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local permits = tonumber(ARGV[4])
local now = tonumber(ARGV[5])
local ttl = ARGV[7]

-- Config: create it like trySetRate; a different config is applied like setRate (state reset).
local reset = 0
local cfg = redis.call('hmget', KEYS[1], 'rate', 'interval', 'type', 'keepAliveTime')
if cfg[1] ~= ARGV[1] or cfg[2] ~= ARGV[2] or cfg[3] ~= ARGV[3] then
    if cfg[1] or cfg[2] or cfg[3] then
        redis.call('del', KEYS[2], KEYS[3])
        reset = 1
    end
    redis.call('hset', KEYS[1], 'rate', ARGV[1], 'interval', ARGV[2], 'type', ARGV[3])
    if not cfg[4] then
        redis.call('hset', KEYS[1], 'keepAliveTime', '0')
    end
end
local keepAlive = tonumber(cfg[4] or '0') or 0

-- Time never runs backwards for this bucket: a worker whose clock lags (or whose request was
-- delayed) decides at the latest time already used, so it cannot reuse permits that a later
-- decision released. One call reads and advances the clock; only a lagging worker writes twice.
local last = redis.call('set', KEYS[4], ARGV[5], 'PX', ttl, 'GET')
if last then
    local t = tonumber(last)
    if t == nil then
        return redis.error_reply('ratelab: ' .. KEYS[4] .. ' does not hold a number')
    end
    if t > now then
        now = t
        redis.call('set', KEYS[4], last, 'PX', ttl)
    end
end

local function permitsOf(member)
    local _, p = struct.unpack('Bc0I', member)
    return p
end

-- Every grant in the zset (only to rebuild a missing or drifted value, as Redisson repairs it).
local function heldPermits()
    local used = 0
    for _, member in ipairs(redis.call('zrange', KEYS[3], 0, -1)) do
        used = used + permitsOf(member)
    end
    return used
end

-- Grants that are interval_ms old come back to the bucket (read here, removed on a grant).
local cutoff = now - interval
local expired = redis.call('zrangebyscore', KEYS[3], '-inf', cutoff)
local released = 0
for i = 1, #expired do
    released = released + permitsOf(expired[i])
end

local value = redis.call('get', KEYS[2])
if value == false then
    value = rate - heldPermits()  -- new bucket, or its value key expired: rebuild from grants
else
    value = tonumber(value)
    if value == nil then
        return redis.error_reply('ratelab: ' .. KEYS[2] .. ' does not hold a number')
    end
    if value + released > rate then
        value = rate - heldPermits()  -- drifted state (as Redisson repairs it)
    end
end
local available = value + released

local function keepAliveAll()
    redis.call('pexpire', KEYS[1], keepAlive)
    redis.call('pexpire', KEYS[2], keepAlive)
    redis.call('pexpire', KEYS[3], keepAlive)
end

if permits <= available and permits <= rate then
    if #expired > 0 then
        redis.call('zremrangebyscore', KEYS[3], '-inf', cutoff)
    end
    redis.call('zadd', KEYS[3], now, struct.pack('Bc0I', string.len(ARGV[6]), ARGV[6], permits))
    local left = available - permits
    if keepAlive > 0 then
        redis.call('set', KEYS[2], left)
        keepAliveAll()
    else
        -- After interval_ms (plus a grace for lagging clocks) without grants every permit is
        -- back: the state may go.
        redis.call('set', KEYS[2], left, 'PX', ttl)
        redis.call('pexpire', KEYS[3], ttl)
    end
    return {1, 0, left, now, reset}
end

if keepAlive > 0 then
    keepAliveAll()  -- Redisson's keepAliveTime counts every decision
end
if permits > rate then
    return {0, -1, available, now, reset}
end

-- Exact wait: walk the live grants oldest first (they follow the expired ones) until the
-- permits they release cover the shortfall. Every grant holds at least one permit, so the
-- shortfall bounds how many are read.
local shortfall = permits - available
local covered = 0
local rank = #expired
while true do
    local want = math.min(math.max(shortfall - covered, 1), 128)
    local held = redis.call('zrange', KEYS[3], rank, rank + want - 1, 'WITHSCORES')
    if #held == 0 then
        break
    end
    for i = 1, #held, 2 do
        covered = covered + permitsOf(held[i])
        if covered >= shortfall then
            return {0, tonumber(held[i + 1]) + interval - now, available, now, reset}
        end
    end
    rank = rank + #held / 2
end
return redis.error_reply('ratelab: token bucket state in ' .. KEYS[2] .. ' and ' .. KEYS[3] ..
                         ' is inconsistent (value ' .. value .. ', grants ' .. covered .. ')')
