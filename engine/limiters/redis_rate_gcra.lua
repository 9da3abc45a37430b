-- GCRA as go-redis/redis_rate v10 decides it (its allowN script, line for line): times are
-- seconds since 2017-01-01 in double precision, T = period / rate, the TAT stored as the float it
-- is. Now is Redis's TIME to the microsecond, as the library reads it, when ARGV[5] is "redis";
-- otherwise the engine's now to the millisecond.
-- KEYS[1] {<name>}:rr[:<client>] = the TAT (a float: Redis writes a Lua number with 17 digits)
-- ARGV: burst, rate, period (seconds, as the library's caller formats it), cost (permits),
--       now_ms or "redis", ttl scale, ttl extra ms (the key lives until its TAT, as the
--       library's EX ceil(reset_after), stretched and lengthened as every ratelab TTL is)[, the
--       longest TTL (a scratch limiter's, LimiterOptions::ttlCapMs)]
-- Returns the text "<allowed> <remaining> <retry_after_ms> <tat>[ <sec> <usec>]": remaining is
-- floor(diff / T) (0 when refused), retry_after_ms ceil(-diff x 1000) (-1 when granted), tat
-- the TAT the request found (max(TAT, now), seconds since 2017 with 17 digits) and, with Redis's
-- TIME, the time it read.
local burst = ARGV[1]
local rate = ARGV[2]
local period = ARGV[3]
local cost = tonumber(ARGV[4])

local emission_interval = period / rate
local increment = emission_interval * cost
local burst_offset = emission_interval * burst

local jan_1_2017 = 1483228800
local now, time
if ARGV[5] == 'redis' then
    time = redis.call('TIME')
    now = (time[1] - jan_1_2017) + (time[2] / 1000000)
else
    local t = ARGV[5] + 0
    local seconds = math.floor(t / 1000)
    now = (seconds - jan_1_2017) + ((t - seconds * 1000) / 1000)
end

local tat = redis.call('GET', KEYS[1])
if not tat then
    tat = now
else
    tat = tonumber(tat)
end
tat = math.max(tat, now)

local new_tat = tat + increment
local allow_at = new_tat - burst_offset
local diff = now - allow_at
local remaining = diff / emission_interval

local reply
if remaining < 0 then
    reply = string.format('0 0 %d %.17g', math.ceil(-diff * 1000), tat)
else
    local reset_after = new_tat - now
    if reset_after > 0 then
        -- A whole number below 2^53 goes to Redis as its digits (Lua's number to text): no
        -- string.format, a C call that costs about as much as a command.
        local px = math.ceil(reset_after * 1000 * ARGV[6]) + ARGV[7]
        if ARGV[8] and px > ARGV[8] + 0 then
            px = ARGV[8]
        end
        redis.call('SET', KEYS[1], new_tat, 'PX', px)
    end
    reply = string.format('1 %d -1 %.17g', math.floor(remaining), tat)
end
if time then
    reply = reply .. ' ' .. time[1] .. ' ' .. time[2]
end
return reply
