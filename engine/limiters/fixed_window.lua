-- Natural-calendar fixed window, one decision. The engine computes the window (time zones
-- need the calendar); the script owns the counters.
-- KEYS[1] config hash {<name>}:config {rate, interval, unit, timezone}
-- KEYS[2] this window's counter {<name>}:fw:<window start ms>[:<client>]
-- KEYS[3] index zset {<name>}:fw:index of counters, score = window end; lets a config change
--         delete every live counter by name
-- ARGV: rate, interval, unit, timezone, permits, now_ms, window_end_ms, counter ttl_ms
-- Returns {allowed, retry_after_ms, remaining, at_ms, config_reset}.
local rate = tonumber(ARGV[1])
local permits = tonumber(ARGV[5])
local now = tonumber(ARGV[6])
local windowEnd = tonumber(ARGV[7])

-- A changed rate, interval, unit or zone resets the counters.
local reset = 0
local cfg = redis.call('hmget', KEYS[1], 'rate', 'interval', 'unit', 'timezone')
if cfg[1] ~= ARGV[1] or cfg[2] ~= ARGV[2] or cfg[3] ~= ARGV[3] or cfg[4] ~= ARGV[4] then
    if cfg[1] or cfg[2] or cfg[3] or cfg[4] then
        -- The index is state another writer may have touched: delete only this limiter's
        -- counters ("{<name>}:fw:<...>", never the index itself), whatever else it lists.
        local prefix = string.sub(KEYS[3], 1, #KEYS[3] - #'index')
        local counters = {}
        for _, key in ipairs(redis.call('zrange', KEYS[3], 0, -1)) do
            if string.sub(key, 1, #prefix) == prefix and key ~= KEYS[3] then
                counters[#counters + 1] = key
            end
        end
        for i = 1, #counters, 500 do
            redis.call('del', unpack(counters, i, math.min(i + 499, #counters)))
        end
        redis.call('del', KEYS[3], KEYS[2])
        reset = 1
    end
    redis.call('hset', KEYS[1], 'rate', ARGV[1], 'interval', ARGV[2], 'unit', ARGV[3],
               'timezone', ARGV[4])
end

if permits > rate then
    local count = tonumber(redis.call('get', KEYS[2]) or '0')
    if count == nil then
        return redis.error_reply('ratelab: ' .. KEYS[2] .. ' does not hold a number')
    end
    return {0, -1, rate - count, now, reset}
end

-- Count first and take back a grant that does not fit: one call for a grant.
local count = redis.call('incrby', KEYS[2], permits)
if count > rate then
    count = redis.call('decrby', KEYS[2], permits)
    return {0, windowEnd - now, rate - count, now, reset}
end
if count == permits then
    -- First grant of this window: the TTL only collects it later, correctness never needs it.
    redis.call('pexpire', KEYS[2], ARGV[8])
    redis.call('zremrangebyscore', KEYS[3], '-inf', now)
    redis.call('zadd', KEYS[3], windowEnd, KEYS[2])
    redis.call('pexpire', KEYS[3], ARGV[8])
end
return {1, 0, rate - count, now, reset}
