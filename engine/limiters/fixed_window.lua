-- Natural-calendar fixed window, one decision. The engine computes the window (time zones
-- need the calendar); the script owns the counters.
-- KEYS[1] config hash {<name>}:config {rate, interval, unit, timezone, spec}; spec is the four
--         joined by '|', so that one HGET checks them all
-- KEYS[2] this window's counter {<name>}:fw:<config fingerprint>:<window start ms>[:<client>]:
--         a changed config counts in new counters, so only a window's first grant (a new
--         counter) checks the config
-- KEYS[3] index zset {<name>}:fw:index of counters, score = window end; lets a config change
--         delete every live counter by name
-- ARGV: rate, spec ("rate|interval|unit|timezone"), permits, now_ms, window_end_ms, counter
--       ttl_ms[, window_start_ms (time: redis)]
-- Returns "allowed retry_after_ms remaining at_ms config_reset" as text (limiter.h: a table
-- reply costs Redis more than the rest of a cheap decision); at_ms is now_ms.
--
-- Cost: one INCRBY per grant (and a DECRBY that takes back a rejected one); the first grant of
-- a window also checks the config and sets the TTLs.
-- Number <-> text conversions in Lua cost Redis as much as a command: a decision converts only
-- rate and permits.
-- time: redis (limiter.h): ARGV[4] is 'redis', ARGV[7] the start of the window the engine
-- guessed; Redis's time outside [start, end) is answered 'retime <ms>' and the engine retries
-- at that time.
if ARGV[4] == 'redis' then
    local t = redis.call('time')
    local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
    if now < tonumber(ARGV[7]) or now >= tonumber(ARGV[5]) then
        return 'retime ' .. string.format('%d', now)
    end
    ARGV[4] = string.format('%d', now)
end
local rate = tonumber(ARGV[1])
local permits = tonumber(ARGV[3])

-- A changed rate, interval, unit or zone resets the counters: the old config's counters go.
local function applyConfig()
    if redis.call('hget', KEYS[1], 'spec') == ARGV[2] then
        return 0
    end
    local fields = {}
    for field in string.gmatch(ARGV[2], '[^|]+') do
        fields[#fields + 1] = field
    end
    local cfg = redis.call('hmget', KEYS[1], 'rate', 'interval', 'unit', 'timezone')
    local reset = 0
    if cfg[1] or cfg[2] or cfg[3] or cfg[4] then
        -- The index is state another writer may have touched: delete only this limiter's
        -- counters ("{<name>}:fw:<...>", never the index itself nor this new counter),
        -- whatever else it lists.
        local prefix = string.sub(KEYS[3], 1, #KEYS[3] - #'index')
        local counters = {}
        for _, key in ipairs(redis.call('zrange', KEYS[3], 0, -1)) do
            if string.sub(key, 1, #prefix) == prefix and key ~= KEYS[3] and key ~= KEYS[2] then
                counters[#counters + 1] = key
            end
        end
        for i = 1, #counters, 500 do
            redis.call('del', unpack(counters, i, math.min(i + 499, #counters)))
        end
        redis.call('del', KEYS[3])
        reset = 1
    end
    redis.call('hset', KEYS[1], 'rate', fields[1], 'interval', fields[2], 'unit', fields[3],
               'timezone', fields[4], 'spec', ARGV[2])
    return reset
end

if permits > rate then
    local count = tonumber(redis.call('get', KEYS[2]) or '0')
    if count == nil then
        return redis.error_reply('ratelab: ' .. KEYS[2] .. ' does not hold a number')
    end
    return '0 -1 ' .. string.format('%d', rate - count) .. ' ' .. ARGV[4] .. ' 0'
end

-- Count first and take back a grant that does not fit: one call for a grant.
local count = redis.call('incrby', KEYS[2], ARGV[3])
if count > rate then
    count = redis.call('decrby', KEYS[2], ARGV[3])
    return '0 ' .. string.format('%d %d', tonumber(ARGV[5]) - tonumber(ARGV[4]), rate - count) ..
               ' ' .. ARGV[4] .. ' 0'
end
local reset = 0
if count == permits then
    -- First grant of this window (under this config): the TTL only collects it later,
    -- correctness never needs it.
    reset = applyConfig()
    redis.call('pexpire', KEYS[2], ARGV[6])
    redis.call('zremrangebyscore', KEYS[3], '-inf', ARGV[4])
    redis.call('zadd', KEYS[3], ARGV[5], KEYS[2])
    redis.call('pexpire', KEYS[3], ARGV[6])
end
return '1 0 ' .. string.format('%d', rate - count) .. ' ' .. ARGV[4] .. (reset == 1 and ' 1' or ' 0')
