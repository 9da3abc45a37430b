-- go-redis/redis_rate v10's AllowN, as the library sends it: seconds since 2017-01-01 in
-- doubles, the emission interval period / rate, the TAT stored as the double it is.
-- KEYS[1] the TAT key
-- ARGV: burst, rate, period (seconds), cost (permits), now_ms, ttl_s
-- Returns {allowed, remaining, retry_after, reset_after} (the last two as text, seconds), as
-- the library does: allowed is the cost granted, 0 refused.
-- Two departures from the library, both for replaying a trace: now is ARGV[5] where the
-- library reads Redis's TIME, and the key's TTL is ARGV[6] seconds where the library writes
-- ceil(reset_after), so that a trace replayed slower than its own time keeps its TAT.
local burst = ARGV[1]
local rate = ARGV[2]
local period = ARGV[3]
local cost = tonumber(ARGV[4])

local interval = period / rate
local increment = interval * cost
local burst_offset = interval * burst

local epoch_2017 = 1483228800
local t = tonumber(ARGV[5])
local seconds = math.floor(t / 1000)
local now = (seconds - epoch_2017) + ((t - seconds * 1000) / 1000)

local tat = redis.call('GET', KEYS[1])
if not tat then
    tat = now
else
    tat = tonumber(tat)
end
tat = math.max(tat, now)

local new_tat = tat + increment
local diff = now - (new_tat - burst_offset)
local remaining = diff / interval
if remaining < 0 then
    return {0, 0, tostring(-diff), tostring(tat - now)}
end
local reset_after = new_tat - now
if reset_after > 0 then
    redis.call('SET', KEYS[1], new_tat, 'EX', ARGV[6])
end
return {cost, remaining, tostring(-1), tostring(reset_after)}
