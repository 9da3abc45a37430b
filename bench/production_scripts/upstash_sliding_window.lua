-- @upstash/ratelimit v2's single-region sliding window (Ratelimit.slidingWindow), as the
-- library sends it: two counters per identifier, the previous window's weighted by the part of
-- it still inside the sliding window, in doubles, floored.
-- KEYS[1] the current window's counter, KEYS[2] the previous window's
-- ARGV: limit, now_ms, window_ms, increment (permits), ttl_ms
-- Returns {remaining, limit}, or {-1, limit} refused.
-- One departure from the library: the counter's TTL is ARGV[5] where the library writes
-- window * 2 + 1000 ms, so that a trace replayed slower than its own time keeps its previous
-- window (the other yardsticks' keys live an hour for the same reason).
local limit = tonumber(ARGV[1])
local now = ARGV[2]
local window = ARGV[3]
local increment = tonumber(ARGV[4])

local current = redis.call('GET', KEYS[1])
if current == false then
    current = 0
end
local previous = redis.call('GET', KEYS[2])
if previous == false then
    previous = 0
end
local elapsed = (now % window) / window
previous = math.floor((1 - elapsed) * previous)
if increment > 0 and previous + current >= limit then
    return {-1, limit}
end
local counted = redis.call('INCRBY', KEYS[1], increment)
if counted == increment then
    redis.call('PEXPIRE', KEYS[1], ARGV[5])
end
return {limit - (counted + previous), limit}
