-- Natural-calendar fixed window, one decision. The engine computes the window (time zones
-- need the calendar) and knows now and the window's end; the script owns the counters.
-- KEYS[1] this window's counter {<name>}:fw:<config fingerprint>:<window start ms>[:<client>]:
--         a changed config counts in new counters
-- KEYS[2] only with a limiter's first decision in an engine: the config hash
--         {<name>}:config {fingerprint, rate}, the fingerprint (8 hex digits of the
--         rate/interval/unit/zone) of the config that counts now. A decision that finds
--         another deletes that config's counters and says so (config_reset). The fingerprint
--         comes from KEYS[1] (a name never holds '{' or '}').
-- ARGV: counter ttl_ms[, permits, rate[, window_start_ms, window_end_ms (time: redis)]]: a
--       decision of one permit at the engine's time without KEYS[2] passes the TTL alone
--       (every ARGV element costs Redis 200 to 1,300 instructions to build the table from).
--       A scratch limiter (LimiterOptions::ttlCapMs) passes the config hash's TTL last with
--       KEYS[2] (ARGV[4], or ARGV[6] after the window); without it the hash has no TTL.
-- Every other decision passes no more than the plain INCRBY + PEXPIRE script does.
-- Returns one integer: for one permit 2 x count + config_reset, the window's count after this
-- request, which the engine compares with the rate (fixed_window_limiter.cpp); for more
-- (limiter.h, "compact reply") 2 x remaining + config_reset when granted,
-- -(2 x remaining + config_reset) - 1 when refused. The engine adds the wait (to the window's
-- end) and the time.
--
-- Cost: one INCRBY per decision in a window that has room or is full; a DECRBY only takes back
-- a request that found room but not enough (more than one permit). A full window's counter is
-- left above rate: granted = min(counter, rate), and a counter above rate means the window is
-- full. The first grant of a window also sets the counter's TTL. A config change deletes the
-- old config's counters with a SCAN of this limiter's own keys ({<name>}:fw:*): rare, and it
-- spares every per-window decision an index to maintain.
-- Rate and permits are converted by arithmetic (ARGV[i] + 0): tonumber() is a C call that
-- parses its string twice, and the plain script's two tonumber calls cost it more than ours.
-- A request of one permit converts nothing: it is an INCR.
-- time: redis (limiter.h): ARGV[4] and ARGV[5] bound the window the engine guessed at Redis's
-- time; Redis's time outside [start, end) is answered 'retime <ms>' and the engine retries at
-- that time.
if ARGV[5] then
    local t = redis.call('time')
    local now = t[1] * 1000 + math.floor(t[2] / 1000)
    if now < ARGV[4] + 0 or now >= ARGV[5] + 0 then
        return 'retime ' .. string.format('%d', now)
    end
end
-- The config check: KEYS[2] (the config hash) comes with a limiter's first decision in an
-- engine (FixedWindowLimiter::prepare), not with every window's first grant.
local reset = 0
if KEYS[2] then
    local base = string.sub(KEYS[1], 1, string.find(KEYS[1], '}', 1, true) + 1)  -- "{<name>}:"
    local fingerprint = string.sub(KEYS[1], #base + 4, #base + 11)
    local current = redis.call('hget', KEYS[2], 'fingerprint')
    if current ~= fingerprint then
        -- A changed (or first) config: rate, interval, unit or zone changed, so the counters
        -- reset.
        if current or redis.call('exists', KEYS[2]) == 1 then
            -- Delete every counter of this limiter under another config: "{<name>}:fw:*" (the
            -- name's glob characters escaped), never a key outside the limiter's hash tag.
            local pattern = string.gsub(base, '[%*%?%[%]\\]', '\\%0') .. 'fw:*'
            local cursor = '0'
            repeat
                local page = redis.call('scan', cursor, 'match', pattern, 'count', 1000)
                cursor = page[1]
                local doomed = {}
                for _, key in ipairs(page[2]) do
                    if string.sub(key, 1, #base) == base and
                        string.sub(key, #base + 4, #base + 11) ~= fingerprint then
                        doomed[#doomed + 1] = key
                    end
                end
                if #doomed > 0 then
                    redis.call('unlink', unpack(doomed))
                end
            until cursor == '0'
            redis.call('del', KEYS[2])  -- fields an older layout wrote
            reset = 1
        end
        redis.call('hset', KEYS[2], 'fingerprint', fingerprint, 'rate', ARGV[3])
        local configTtl = ARGV[4]
        if ARGV[5] then
            configTtl = ARGV[6]
        end
        if configTtl then
            redis.call('pexpire', KEYS[2], configTtl)
        end
    end
end

-- One permit (the common case): INCR and answer the count, which the engine compares with
-- the rate itself (a count of one permit cannot find room but not enough). Nothing converted.
if not ARGV[2] or ARGV[2] == '1' then
    local count = redis.call('incr', KEYS[1])
    if count == 1 then
        -- A window's first grant. The TTL only collects the counter later, correctness never
        -- needs it.
        redis.call('pexpire', KEYS[1], ARGV[1])
    end
    return 2 * count + reset
end

local rate = ARGV[3] + 0
local permits = ARGV[2] + 0
if permits > rate then
    -- Never fits: answer what is left without counting.
    local count = tonumber(redis.call('get', KEYS[1]) or '0')
    if count == nil then
        return redis.error_reply('ratelab: ' .. KEYS[1] .. ' does not hold a number')
    end
    return -(2 * (rate - math.min(count, rate)) + reset) - 1
end
local count = redis.call('incrby', KEYS[1], ARGV[2])
if count > rate then
    if count - permits < rate then
        -- There was room, not enough for this request: take it back.
        return -(2 * (rate - redis.call('decrby', KEYS[1], ARGV[2])) + reset) - 1
    end
    return -reset - 1  -- full: remaining 0
end
if count == permits then
    redis.call('pexpire', KEYS[1], ARGV[1])  -- a window's first grant
end
return (rate - count) * 2 + reset
