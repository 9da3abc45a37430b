-- The common GCRA form (as go-redis redis_rate and redis-gcra compute it): the theoretical
-- arrival time as a float of milliseconds in one string key, the emission interval
-- period / rate as a float.
-- KEYS[1] the TAT key
-- ARGV: now_ms, rate, period_ms, burst, permits, ttl_ms
-- Returns 1 granted, 0 refused.
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[3]) / tonumber(ARGV[2])
local tolerance = interval * tonumber(ARGV[4])
local tat = tonumber(redis.call('get', KEYS[1]) or now)
if tat < now then
    tat = now
end
local new_tat = tat + interval * tonumber(ARGV[5])
if new_tat - tolerance > now then
    return 0
end
redis.call('set', KEYS[1], new_tat, 'px', ARGV[6])
return 1
