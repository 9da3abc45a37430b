-- Token bucket in Redisson RRateLimiter's layout (OVERALL and PER_CLIENT), one decision.
-- KEYS[1] config hash <name> {rate, interval, type, keepAliveTime}
-- KEYS[2] bucket value {<name>}:value[:<client>]
-- KEYS[3] grants zset {<name>}:permits[:<client>], score = grant time (ms),
--         member = struct.pack('Bc0I', 16, <16 random bytes>, permits)
-- KEYS[4] clock {<name>}:clock[:<client>]: the latest time a decision of this bucket released
--         grants (ratelab's own key; Redisson ignores it)
-- ARGV: rate, interval_ms, type (0 overall, 1 per client), permits, now_ms (15 digits
--       zero-padded when >= 0), random bytes, ttl_ms for the state keys, now_ms - interval_ms[,
--       the config hash's TTL and the longest keepAliveTime (a scratch limiter's,
--       LimiterOptions::ttlCapMs; without it the config hash has no TTL)]
-- Returns one packed integer (Limiter::parseReply, radix rate + 2): granted
-- 2 * remaining + reset, refused -(2 * ((retry_after_ms + 1) * radix + remaining) + reset) - 1;
-- the text "allowed retry_after_ms remaining at_ms config_reset" when the engine does not know
-- at_ms (Redis's time, or a lagging clock decided at a later time), for a negative remaining
-- (a value key another writer drove below zero) or past 2^53.
--
-- Cost: O(log n + k) per decision, k = the grants that must expire to cover the request.
-- Grants interval_ms old are released (read, removed, added to the value) in the call that
-- finds them, as Redisson does; the value key always equals rate minus the permits of every
-- grant still in the zset. Number <-> text conversions in Lua
-- (strtod, printf) cost Redis as much as a command: the engine formats the numbers the script
-- only passes on, times are compared as zero-padded text, and a decision converts only what
-- its arithmetic needs. No local functions: a closure is made on every call.
-- Numbers in ARGV are converted by arithmetic (ARGV[i] + 0, or an ARGV operand): tonumber() is a
-- C call that parses its string twice, and costs Redis half a GET more than the coercion.
-- time: redis (limiter.h): ARGV[5] is 'redis' and the cutoff ARGV[8] is relative to now 0.
local knownTime = ARGV[5] ~= 'redis'  -- at_ms is the engine's own now
if not knownTime then
    local t = redis.call('time')
    local now = t[1] * 1000 + math.floor(t[2] / 1000)
    ARGV[5] = string.format('%015d', now)
    ARGV[8] = string.format('%d', now + ARGV[8])
end
local rate = ARGV[1] + 0
local permits = ARGV[4] + 0
local nowArg = ARGV[5]
local ttl = ARGV[7]
local cutoff = ARGV[8]

-- Config: create it like trySetRate; a different config is applied like setRate (state reset).
local reset = 0  -- 1: this decision found another config
local cfg = redis.call('hmget', KEYS[1], 'rate', 'interval', 'type', 'keepAliveTime')
if cfg[1] ~= ARGV[1] or cfg[2] ~= ARGV[2] or cfg[3] ~= ARGV[3] then
    -- A hash without all three fields is not a limiter's config: someone else's key with the
    -- limiter's name, never changed (another type already failed the HMGET).
    if not (cfg[1] and cfg[2] and cfg[3]) and redis.call('exists', KEYS[1]) == 1 then
        return redis.error_reply('ratelab: ' .. KEYS[1] .. ' is a hash ratelab did not create')
    end
    if cfg[1] or cfg[2] or cfg[3] then
        redis.call('del', KEYS[2], KEYS[3])
        reset = 1
    end
    redis.call('hset', KEYS[1], 'rate', ARGV[1], 'interval', ARGV[2], 'type', ARGV[3])
    if not cfg[4] then
        redis.call('hset', KEYS[1], 'keepAliveTime', '0')
    end
    if ARGV[9] then
        redis.call('pexpire', KEYS[1], ARGV[9])
    end
end
local keepAlive = cfg[4]
if keepAlive == '0' or not keepAlive or (tonumber(keepAlive) or 0) <= 0 then
    keepAlive = nil
elseif ARGV[9] and tonumber(keepAlive) > ARGV[9] + 0 then
    keepAlive = ARGV[9]
end

-- Released permits never come back early: the clock key holds the latest time at which a
-- decision released grants, and a decision before that time (a worker whose clock lags, or a
-- delayed request) decides at it, so it cannot reuse permits a later decision released. Any
-- grant made after a release is at least interval_ms younger than what that release took
-- back, so no interval holds more than rate. A decision that releases nothing needs no mark:
-- the grants it adds are counted by every later decision. (Writing the time on every decision
-- cost Redis a command per decision.)
local last = redis.call('get', KEYS[4])
if last then
    -- Zero-padded times of one length compare as text; others (negative, or written by an
    -- older ratelab) as numbers.
    local lagging, lastMs
    if #last == #nowArg and string.byte(last, 1) ~= 45 and string.byte(nowArg, 1) ~= 45 then
        lagging = last > nowArg
        lastMs = lagging and tonumber(last)
    else
        lastMs = tonumber(last)
        lagging = lastMs ~= nil and lastMs > nowArg + 0
    end
    if lastMs == nil and (lagging or #last ~= #nowArg) then
        return redis.error_reply('ratelab: ' .. KEYS[4] .. ' does not hold a number')
    end
    if lagging then
        nowArg = last
        knownTime = false
        cutoff = string.format('%d', lastMs - ARGV[2])
    end
end

-- Grants that are interval_ms old come back to the bucket (read here, removed on a grant).
local expired = redis.call('zrangebyscore', KEYS[3], '-inf', cutoff)
local released = 0
for i = 1, #expired do
    local _, p = struct.unpack('Bc0I', expired[i])
    released = released + p
end
if #expired > 0 and last ~= nowArg then
    if last then
        redis.call('set', KEYS[4], nowArg, 'KEEPTTL')
    else
        redis.call('set', KEYS[4], nowArg, 'PX', ttl)
    end
end

local value = redis.call('get', KEYS[2])
local rebuilt = true  -- a new bucket, or its value key expired
if value ~= false then
    value = tonumber(value)
    if value == nil then
        return redis.error_reply('ratelab: ' .. KEYS[2] .. ' does not hold a number')
    end
    rebuilt = value + released > rate  -- a drifted state, which Redisson repairs the same way
end
if rebuilt then
    -- Every grant in the zset, expired ones included (released adds those back).
    local held = 0
    for _, member in ipairs(redis.call('zrange', KEYS[3], 0, -1)) do
        local _, p = struct.unpack('Bc0I', member)
        held = held + p
    end
    value = rate - held
end
local available = value + released

if keepAlive then
    -- Redisson's keepAliveTime counts every decision.
    redis.call('pexpire', KEYS[1], keepAlive)
    redis.call('pexpire', KEYS[2], keepAlive)
    redis.call('pexpire', KEYS[3], keepAlive)
end

local allowed, retry, remaining = 0, -1, available
if permits <= available and permits <= rate then
    if #expired > 0 then
        redis.call('zremrangebyscore', KEYS[3], '-inf', cutoff)
    end
    redis.call('zadd', KEYS[3], nowArg, struct.pack('Bc0I', string.len(ARGV[6]), ARGV[6], permits))
    allowed, retry, remaining = 1, 0, available - permits
    -- A grant that released as many permits as it takes leaves the value as it was: near the
    -- rate that is most grants, and an INCRBY of 0 cost them a call and a number to format.
    if rebuilt then
        redis.call('set', KEYS[2], remaining, 'PX', keepAlive or ttl)
    elseif released == 0 then
        redis.call('decrby', KEYS[2], ARGV[4])
    elseif released ~= permits then
        redis.call('incrby', KEYS[2], released - permits)
    end
    -- After ttl_ms (interval_ms plus a grace for lagging clocks) without grants every permit is
    -- back: the state may go. Setting a TTL costs more than reading one: the keys get twice
    -- that, again when less than that is left.
    if not keepAlive and redis.call('pttl', KEYS[3]) < ttl + 0 then
        local twice = 2 * ttl
        redis.call('pexpire', KEYS[2], twice)
        redis.call('pexpire', KEYS[3], twice)
        redis.call('pexpire', KEYS[4], twice)
    end
else
    -- A rejection writes what it released (as Redisson does), so the value key reads what this
    -- decision saw; with one permit asked nothing was released, or it would have been granted.
    if #expired > 0 then
        redis.call('zremrangebyscore', KEYS[3], '-inf', cutoff)
    end
    if rebuilt then
        redis.call('set', KEYS[2], available, 'PX', keepAlive or ttl)
    elseif released > 0 then
        redis.call('incrby', KEYS[2], released)
    end
    if permits <= rate then
        -- Exact wait: walk the live grants oldest first until the permits they release cover
        -- the shortfall. Every grant holds at least one permit, so the shortfall bounds how
        -- many are read.
        local shortfall = permits - available
        local covered = 0
        local rank = 0
        retry = nil
        while retry == nil do
            local want = math.min(math.max(shortfall - covered, 1), 128)
            local held = redis.call('zrange', KEYS[3], rank, rank + want - 1, 'WITHSCORES')
            if #held == 0 then
                return redis.error_reply('ratelab: token bucket state in ' .. KEYS[2] .. ' and ' ..
                                         KEYS[3] .. ' is inconsistent (value ' .. value ..
                                         ', grants ' .. covered .. ')')
            end
            for i = 1, #held, 2 do
                local _, p = struct.unpack('Bc0I', held[i])
                covered = covered + p
                if covered >= shortfall then
                    retry = held[i + 1] + ARGV[2] - nowArg
                    break
                end
            end
            rank = rank + #held / 2
        end
    end
end

if knownTime and remaining >= 0 then
    local packed
    if allowed == 1 then
        packed = 2 * remaining + reset
    else
        packed = 2 * ((retry + 1) * (rate + 2) + remaining) + reset
    end
    if packed < 9007199254740992 then
        return allowed == 1 and packed or -packed - 1
    end
end
return string.format('%d %d %d ', allowed, retry, remaining) .. nowArg .. ' ' .. reset
