-- The common sliding-window counter (Cloudflare's estimate, as upstash ratelimit keeps it): one
-- counter per epoch-aligned window, the previous window weighted by how much of it still
-- overlaps the sliding window, floats throughout.
-- KEYS[1] the current window's counter, KEYS[2] the previous window's
-- ARGV: now_ms, window_ms, limit, permits, ttl_ms
-- Returns 1 granted, 0 refused.
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local permits = tonumber(ARGV[4])
local current = tonumber(redis.call('get', KEYS[1]) or 0)
local previous = tonumber(redis.call('get', KEYS[2]) or 0)
local weight = (window - now % window) / window
if math.floor(previous * weight) + current + permits > tonumber(ARGV[3]) then
    return 0
end
if redis.call('incrby', KEYS[1], permits) == permits then
    redis.call('pexpire', KEYS[1], ARGV[5])
end
return 1
